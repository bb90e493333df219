import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, ErrorCode } from '@xle/core';
import { admitRequest, refundRequest, type ChannelAccount } from './accounting.js';
import type { PaymentClaim } from './claim-header.js';
import type { PayChannelState } from './channel.js';
import type { PaygStore, VersionedAccount } from '../engine/payg-store.js';

/** Runs tasks one after another per key (here: per channel), in arrival order. */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}

export interface MeterOptions {
  priceDrops: bigint;
  now: () => Date;
  /** Conditional writes tried before answering 503 CHANNEL_BUSY. */
  maxAttempts?: number;
  /** Channel accounts remembered (with their version) to save a read per request. */
  cacheSize?: number;
}

/**
 * Records each admitted request's cost against its channel, atomically across processes.
 *
 * Within one process, requests on a channel are queued so that they do not race each other;
 * between processes, every write is conditional on the version read, and a conflict means
 * "someone else wrote first": read again and decide again. So two hundred concurrent requests
 * on a claim that covers N are served exactly N times, whatever the number of API processes.
 * The last written version is cached; a stale cache can only cause a conflict (then a fresh
 * read), and a refusal is only ever given on a fresh read.
 */
export class ChannelMeter {
  private readonly queue = new KeyedQueue();
  private readonly cache = new Map<string, VersionedAccount>();
  private readonly maxAttempts: number;
  private readonly cacheSize: number;

  constructor(
    private readonly store: PaygStore,
    private readonly options: MeterOptions,
  ) {
    this.maxAttempts = options.maxAttempts ?? 50;
    this.cacheSize = options.cacheSize ?? 10_000;
  }

  /** Admits one request paid by `claim` (throws 402 CLAIM_INSUFFICIENT) and returns the new account. */
  charge(claim: PaymentClaim, channel: PayChannelState): Promise<ChannelAccount> {
    return this.queue.run(channel.id, () =>
      this.update(channel.id, (current) =>
        admitRequest(current, claim, channel, this.options.priceDrops, this.options.now()),
      ),
    );
  }

  /** Gives back one request's price (the request failed on our side). */
  refund(channelId: string): Promise<ChannelAccount | undefined> {
    return this.queue.run(channelId, () =>
      this.update(channelId, (current) =>
        current === undefined ? undefined : refundRequest(current, this.options.priceDrops, this.options.now()),
      ),
    );
  }

  private async update<T extends ChannelAccount | undefined>(
    id: string,
    change: (current: ChannelAccount | undefined) => T,
  ): Promise<T> {
    for (let attempt = 0; attempt < this.maxAttempts; attempt += 1) {
      const cached = this.cache.get(id);
      const current = cached ?? (await this.store.readAccount(id));
      let next: T;
      try {
        next = change(current?.doc);
      } catch (error) {
        if (cached === undefined) throw error;
        // Decide refusals on what is stored now, not on what this process last wrote.
        this.cache.delete(id);
        attempt -= 1;
        continue;
      }
      if (next === undefined || next === current?.doc) return next;
      const written = await this.store.writeAccount(next, current);
      if (written !== 'conflict') {
        this.remember(id, written);
        return next;
      }
      this.cache.delete(id);
      // Another process wrote first; back off a little (jittered) before reading again.
      await sleep(Math.random() * Math.min(50, 2 ** attempt));
    }
    throw new AppError(503, ErrorCode.ChannelBusy, 'Too many concurrent requests on this channel; retry shortly.', {
      retryAfter: 1,
      details: { channel: id },
    });
  }

  private remember(id: string, account: VersionedAccount): void {
    this.cache.delete(id);
    this.cache.set(id, account);
    if (this.cache.size > this.cacheSize) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
  }
}
