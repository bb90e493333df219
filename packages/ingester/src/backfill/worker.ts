import { DEFAULT_RANGE_LEDGERS, rangeStart, sleepUnless, type Logger } from '@xle/core';
import type { LedgerInput } from '@xle/documents';
import type { IngestEngine } from '../engine/ingest-engine.js';
import { CheckpointStore, type LedgerRange } from '../pipeline/checkpoint.js';
import { LEDGER_KINDS, runPipeline } from '../pipeline/run.js';
import { SourceError } from '../sources/rippled.js';
import {
  chooseChunk,
  chunkOrder,
  chunksOf,
  gapLedgers,
  gapsUpTo,
  rangesToWork,
  withGap,
  withoutLedgers,
  type ChunkGap,
  type ChunkLease,
} from './chunks.js';
import { LeaseStore, type HeldLease } from './lease-store.js';

export interface BackfillWorkerOptions {
  engine: IngestEngine;
  logger: Logger;
  /** The checkpoint and lease namespace (`rippled`). */
  source: string;
  /** This worker's name, unique among the workers sharing the backfill (host, process, slot). */
  owner: string;
  range: LedgerRange;
  /** Ledgers per chunk (aligned on multiples of it). */
  chunkLedgers: number;
  /** How long a lease lasts without renewal; a worker renews it every third of that. */
  leaseMs: number;
  /**
   * The ledgers of a range, in order (a rippled backfill). A ledger the source cannot serve fails
   * the iteration with a `SourceError`: the worker records it as a gap and asks again after it.
   */
  ledgers: (from: number, to: number) => AsyncIterable<LedgerInput>;
  /** The network's id for ctids (asked at each chunk: a source knows it once connected). */
  networkId: number | (() => number);
  /** Refresh interval of the indices while the backfill writes them (`-1`, `30s`, ...). */
  backfillRefresh?: string;
  /** This worker's place among the workers started together (0-based) and their number: where in the range it starts. */
  slot?: number;
  slots?: number;
  /** When this run started: gaps left before it are fetched again (default: when the worker starts). */
  since?: number;
  /** Ledgers in a row the source may fail before the worker takes it for down and fails (default 10). */
  maxConsecutiveGaps?: number;
  /** Ledgers a batch holds at most (default: the pipeline's, DEFAULT_BATCH_LEDGERS). */
  batchLedgers?: number;
  /** How long to wait before looking again when every unfinished chunk is leased by others. */
  pollMs?: number;
  signal?: AbortSignal;
  now?: () => number;
  /** Called after each batch is recorded, with the chunk and the ledgers done so far. */
  /** After each batch: its newest ledger, how many ledgers it wrote, and the chunk's documents so far. */
  onProgress?: (event: {
    owner: string;
    chunk: LedgerRange;
    ledger: number;
    ledgers: number;
    documents: number;
  }) => void;
}

export interface WorkerTotals {
  owner: string;
  chunks: number;
  takeovers: number;
  ledgers: number;
  documents: number;
  deadLetters: number;
  /** Chunks this worker lost to a takeover while working them. */
  lost: number;
  /** Ledgers the source could not serve, left as gaps of the chunks this worker finished (new or retried in vain). */
  gaps: number;
  /** Gap ledgers of earlier runs this worker fetched and wrote. */
  filled: number;
  /** True when every chunk of the range is done, with or without gaps (false: stopped, cancelled or failed). */
  finished: boolean;
  /** True when the plan was cancelled (`backfill --cancel`) while this worker ran. */
  cancelled: boolean;
  /** Why the worker failed (it released its chunk and stopped; the other workers go on). */
  error?: string;
}

/** The totals of a worker that has done nothing yet. */
export function workerTotals(owner: string): WorkerTotals {
  return {
    owner,
    chunks: 0,
    takeovers: 0,
    ledgers: 0,
    documents: 0,
    deadLetters: 0,
    lost: 0,
    gaps: 0,
    filled: 0,
    finished: false,
    cancelled: false,
  };
}

/**
 * One backfill worker: leases chunks of the range from the engine, one at a time (starting at its
 * own share of the range, preferring range indices no other worker writes), indexes each through
 * the normal pipeline under the shared checkpoint, renews its lease (recording progress and gaps)
 * while it works, and marks the chunk done, or done with gaps when the source could not serve
 * some ledgers. When every chunk left is leased by others it waits and looks again, so a chunk
 * whose worker died is taken over once its lease expires, from the progress that worker recorded.
 *
 * It never throws: a failure (the engine gone for longer than its retries, a source that is down)
 * releases the chunk at once, records the worker's heartbeat as `failed` with the error, and is
 * answered in `error`, so other workers of the same process go on.
 */
export async function runBackfillWorker(options: BackfillWorkerOptions): Promise<WorkerTotals> {
  const { engine, owner, range, leaseMs, logger } = options;
  const now = options.now ?? Date.now;
  const since = options.since ?? now();
  const store = new LeaseStore(engine, options.source, now);
  const checkpoints = new CheckpointStore(engine, options.source);
  const refresh = new BackfillRefresh(options, store);
  const totals = workerTotals(owner);
  const stopped = (): boolean => options.signal?.aborted === true;
  try {
    await store.recordPlan(range, options.chunkLedgers);
    await refresh.start();
    const chunks = chunkOrder(chunksOf(range, options.chunkLedgers), options.slot ?? 0, options.slots ?? 1);
    const rangeLedgers = engine.naming.rangeLedgers ?? DEFAULT_RANGE_LEDGERS;
    while (!stopped()) {
      if (!(await store.planned(range, options.chunkLedgers))) {
        totals.cancelled = true;
        break;
      }
      const leases = await store.leases(chunks);
      const choice = chooseChunk(chunks, leases, options.source, owner, now(), since, rangeLedgers);
      if (!choice.open) {
        totals.finished = true;
        break;
      }
      if (choice.next === undefined) {
        await store.heartbeat({ owner, state: 'waiting' });
        await sleepUnless(
          options.signal ?? new AbortController().signal,
          options.pollMs ?? Math.min(5000, Math.max(100, leaseMs / 4)),
        );
        continue;
      }
      const { chunk, decision } = choice.next;
      const held = await store.claim(chunk, owner, leaseMs, { since, chunk: options.chunkLedgers });
      if (held === 'done' || held === 'busy') continue; // another worker was quicker: look again
      if (!(await store.planned(range, options.chunkLedgers))) {
        // Cancelled between the check above and the claim: the claim must not outlive the plan.
        await store.abandon(held);
        totals.cancelled = true;
        break;
      }
      if (decision === 'take-over') totals.takeovers += 1;
      await store.heartbeat({ owner, state: 'working', from: chunk.from, to: chunk.to, progress: held.lease.progress });
      const outcome = await workChunk(options, store, checkpoints, held, totals, refresh);
      if (outcome === 'lost') totals.lost += 1;
      else if (outcome === 'done') totals.chunks += 1;
    }
    await store.heartbeat({ owner, state: 'finished' });
  } catch (error) {
    totals.error = error instanceof Error ? error.message : String(error);
    logger.error({ worker: owner, error: totals.error }, 'backfill worker failed');
    await store
      .heartbeat({ owner, state: 'failed', error: totals.error })
      .catch((e: unknown) => logger.warn({ worker: owner, error: String(e) }, 'could not record the failure'));
  }
  try {
    // What this worker wrote is searchable when it returns, whatever the refresh interval.
    await engine.refresh(LEDGER_KINDS);
    await refresh.finish(owner);
  } catch (error) {
    logger.warn({ worker: owner, error: String(error) }, 'could not refresh the indices after the backfill');
  }
  return totals;
}

/**
 * Indexes one leased chunk: its recorded gaps, then the ledgers after its progress. A ledger the
 * source cannot serve becomes a gap and the worker goes on after it. A timer renews the lease every
 * third of its length with the progress and gaps; if a renewal finds the lease taken over, the
 * worker stops reading the chunk (what it wrote meanwhile is rewritten identically by the new
 * holder). On a failure, or when stopped, the chunk is released at once for another worker.
 */
async function workChunk(
  options: BackfillWorkerOptions,
  store: LeaseStore,
  checkpoints: CheckpointStore,
  first: HeldLease,
  totals: WorkerTotals,
  refresh: BackfillRefresh,
): Promise<'done' | 'lost' | 'stopped'> {
  const { lease } = first;
  let held: HeldLease | undefined = first;
  let progress = lease.progress;
  /** Ledgers known missing: those recorded (at or below progress) and those that failed since. */
  let gaps: ChunkGap[] = [...(lease.gaps ?? [])];
  const retried = gapLedgers(gaps);
  const lost = new AbortController();
  let renewal: Promise<void> | undefined;
  const renew = (): void => {
    const current = held;
    if (current === undefined || renewal !== undefined) return;
    renewal = store
      .renew(current, progress, options.leaseMs, gapsUpTo(gaps, progress))
      .then(
        (next) => {
          held = next;
          if (next === undefined) lost.abort();
        },
        (error: unknown) => options.logger.warn({ error: String(error), chunk: lease }, 'lease renewal failed'),
      )
      .finally(() => {
        renewal = undefined;
      });
  };
  const renewing = setInterval(renew, Math.max(50, Math.floor(options.leaseMs / 3)));
  const stop = AbortSignal.any([lost.signal, ...(options.signal === undefined ? [] : [options.signal])]);
  const read = { complete: false };
  try {
    const ranges = rangesToWork(lease);
    if (ranges.length > 0) {
      const source = skippingGaps(ranges, options, stop, read, (ledger, reason) => {
        gaps = withGap(gaps, ledger, reason);
        options.logger.warn({ worker: options.owner, ledger, reason }, 'ledger left as a gap of its chunk');
      });
      const result = await runPipeline(source, options.engine, checkpoints, {
        ...(options.batchLedgers === undefined ? {} : { batchLedgers: options.batchLedgers }),
        networkId: typeof options.networkId === 'number' ? options.networkId : options.networkId(),
        onBatch: async (t, batch) => {
          const indices = batch.map((l) => l.ledger_index);
          progress = Math.max(progress, ...indices);
          gaps = withoutLedgers(gaps, indices);
          await refresh.slowRanges(indices);
          options.onProgress?.({
            owner: options.owner,
            chunk: lease,
            ledger: progress,
            ledgers: batch.length,
            documents: t.documents,
          });
        },
      });
      totals.ledgers += result.ledgers;
      totals.documents += result.documents;
      totals.deadLetters += result.deadLetters;
    } else read.complete = true;
  } catch (error) {
    clearInterval(renewing);
    await renewal;
    await release(options, store, held, progress, gaps);
    throw error;
  } finally {
    clearInterval(renewing);
  }
  // Wait for a renewal in flight, so the tag below is the newest one written.
  await renewal;
  if (held === undefined || lost.signal.aborted) return 'lost';
  if (!read.complete) {
    // Stopped by the signal: handed back at once, another worker (or the next run) resumes it.
    await release(options, store, held, progress, gaps);
    return 'stopped';
  }
  const left = gapsUpTo(gaps, lease.to);
  if (!(await store.complete(held, left))) return 'lost';
  totals.gaps += gapLedgers(left);
  totals.filled += Math.max(0, retried - gapLedgers(left.filter((g) => g.from <= lease.progress)));
  return 'done';
}

/** Hands a chunk back (see LeaseStore.release); a failure to do so only leaves the lease to expire. */
async function release(
  options: BackfillWorkerOptions,
  store: LeaseStore,
  held: HeldLease | undefined,
  progress: number,
  gaps: readonly ChunkGap[],
): Promise<void> {
  if (held === undefined) return;
  await store
    .release(held, progress, gapsUpTo(gaps, progress))
    .catch((error: unknown) =>
      options.logger.warn(
        { error: String(error), chunk: held.lease },
        'could not release the chunk; its lease expires',
      ),
    );
}

/**
 * The ledgers of some ranges from the source, in order, until `stop` aborts. When the source
 * cannot serve a ledger (a `SourceError`, after its own retries), `onGap` records it and reading
 * starts again after it; `maxConsecutiveGaps` failures in a row mean the source is down, and fail
 * the chunk. `read.complete` tells whether every range was read to its end.
 */
async function* skippingGaps(
  ranges: readonly LedgerRange[],
  options: BackfillWorkerOptions,
  stop: AbortSignal,
  read: { complete: boolean },
  onGap: (ledger: number, reason: string) => void,
): AsyncGenerator<LedgerInput> {
  const limit = options.maxConsecutiveGaps ?? 10;
  let failures = 0;
  for (const range of ranges) {
    let next = range.from;
    while (next <= range.to) {
      if (stop.aborted) return;
      try {
        for await (const ledger of options.ledgers(next, range.to)) {
          next = ledger.ledger_index + 1;
          failures = 0;
          yield ledger;
          if (stop.aborted) return;
        }
        next = range.to + 1;
      } catch (error) {
        if (!(error instanceof SourceError)) throw error;
        failures += 1;
        if (failures >= limit)
          throw new Error(`the source failed ${failures} ledgers in a row, up to ${next}: ${error.message}`, {
            cause: error,
          });
        onGap(next, error.message);
        next += 1;
      }
    }
  }
  read.complete = !stop.aborted;
}

/**
 * The refresh interval of what a backfill writes. The state indices (objects, accounts) get the
 * backfill interval when the worker starts, unless a live follower beat in the last two minutes
 * (then people read state written by live, and it keeps its 1 s). A range index gets it when the
 * worker first writes to it, so no index is created ahead of its documents, except the range of
 * the newest indexed ledger and any above it, which `live` writes and people read fresh. When a
 * worker ends and no other live lease of the source remains, every range and state index gets
 * its normal 1 s again (including those another process slowed and then left).
 */
class BackfillRefresh {
  private readonly slowed = new Set<number>();
  /** The first ledger of the newest range when the worker started: that range and above stay fresh. */
  private liveFrom = Number.POSITIVE_INFINITY;

  constructor(
    private readonly options: BackfillWorkerOptions,
    private readonly store: LeaseStore,
  ) {}

  async start(): Promise<void> {
    const interval = this.options.backfillRefresh;
    if (interval === undefined) return;
    const { engine } = this.options;
    const checkpoint = await new CheckpointStore(engine, this.options.source).load();
    if (checkpoint !== undefined) this.liveFrom = rangeStart(engine.naming, checkpoint.last_ledger);
    const now = (this.options.now ?? Date.now)();
    const following = (await this.store.workers()).some(
      (w) => w.state === 'following' && now - Date.parse(w.heartbeat_at) < LIVE_WINDOW_MS,
    );
    if (following)
      this.options.logger.info(
        { worker: this.options.owner },
        'a live follower is running: the state indices keep their refresh interval',
      );
    else
      await engine.setIndexSettings([engine.index('objects'), engine.index('accounts'), engine.index('locators')], {
        refresh_interval: interval,
      });
  }

  /** Gives the ranges of ledgers just written the backfill interval (once per range and worker). */
  async slowRanges(ledgers: readonly number[]): Promise<void> {
    const interval = this.options.backfillRefresh;
    if (interval === undefined) return;
    const { engine } = this.options;
    for (const start of new Set(ledgers.map((l) => rangeStart(engine.naming, l)))) {
      if (this.slowed.has(start) || start >= this.liveFrom) continue;
      await engine.setIndexSettings([engine.rangeAlias('ledgers', start), engine.rangeAlias('transactions', start)], {
        refresh_interval: interval,
      });
      // Apart: a range of ledgers without a balance change has no such index (a 404 for all).
      await engine.setIndexSettings([engine.rangeAlias('balance-changes', start)], { refresh_interval: interval });
      this.slowed.add(start);
    }
  }

  async finish(owner: string): Promise<void> {
    if (this.options.backfillRefresh === undefined) return;
    if ((await this.store.liveLeases(owner)) > 0) return;
    const { engine } = this.options;
    await engine.setIndexSettings(
      [
        `${engine.index('ledgers')}-*`,
        `${engine.index('transactions')}-*`,
        `${engine.index('balance-changes')}-*`,
        engine.index('objects'),
        engine.index('accounts'),
        engine.index('locators'),
      ],
      { refresh_interval: '1s' },
    );
  }
}

/** A live follower that beat this recently is running. */
const LIVE_WINDOW_MS = 120_000;

export type { ChunkLease };
