import { setImmediate as nextTurn } from 'node:timers/promises';
import type { IndexKind } from '@xle/core';
import type { LedgerInput } from '@xle/documents';
import type { WriteOp, WriteResult } from '../writes.js';
import type { IngestEngine } from '../engine/ingest-engine.js';
import type { ActivationEnricher } from './activations.js';
import { BatchSink } from './sink.js';
import { ledgerWrites, newestWrites, type BatchContext } from './batch.js';
import { CheckpointStore, type Checkpoint } from './checkpoint.js';

export interface IngestTotals {
  ledgers: number;
  transactions: number;
  documents: number;
  superseded: number;
  deadLetters: number;
  checkpoint?: Checkpoint;
}

/** The indices the ledger pipeline writes. */
export const LEDGER_KINDS: readonly IndexKind[] = [
  'ledgers',
  'transactions',
  'balance-changes',
  'locators',
  'activity',
  'objects',
  'accounts',
  'activations',
  'deletions',
  'threads',
  'nfts',
  'dead-letters',
  'ingest-state',
];

export interface PipelineOptions {
  /** The network's id for ctids, unless a transaction carries its own (default 0, mainnet). */
  networkId?: number;
  /** A batch closes at this many ledgers or transactions, whichever comes first. */
  batchLedgers?: number;
  batchTransactions?: number;
  onBatch?: (totals: IngestTotals, batch: readonly LedgerInput[]) => void | Promise<void>;
}

/**
 * Longest stretch, in milliseconds, that building a batch keeps the event loop to itself. Building
 * a full batch takes a few hundred milliseconds of CPU; without a break, the answers of the bulk
 * requests in flight meanwhile would sit unread and the next requests unsent, leaving the engine
 * idle in the middle of a run.
 */
const BUILD_SLICE_MS = 10;

/**
 * The transform and enrich stages of one batch: every ledger's writes (pure), then the account
 * writes with their activations, the newest write of each document kept (`newestWrites`), each
 * serialised while earlier batches are being written rather than inside the writer just before
 * each request, so the engine is not kept waiting on a body.
 */
export async function prepareBatch(
  ledgers: readonly LedgerInput[],
  engine: IngestEngine,
  activations: ActivationEnricher,
  networkId: number,
): Promise<WriteOp[]> {
  const ops: WriteOp[] = [];
  const accounts: WriteOp[] = [];
  const context: BatchContext = {
    index: (kind) => engine.index(kind),
    rangeAlias: (kind, ledgerIndex) => engine.rangeAlias(kind, ledgerIndex),
    networkId,
  };
  let slice = performance.now();
  const pause = async (): Promise<void> => {
    if (performance.now() - slice < BUILD_SLICE_MS) return;
    await nextTurn();
    slice = performance.now();
  };
  for (const ledger of ledgers) {
    await pause();
    const built = ledgerWrites(ledger, context);
    ops.push(...built.writes);
    accounts.push(...built.accounts);
  }
  await activations.enrich(accounts);
  ops.push(...accounts);
  const written = newestWrites(ops);
  for (let i = 0; i < written.length; i += 1) {
    if ((i & 255) === 0) await pause();
    const op = written[i] as WriteOp;
    op.json = JSON.stringify(op.doc);
  }
  return written;
}

/**
 * The batches of a source, in order: a batch closes at `batchLedgers` ledgers or
 * `batchTransactions` transactions, whichever comes first; the first batches are smaller (see
 * SLOW_START). Benchmarks build the documents of the same batches.
 */
export async function* ledgerBatches(
  source: AsyncIterable<LedgerInput>,
  options: Pick<PipelineOptions, 'batchLedgers' | 'batchTransactions'> = {},
): AsyncGenerator<LedgerInput[]> {
  const maxLedgers = options.batchLedgers ?? DEFAULT_BATCH_LEDGERS;
  const maxTransactions = options.batchTransactions ?? DEFAULT_BATCH_TRANSACTIONS;
  let batch: LedgerInput[] = [];
  let transactions = 0;
  let divisor = SLOW_START;
  for await (const ledger of source) {
    batch.push(ledger);
    transactions += ledger.transactions.length;
    if (batch.length * divisor >= maxLedgers || transactions * divisor >= maxTransactions) {
      yield batch;
      batch = [];
      transactions = 0;
      divisor = Math.max(1, divisor / 2);
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * source → transform → enrich → sink, in batches. Each batch is written completely (every document
 * acknowledged or dead-lettered) before the checkpoint records its ledgers, and checkpoints are
 * recorded in batch order. Building a batch's documents (CPU) overlaps with writing earlier
 * batches (I/O), and a batch's writes start while the previous batch's last bulk requests are
 * still in flight, so the engine is never left waiting on one batch's tail. At most
 * `WRITE_WINDOW` batches are being written at once, which bounds memory.
 *
 * The window counts bulk writes only. Recording a checkpoint is one more request, which the engine
 * queues behind the bulk requests already in its write pool; if it held a window slot, the next
 * batch would start only after that wait and the engine would run dry between batches. Checkpoints
 * are recorded on a chain of their own, at most `RECORD_BACKLOG` batches behind the writes.
 *
 * The first batches are smaller (1/8, 1/4, 1/2 of the configured size, then full), so the engine
 * gets its first documents after a few ledgers are built instead of a whole batch: a slow start
 * that saves most of a batch's build time of engine idleness at the start of every run.
 */
const WRITE_WINDOW = 2;
const RECORD_BACKLOG = 4;
const SLOW_START = 8;
/**
 * A batch is sized by its transactions; the ledger bound only caps the ledgers of a sparse stretch
 * (mainnet's early years have a few transactions a ledger, some none). At 50 ledgers, ledgers of 5
 * transactions made batches of 250: per transaction, 4x the bulk requests and round trips of a
 * full batch, and fewer of a batch's state writes folded into one (`bench:scale` at 100,000: 357
 * tx/s, 56 % of raw `_bulk` split; at 1,000 ledgers, 846-898 tx/s and 80-83 % in two runs).
 */
export const DEFAULT_BATCH_LEDGERS = 1000;
export const DEFAULT_BATCH_TRANSACTIONS = 2000;

export async function runPipeline(
  source: AsyncIterable<LedgerInput>,
  engine: IngestEngine,
  checkpoints: CheckpointStore,
  options: PipelineOptions = {},
): Promise<IngestTotals> {
  const sink = new BatchSink(engine);
  const activations = sink.activations;
  const networkId = options.networkId ?? 0;
  /** The sink stage: records first, writes as the deletion guards allow, activations joined (sink.ts). */
  const writeBatch = (ops: WriteOp[]): Promise<WriteResult> => sink.write(ops);
  const totals: IngestTotals = { ledgers: 0, transactions: 0, documents: 0, superseded: 0, deadLetters: 0 };
  let checkpoint = await checkpoints.load();
  /** Bulk writes of batches, oldest first; each settles (either way) once the batch is written. */
  const writing: Promise<unknown>[] = [];
  /** Checkpoint records not yet done, oldest first; each settles once its batch is recorded. */
  const recording: Promise<unknown>[] = [];
  let recorded: Promise<void> = Promise.resolve();
  let failure: { error: unknown } | undefined;

  const flush = async (ledgers: LedgerInput[]): Promise<void> => {
    if (failure !== undefined) throw failure.error;
    const transactions = ledgers.reduce((n, ledger) => n + ledger.transactions.length, 0);
    const ops = await prepareBatch(ledgers, engine, activations, networkId);
    while (writing.length >= WRITE_WINDOW) await writing.shift();
    while (recording.length >= RECORD_BACKLOG) await recording.shift();
    const written = writeBatch(ops);
    writing.push(written.catch(() => undefined));
    const previous = recorded;
    recorded = (async () => {
      const result = await written;
      // The checkpoint of a batch waits for every earlier batch's, so ranges only grow in order.
      await previous;
      checkpoint = await checkpoints.record(
        ledgers.map((l) => l.ledger_index),
        result.documents,
        result.deadLetters,
      );
      totals.ledgers += ledgers.length;
      totals.transactions += transactions;
      totals.documents += result.documents;
      totals.superseded += result.superseded.length;
      totals.deadLetters += result.deadLetters;
      totals.checkpoint = checkpoint;
      await options.onBatch?.(totals, ledgers);
    })();
    // A failed write stops the run at the next batch boundary at the latest.
    recorded.catch((error: unknown) => {
      failure ??= { error };
    });
    recording.push(recorded.catch(() => undefined));
  };

  try {
    for await (const batch of ledgerBatches(source, options)) await flush(batch);
    await recorded;
  } finally {
    // On a failure, the batches still being written settle before the error reaches the caller, so
    // nothing of this run is still writing when it returns (for example while indices are dropped).
    await Promise.allSettled([...writing, ...recording]);
  }
  if (checkpoint !== undefined) totals.checkpoint = checkpoint;
  return totals;
}

export interface IngestLedgersOptions extends PipelineOptions {
  /** Keys the checkpoint (default "files"). */
  source?: string;
}

/**
 * Indexes ledgers from any iterable with the standard stages and checkpoint, then refreshes the
 * indices so what was written is searchable: the one set-up behind tests, benchmarks and demos.
 */
export async function ingestLedgers(
  ledgers: Iterable<LedgerInput> | AsyncIterable<LedgerInput>,
  engine: IngestEngine,
  options: IngestLedgersOptions = {},
): Promise<IngestTotals> {
  const { source = 'files', ...pipeline } = options;
  async function* each(): AsyncGenerator<LedgerInput> {
    yield* ledgers;
  }
  const totals = await runPipeline(each(), engine, new CheckpointStore(engine, source), pipeline);
  await engine.refresh(LEDGER_KINDS);
  return totals;
}
