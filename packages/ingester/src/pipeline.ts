import type { Client, IndexNaming, Logger } from '@xle/core';
import type { LedgerInput } from '@xle/documents';
import { BulkSink } from './sink/bulk-sink.js';
import { CheckpointStore, type Checkpoint } from './sink/checkpoint.js';

export interface IngestTotals {
  ledgers: number;
  transactions: number;
  documents: number;
  superseded: number;
  deadLetters: number;
  checkpoint?: Checkpoint;
}

export interface PipelineOptions {
  /** A batch closes at this many ledgers or transactions, whichever comes first. */
  batchLedgers?: number;
  batchTransactions?: number;
  onBatch?: (totals: IngestTotals, batch: readonly LedgerInput[]) => void;
}

/**
 * source → transform → sink, in batches. Each batch is written completely (every document
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

export async function runPipeline(
  source: AsyncIterable<LedgerInput>,
  sink: BulkSink,
  checkpoints: CheckpointStore,
  options: PipelineOptions = {},
): Promise<IngestTotals> {
  const maxLedgers = options.batchLedgers ?? 50;
  const maxTransactions = options.batchTransactions ?? 2000;
  const totals: IngestTotals = { ledgers: 0, transactions: 0, documents: 0, superseded: 0, deadLetters: 0 };
  let checkpoint = await checkpoints.load();
  let batch: LedgerInput[] = [];
  let batchTransactions = 0;
  let divisor = SLOW_START;
  /** Bulk writes of batches, oldest first; each settles (either way) once the batch is written. */
  const writing: Promise<unknown>[] = [];
  /** Checkpoint records not yet done, oldest first; each settles once its batch is recorded. */
  const recording: Promise<unknown>[] = [];
  let recorded: Promise<void> = Promise.resolve();
  let failure: { error: unknown } | undefined;

  const flush = async (): Promise<void> => {
    if (failure !== undefined) throw failure.error;
    if (batch.length === 0) return;
    const ledgers = batch;
    const transactions = batchTransactions;
    batch = [];
    batchTransactions = 0;
    divisor = Math.max(1, divisor / 2);
    const ops = await sink.buildOps(ledgers);
    while (writing.length >= WRITE_WINDOW) await writing.shift();
    while (recording.length >= RECORD_BACKLOG) await recording.shift();
    const written = sink.writeOps(ledgers.length, ops);
    writing.push(written.catch(() => undefined));
    const previous = recorded;
    recorded = (async () => {
      const result = await written;
      // The checkpoint of a batch waits for every earlier batch's, so ranges only grow in order.
      await previous;
      checkpoint = await checkpoints.record(
        checkpoint,
        ledgers.map((l) => l.ledger_index),
        result.documents,
        result.deadLetters,
      );
      totals.ledgers += result.ledgers;
      totals.transactions += transactions;
      totals.documents += result.documents;
      totals.superseded += result.superseded;
      totals.deadLetters += result.deadLetters;
      totals.checkpoint = checkpoint;
      options.onBatch?.(totals, ledgers);
    })();
    // A failed write stops the run at the next batch boundary at the latest.
    recorded.catch((error: unknown) => {
      failure ??= { error };
    });
    recording.push(recorded.catch(() => undefined));
  };

  try {
    for await (const ledger of source) {
      batch.push(ledger);
      batchTransactions += ledger.transactions.length;
      if (batch.length * divisor >= maxLedgers || batchTransactions * divisor >= maxTransactions) await flush();
    }
    await flush();
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
  client: Client;
  naming: IndexNaming;
  logger: Logger;
  /** Keys the checkpoint (default "files"). */
  source?: string;
  networkId?: number;
}

/**
 * Indexes ledgers from any iterable with the standard sink and checkpoint, then refreshes the
 * indices so what was written is searchable: the one set-up behind tests, benchmarks and demos.
 */
export async function ingestLedgers(
  ledgers: Iterable<LedgerInput> | AsyncIterable<LedgerInput>,
  options: IngestLedgersOptions,
): Promise<IngestTotals> {
  const { client, naming, logger, source = 'files', networkId = 0, ...pipeline } = options;
  async function* each(): AsyncGenerator<LedgerInput> {
    yield* ledgers;
  }
  const sink = new BulkSink({ client, naming, logger, networkId });
  const totals = await runPipeline(each(), sink, new CheckpointStore(client, naming, source), pipeline);
  await sink.refresh();
  return totals;
}
