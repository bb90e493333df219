import { DEFAULT_RANGE_LEDGERS, sleepUnless, type Logger } from '@xle/core';
import type { LedgerInput } from '@xle/documents';
import type { IngestEngine } from '../engine/ingest-engine.js';
import { CheckpointStore, type LedgerRange } from '../pipeline/checkpoint.js';
import { LEDGER_KINDS, runPipeline } from '../pipeline/run.js';
import { chunkId, chunksOf, decide, type ChunkLease } from './chunks.js';
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
  /** The ledgers of a range, in order (a rippled backfill). */
  ledgers: (from: number, to: number) => AsyncIterable<LedgerInput>;
  /** The network's id for ctids (asked at each chunk: a source knows it once connected). */
  networkId: number | (() => number);
  /** Refresh interval of the range indices while the backfill writes them (`-1`, `30s`, ...). */
  backfillRefresh?: string;
  batchLedgers?: number;
  /** How long to wait before looking again when every unfinished chunk is leased by others. */
  pollMs?: number;
  signal?: AbortSignal;
  now?: () => number;
  /** Called after each batch is recorded, with the chunk and the ledgers done so far. */
  onProgress?: (event: { owner: string; chunk: LedgerRange; ledger: number; documents: number }) => void;
}

export interface WorkerTotals {
  chunks: number;
  takeovers: number;
  ledgers: number;
  documents: number;
  deadLetters: number;
  /** Chunks this worker lost to a takeover while working them. */
  lost: number;
  /** True when every chunk of the range is done (false: stopped by the signal). */
  finished: boolean;
}

/**
 * One backfill worker: leases chunks of the range from the engine, one at a time in ledger
 * order, indexes each through the normal pipeline under the shared checkpoint, renews its lease
 * (recording progress) while it works, and marks the chunk done. When every chunk left is leased
 * by others it waits and looks again, so a chunk whose worker died is taken over once its lease
 * expires, from the progress that worker recorded. Returns when every chunk is done.
 */
export async function runBackfillWorker(options: BackfillWorkerOptions): Promise<WorkerTotals> {
  const { engine, owner, range, leaseMs } = options;
  const now = options.now ?? Date.now;
  const store = new LeaseStore(engine, options.source, now);
  const checkpoints = new CheckpointStore(engine, options.source);
  const totals: WorkerTotals = {
    chunks: 0,
    takeovers: 0,
    ledgers: 0,
    documents: 0,
    deadLetters: 0,
    lost: 0,
    finished: false,
  };
  await store.recordPlan(range, options.chunkLedgers);
  const chunks = chunksOf(range, options.chunkLedgers);
  const refreshed = await slowRefresh(options);

  const stopped = (): boolean => options.signal?.aborted === true;
  while (!stopped()) {
    const leases = await store.leases(chunks);
    let busy = false;
    let open = false;
    for (const chunk of chunks) {
      if (stopped()) break;
      const known = leases.get(chunkId(options.source, chunk));
      const decision = decide(known, owner, now());
      if (decision === 'done') continue;
      open = true;
      if (decision === 'busy') {
        busy = true;
        continue;
      }
      const held = await store.claim(chunk, owner, leaseMs);
      if (held === 'done') continue;
      if (held === 'busy') {
        busy = true;
        continue;
      }
      if (known !== undefined && known.owner !== owner) totals.takeovers += 1;
      await store.heartbeat({ owner, state: 'working', from: chunk.from, to: chunk.to, progress: held.lease.progress });
      const outcome = await workChunk(options, store, checkpoints, held, totals);
      if (outcome === 'lost') totals.lost += 1;
      else totals.chunks += 1;
    }
    if (!open) {
      totals.finished = true;
      break;
    }
    if (busy) {
      await store.heartbeat({ owner, state: 'waiting' });
      await sleepUnless(
        options.signal ?? new AbortController().signal,
        options.pollMs ?? Math.min(5000, Math.max(100, leaseMs / 4)),
      );
    }
  }
  await store.heartbeat({ owner, state: 'finished' });
  // What this worker wrote is searchable when it returns, whatever the refresh interval.
  await engine.refresh(LEDGER_KINDS);
  // The last worker to see the whole range done gives the range indices their normal refresh.
  if (totals.finished && refreshed.length > 0) await engine.setIndexSettings(refreshed, { refresh_interval: '1s' });
  return totals;
}

/**
 * Indexes one leased chunk from its recorded progress on. A timer renews the lease every third of
 * its length with the progress made; if a renewal finds the lease taken over, the worker stops
 * reading the chunk (what it wrote meanwhile is rewritten identically by the new holder).
 */
async function workChunk(
  options: BackfillWorkerOptions,
  store: LeaseStore,
  checkpoints: CheckpointStore,
  first: HeldLease,
  totals: WorkerTotals,
): Promise<'done' | 'lost'> {
  const { lease } = first;
  let held: HeldLease | undefined = first;
  let progress = lease.progress;
  const lost = new AbortController();
  let renewal: Promise<void> | undefined;
  const renew = (): void => {
    const current = held;
    if (current === undefined || renewal !== undefined) return;
    renewal = store
      .renew(current, progress, options.leaseMs)
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
  try {
    if (progress < lease.to) {
      const stop = AbortSignal.any([lost.signal, ...(options.signal === undefined ? [] : [options.signal])]);
      const result = await runPipeline(
        until(options.ledgers(progress + 1, lease.to), stop),
        options.engine,
        checkpoints,
        {
          batchLedgers: options.batchLedgers ?? 20,
          networkId: typeof options.networkId === 'number' ? options.networkId : options.networkId(),
          onBatch: (t, batch) => {
            progress = batch[batch.length - 1]?.ledger_index ?? progress;
            options.onProgress?.({ owner: options.owner, chunk: lease, ledger: progress, documents: t.documents });
          },
        },
      );
      totals.ledgers += result.ledgers;
      totals.documents += result.documents;
      totals.deadLetters += result.deadLetters;
    }
  } finally {
    clearInterval(renewing);
  }
  // Wait for a renewal in flight, so the tag below is the newest one written.
  await renewal;
  if (held === undefined || lost.signal.aborted) return 'lost';
  if (progress < lease.to) return 'lost'; // stopped by the signal: the lease expires, another worker resumes it
  const renewed = await store.renew(held, progress, options.leaseMs);
  if (renewed === undefined || !(await store.complete(renewed))) return 'lost';
  return 'done';
}

/** The ledgers of a source until `signal` aborts (then it stops between two ledgers). */
async function* until(ledgers: AsyncIterable<LedgerInput>, signal: AbortSignal): AsyncGenerator<LedgerInput> {
  if (signal.aborted) return;
  for await (const ledger of ledgers) {
    yield ledger;
    if (signal.aborted) return;
  }
}

/**
 * Gives the range indices this backfill writes the backfill refresh interval (fewer, larger
 * segments while it writes), except the range of the newest indexed ledger and any above it,
 * which `live` writes and people read fresh. Answers the aliases it changed.
 */
async function slowRefresh(options: BackfillWorkerOptions): Promise<string[]> {
  if (options.backfillRefresh === undefined) return [];
  const checkpoint = await new CheckpointStore(options.engine, options.source).load();
  const newest = checkpoint?.last_ledger;
  const size = options.engine.naming.rangeLedgers ?? DEFAULT_RANGE_LEDGERS;
  const below = newest === undefined ? options.range.to : Math.min(options.range.to, newest - (newest % size) - 1);
  if (below < options.range.from) return [];
  const aliases = await options.engine.ensureRangesBetween(['ledgers', 'transactions'], options.range.from, below);
  await options.engine.setIndexSettings(aliases, { refresh_interval: options.backfillRefresh });
  return aliases;
}

export type { ChunkLease };
