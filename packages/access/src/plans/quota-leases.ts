import type { Logger } from '@xle/core';
import { counterId, type ConsumeResult, type CounterKey, type UsageCounter } from './usage-counter.js';

export interface QuotaLeaseOptions {
  /** The most places one reservation takes from a counter (ACCESS_QUOTA_BLOCK). */
  block: number;
  /** A counter unused this long gives back its unused places (and is forgotten). */
  idleMs?: number;
  /** After the engine said "limit reached", refuse locally this long before asking again. */
  recheckMs?: number;
  now?: () => number;
  logger?: Logger;
}

/** Places of one day's count this process holds: `next` to `end`, both included. */
interface Slots {
  next: number;
  end: number;
}

interface Lease {
  key: CounterKey;
  limit: number;
  slots: Slots[];
  /** How many places to hold after the next reservation: 1, then doubling up to the block while the counter is used. */
  size: number;
  refill: Promise<void> | undefined;
  lastUse: number;
  /** The engine had no place left at the last reservation: refuse locally until then. */
  refusedUntil: number;
  /** The highest count the engine reported. */
  known: number;
}

const credit = (lease: Lease): number => lease.slots.reduce((n, s) => n + s.end - s.next + 1, 0);

/** A block never holds more than this share of a day's limit (so a killed process costs a client at most 1 % of its day). */
export const BLOCK_SHARE_OF_LIMIT = 0.01;

/** The most places one reservation of a counter with this daily `limit` holds: `block`, at most 1 % of the limit, at least 1 (pure). */
export function leaseBlock(block: number, limit: number): number {
  return Math.max(1, Math.min(block, Math.floor(limit * BLOCK_SHARE_OF_LIMIT)));
}

/**
 * The daily quota off the hot path. A process reserves places of a counter ahead of need (a
 * conditional write that never takes the counter above the limit), hands them out from memory,
 * and reserves the next block in the background when half of the current one is used; the block
 * starts at one place and doubles up to `block` or 1 % of the counter's daily limit, whichever is
 * smaller (leaseBlock), so a client seen once costs one place, and a busy key costs one engine
 * write per half block. Unused places go back to the counter when a counter goes idle and when
 * the process closes.
 *
 * What this guarantees: at most `limit` requests per counter and day are admitted, across every
 * process (reservations are capped by the conditional write); each admitted request gets its own
 * place in the day's count (its X-RateLimit-Remaining). What it costs: a process that dies without
 * closing keeps its unused places counted (it never holds more than one block per counter), and
 * near the limit a process may refuse while another still holds places, until those go idle and
 * come back.
 */
export class QuotaLeases {
  private readonly leases = new Map<string, Lease>();
  private readonly idleMs: number;
  private readonly recheckMs: number;
  private readonly now: () => number;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly counter: UsageCounter,
    private readonly options: QuotaLeaseOptions,
  ) {
    this.idleMs = options.idleMs ?? 10_000;
    this.recheckMs = options.recheckMs ?? 5_000;
    this.now = options.now ?? Date.now;
    this.sweeper = setInterval(() => void this.giveBackIdle(false), Math.max(100, this.idleMs / 2));
    this.sweeper.unref();
  }

  /** Counts one request against `limit` unless the limit is reached. */
  async consume(key: CounterKey, limit: number): Promise<ConsumeResult> {
    const id = counterId(key);
    let lease = this.leases.get(id);
    if (lease === undefined) {
      lease = { key, limit, slots: [], size: 1, refill: undefined, lastUse: 0, refusedUntil: 0, known: 0 };
      this.leases.set(id, lease);
    }
    lease.limit = limit;
    for (;;) {
      lease.lastUse = this.now();
      const place = this.take(lease);
      if (place !== undefined) {
        if (credit(lease) * 2 <= lease.size && lease.refill === undefined && lease.refusedUntil <= lease.lastUse)
          this.refill(lease).catch((error: unknown) =>
            this.options.logger?.warn(
              { err: error, counter: id },
              'quota reservation failed; the next request retries',
            ),
          );
        return { allowed: true, count: place };
      }
      if (lease.refusedUntil > lease.lastUse) return { allowed: false, count: lease.known };
      await this.refill(lease);
    }
  }

  /** Gives back every unused place and stops the idle sweep (the server's close). */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await this.giveBackIdle(true);
  }

  private take(lease: Lease): number | undefined {
    const slots = lease.slots[0];
    if (slots === undefined) return undefined;
    const place = slots.next;
    slots.next += 1;
    if (slots.next > slots.end) lease.slots.shift();
    return place;
  }

  /** One reservation at a time per counter; callers that find no place wait on it. */
  private refill(lease: Lease): Promise<void> {
    lease.refill ??= (async () => {
      try {
        // Top up to `size` places held: never more than the block, whatever is in flight.
        const wanted = Math.max(1, lease.size - credit(lease));
        const { granted, count } = await this.counter.reserve(lease.key, wanted, lease.limit);
        lease.known = Math.max(lease.known, count);
        if (granted > 0) {
          lease.slots.push({ next: count - granted + 1, end: count });
          lease.size = Math.min(leaseBlock(this.options.block, lease.limit), lease.size * 2);
        } else lease.refusedUntil = this.now() + this.recheckMs;
      } finally {
        lease.refill = undefined;
      }
    })();
    return lease.refill;
  }

  /** Gives back the unused places of idle counters (of every counter when `all`), and forgets them. */
  private async giveBackIdle(all: boolean): Promise<void> {
    const now = this.now();
    const work: Promise<void>[] = [];
    for (const [id, lease] of this.leases) {
      if (!all && now - lease.lastUse < this.idleMs) continue;
      if (lease.refill !== undefined) {
        if (!all) continue;
        await lease.refill.catch(() => undefined);
      }
      this.leases.delete(id);
      const unused = credit(lease);
      if (unused > 0)
        work.push(
          this.counter
            .giveBack(lease.key, unused)
            .catch((error: unknown) =>
              this.options.logger?.warn({ err: error, counter: id, unused }, 'could not give back unused quota'),
            ),
        );
    }
    await Promise.all(work);
  }
}
