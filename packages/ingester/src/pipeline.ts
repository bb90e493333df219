import type { LedgerInput } from './input/normalize-ledger.js';
import type { BulkSink } from './sink/bulk-sink.js';
import type { Checkpoint, CheckpointStore } from './sink/checkpoint.js';

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
 * acknowledged or dead-lettered) before the checkpoint records its ledgers.
 */
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

  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const result = await sink.writeBatch(batch);
    checkpoint = await checkpoints.record(
      checkpoint,
      batch.map((l) => l.ledger_index),
      result.documents,
      result.deadLetters,
    );
    totals.ledgers += result.ledgers;
    totals.transactions += batchTransactions;
    totals.documents += result.documents;
    totals.superseded += result.superseded;
    totals.deadLetters += result.deadLetters;
    totals.checkpoint = checkpoint;
    options.onBatch?.(totals, batch);
    batch = [];
    batchTransactions = 0;
  };

  for await (const ledger of source) {
    batch.push(ledger);
    batchTransactions += ledger.transactions.length;
    if (batch.length >= maxLedgers || batchTransactions >= maxTransactions) await flush();
  }
  await flush();
  if (checkpoint !== undefined) totals.checkpoint = checkpoint;
  return totals;
}
