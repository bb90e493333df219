import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, ErrorCode } from '@xle/core';
import type { UsageDoc, UsageStore } from '../engine/usage-store.js';
import type { Plan } from './plans.js';

/** One daily counter: `_id` = `<plan>.<client>.<day>` in the usage index. */
export interface CounterKey {
  plan: Plan;
  /** Client address (free plan) or key id (subscription plans). */
  client: string;
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
}

export interface ConsumeResult {
  allowed: boolean;
  /** Requests counted today, this one included when allowed. */
  count: number;
}

interface Waiter {
  resolve(result: ConsumeResult): void;
  reject(error: unknown): void;
}

/** Conflicting writers retry this often before the request is answered 503. */
const MAX_ATTEMPTS = 60;

export function counterId(key: CounterKey): string {
  return `${key.plan}.${key.client}.${key.day}`;
}

/** The first UTC day (`YYYY-MM-DD`) of the last `days` days, today included (pure). */
export function firstKeptDay(now: number, days: number): string {
  return new Date(now - (days - 1) * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Daily request counters kept in the engine, so they survive restarts and hold across every API
 * process reading the same indices. The engine runs no scripts, so an increment is optimistic
 * concurrency: a real-time get, then a write conditional on the `_seq_no`/`_primary_term` read
 * (or a create for the day's first request); a 409 means another writer won, and we read again.
 * A request is admitted only if its increment is written, so exactly `limit` requests get through
 * per counter and day, however many processes count at once.
 *
 * Within one process, requests waiting on the same counter are counted in one write: the queue
 * is drained in batches of "n wanted", and the write grants min(n, limit - count). That keeps the
 * number of conflicting writers to one per process, not one per request in flight.
 */
export class UsageCounter {
  private readonly queues = new Map<string, Waiter[]>();

  constructor(
    private readonly store: UsageStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one request against `limit` unless the limit is reached. */
  consume(key: CounterKey, limit: number): Promise<ConsumeResult> {
    const id = counterId(key);
    return new Promise<ConsumeResult>((resolve, reject) => {
      const queue = this.queues.get(id);
      if (queue !== undefined) {
        queue.push({ resolve, reject });
        return;
      }
      this.queues.set(id, [{ resolve, reject }]);
      void this.drain(id, key, limit);
    });
  }

  /** The count of a counter without changing it (0 when nothing was counted yet). */
  async peek(key: CounterKey): Promise<number> {
    return (await this.store.read(counterId(key)))?.count ?? 0;
  }

  private async drain(id: string, key: CounterKey, limit: number): Promise<void> {
    for (;;) {
      const queue = this.queues.get(id) ?? [];
      const batch = queue.splice(0);
      if (batch.length === 0) {
        this.queues.delete(id);
        return;
      }
      try {
        const { granted, count } = await this.increment(id, key, batch.length, limit);
        batch.forEach((waiter, i) =>
          waiter.resolve(i < granted ? { allowed: true, count: count - granted + i + 1 } : { allowed: false, count }),
        );
      } catch (error) {
        for (const waiter of batch) waiter.reject(error);
      }
    }
  }

  /** Adds up to `wanted` to the counter, never above `limit`; returns what was added and the new count. */
  private async increment(
    id: string,
    key: CounterKey,
    wanted: number,
    limit: number,
  ): Promise<{ granted: number; count: number }> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      if (attempt > 0) await sleep(Math.random() * Math.min(50, 2 ** attempt));
      const current = await this.store.read(id);
      const count = current?.count ?? 0;
      const granted = Math.min(wanted, Math.max(0, limit - count));
      if (granted === 0) return { granted, count };
      const document: UsageDoc = { ...key, count: count + granted, updated_at: new Date(this.now()).toISOString() };
      if ((await this.store.write(id, document, current)) === 'written') return { granted, count: count + granted };
    }
    throw new AppError(503, ErrorCode.EngineUnavailable, 'Too many concurrent requests on one quota; try again.', {
      retryAfter: 1,
    });
  }
}
