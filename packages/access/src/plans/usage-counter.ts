import { setTimeout as sleep } from 'node:timers/promises';
import { errors } from '@elastic/elasticsearch';
import { AppError, ErrorCode, indexName, type Client, type IndexNaming } from '@xle/core';
import type { Plan } from './plans.js';

/** One daily counter: `_id` = `<plan>.<client>.<day>` in the usage index. */
export interface CounterKey {
  plan: Plan;
  /** Client address (free plan) or key id (subscription plans). */
  client: string;
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
}

interface UsageDoc extends CounterKey {
  count: number;
  updated_at: string;
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

function isStatus(error: unknown, status: number): boolean {
  return error instanceof errors.ResponseError && error.statusCode === status;
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
  private readonly index: string;
  private readonly queues = new Map<string, Waiter[]>();

  constructor(
    private readonly client: Client,
    naming: IndexNaming,
    private readonly now: () => number = Date.now,
  ) {
    this.index = indexName(naming, 'usage');
  }

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
    try {
      const found = await this.client.get<UsageDoc>({ index: this.index, id: counterId(key) });
      return found._source?.count ?? 0;
    } catch (error) {
      if (isStatus(error, 404)) return 0;
      throw error;
    }
  }

  /**
   * Deletes the counters of every UTC day before `firstKept` (`YYYY-MM-DD`; days compare as
   * strings) and returns how many went. One counter per client and day adds up (the free plan
   * counts every client address), and only today's counters decide admission. Deleted a page at a
   * time through search and bulk, which every cluster has (`_delete_by_query` needs the reindex
   * module); counters of past days are never written again, so a page cannot race a writer.
   */
  async prune(firstKept: string, pageSize = 1000): Promise<number> {
    let deleted = 0;
    for (;;) {
      const page = await this.client.search({
        index: this.index,
        query: { range: { day: { lt: firstKept } } },
        sort: ['_doc'],
        size: pageSize,
        _source: false,
      });
      const ids = page.hits.hits.map((hit) => hit._id as string);
      if (ids.length === 0) return deleted;
      const answer = await this.client.bulk({
        operations: ids.map((id) => ({ delete: { _index: this.index, _id: id } })),
        refresh: true,
      });
      const failed = answer.items.find((item) => (item.delete?.status ?? 500) >= 300 && item.delete?.status !== 404);
      if (failed !== undefined) throw new Error(`pruning usage counters failed: ${JSON.stringify(failed.delete)}`);
      deleted += ids.length;
    }
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
      let current: { count: number; seqNo: number; primaryTerm: number } | undefined;
      try {
        const found = await this.client.get<UsageDoc>({ index: this.index, id });
        if (found._source !== undefined && found._seq_no !== undefined && found._primary_term !== undefined)
          current = { count: found._source.count, seqNo: found._seq_no, primaryTerm: found._primary_term };
      } catch (error) {
        if (!isStatus(error, 404)) throw error;
      }
      const count = current?.count ?? 0;
      const granted = Math.min(wanted, Math.max(0, limit - count));
      if (granted === 0) return { granted, count };
      const document: UsageDoc = { ...key, count: count + granted, updated_at: new Date(this.now()).toISOString() };
      try {
        // No transport retries: a retried write that had landed would come back 409 and be counted twice.
        if (current === undefined) await this.client.create({ index: this.index, id, document }, { maxRetries: 0 });
        else
          await this.client.index(
            { index: this.index, id, document, if_seq_no: current.seqNo, if_primary_term: current.primaryTerm },
            { maxRetries: 0 },
          );
        return { granted, count: count + granted };
      } catch (error) {
        if (!isStatus(error, 409)) throw error;
      }
    }
    throw new AppError(503, ErrorCode.EngineUnavailable, 'Too many concurrent requests on one quota; try again.', {
      retryAfter: 1,
    });
  }
}
