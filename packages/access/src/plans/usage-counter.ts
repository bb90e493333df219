import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, ErrorCode, TtlCache } from '@xle/core';
import type { UsageDoc, UsageStore, VersionedUsage } from '../engine/usage-store.js';
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

/** Conflicting writers retry this often before the request is answered 503. */
const MAX_ATTEMPTS = 60;

/** Versions of counters this process wrote, the oldest forgotten past this many (only a hint). */
const MAX_WRITTEN = 50_000;

export function counterId(key: CounterKey): string {
  return `${key.plan}.${key.client}.${key.day}`;
}

/** The first UTC day (`YYYY-MM-DD`) of the last `days` days, today included (pure). */
export function firstKeptDay(now: number, days: number): string {
  return new Date(now - (days - 1) * 86_400_000).toISOString().slice(0, 10);
}

/** What a reservation got: `granted` places, numbered `count - granted + 1` to `count` in the day's count. */
export interface Reservation {
  granted: number;
  /** The counter after the reservation (or as read, when nothing was granted). */
  count: number;
}

/**
 * Daily request counters kept in the engine, so they survive restarts and hold across every API
 * process reading the same indices. The engine runs no scripts, so a change is optimistic
 * concurrency: a write conditional on the counter's `_seq_no`/`_primary_term` (or a create for the
 * day's first request); a 409 means another writer won, and we read again. The version is the one
 * this counter last wrote when it knows one (a process that alone serves a key changes its counter
 * in one engine write, without the real-time get, which also makes the engine refresh the usage
 * index), else a real-time get. A reservation never takes the counter above the limit, so however
 * many processes reserve at once, at most `limit` places are handed out per counter and day.
 */
export class UsageCounter {
  /** The version of each counter as this process last wrote it (a hint: a 409 sends us to read). */
  private readonly written = new TtlCache<string, VersionedUsage>({ ttlMs: Infinity, maxEntries: MAX_WRITTEN });

  constructor(
    private readonly store: UsageStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** The count of a counter without changing it (0 when nothing was counted yet). */
  async peek(key: CounterKey): Promise<number> {
    return (await this.store.read(counterId(key)))?.count ?? 0;
  }

  /**
   * Adds up to `wanted` to the counter, never above `limit`, and never more than a quarter of the
   * places left (at least one): near the limit, reservations shrink, so the places other processes
   * hold unused while this one is refused stay few.
   */
  reserve(key: CounterKey, wanted: number, limit: number): Promise<Reservation> {
    return this.change(key, (count) => {
      const left = Math.max(0, limit - count);
      return Math.min(wanted, left, Math.max(1, Math.ceil(left / 4)));
    });
  }

  /** Takes back `unused` places reserved earlier and not used (never below zero). */
  async giveBack(key: CounterKey, unused: number): Promise<void> {
    await this.change(key, (count) => -Math.min(unused, count));
  }

  /** Adds `deltaOf(count)` to the counter by conditional write; returns what was added and the new count. */
  private async change(key: CounterKey, deltaOf: (count: number) => number): Promise<Reservation> {
    const id = counterId(key);
    let current = this.written.get(id);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      if (attempt > 0) await sleep(Math.random() * Math.min(50, 2 ** attempt));
      const remembered = current !== undefined;
      if (!remembered) current = await this.store.read(id);
      let delta = deltaOf(current?.count ?? 0);
      // "Nothing to change" is decided on the engine's count, never on a remembered one (another
      // process may have given places back since).
      if (delta === 0 && remembered) {
        current = await this.store.read(id);
        delta = deltaOf(current?.count ?? 0);
      }
      const count = current?.count ?? 0;
      if (delta === 0) return { granted: 0, count };
      const document: UsageDoc = { ...key, count: count + delta, updated_at: new Date(this.now()).toISOString() };
      const written = await this.store.write(id, document, current);
      if (written !== 'conflict') {
        if (written === undefined) this.written.delete(id);
        else this.written.set(id, written);
        return { granted: delta, count: count + delta };
      }
      // Another writer won (or the remembered version was stale): read the counter again.
      this.written.delete(id);
      current = undefined;
    }
    throw new AppError(503, ErrorCode.EngineUnavailable, 'Too many concurrent requests on one quota; try again.', {
      retryAfter: 1,
    });
  }
}
