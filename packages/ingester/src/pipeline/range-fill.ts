import { rangeStartOf } from '@xle/core';
import type { IngestEngine } from '../engine/ingest-engine.js';
import type { WriteOp } from '../writes.js';

/** Documents written per request while filling. */
const PAGE = 2000;

/** The ingest-state record of a fill: the transaction ranges done, so a run resumes after them. */
interface FillRecord {
  kind: 'fill';
  /** `done`: first ledgers of the ranges whose documents are all written. */
  detail: { done: number[] };
  updated_at: string;
}

export interface RangeFill {
  /** Ranges (of ledgers or transactions) in the cluster, and those done before this run (skipped). */
  ranges: number;
  skipped: number;
  transactions: number;
  /** Documents written (a document already there is written again, the same). */
  written: number;
}

/** What a fill writes for the transactions already indexed. */
export interface RangeFillPlan<T> {
  /** Its ingest-state record's id. */
  record: string;
  /** The transaction fields its writes are made from. */
  fields: readonly string[];
  /** The writes one indexed transaction gives (pure). */
  writes: (tx: T) => WriteOp[];
  /** Writes a range needs once its transactions' are in (the balance-change ledger markers), given the range's ledgers alias. */
  afterTransactions?: (ledgersAlias: string, write: (ops: WriteOp[]) => Promise<void>) => Promise<void>;
}

/**
 * Writes documents derived from transactions indexed before the data set that holds them existed
 * (balance changes, activity): each range of transactions is read in ledger order and each
 * transaction's writes sent (deterministic ids: a document written twice is one document), then
 * what the plan writes last for the range. A range done is recorded in ingest-state, so a run
 * stopped half-way resumes at the first range not done and redoes only the part of it already
 * written, which changes nothing. Safe beside running writers, which write the same documents
 * for the ledgers they index.
 */
export async function fillRanges<T extends { ledger_index?: unknown }>(
  engine: IngestEngine,
  plan: RangeFillPlan<T>,
  onProgress: (fill: RangeFill) => void = () => undefined,
): Promise<RangeFill> {
  const done = new Set((await engine.get<FillRecord>('ingest-state', plan.record))?.detail.done ?? []);
  // The ranges of either kind, by first ledger: a range's ledgers and its transactions.
  const aliases = new Map<number, { ledgers?: string; transactions?: string }>();
  for (const kind of ['ledgers', 'transactions'] as const)
    for (const range of await engine.listRanges(kind)) {
      const start = rangeStartOf(range.alias);
      if (start === undefined) continue;
      aliases.set(start, { ...aliases.get(start), [kind]: range.alias });
    }
  const starts = [...aliases.keys()].sort((a, b) => a - b);
  const fill: RangeFill = { ranges: starts.length, skipped: 0, transactions: 0, written: 0 };
  const flush = async (ops: WriteOp[]): Promise<void> => {
    if (ops.length === 0) return;
    const result = await engine.write(ops);
    if (result.deadLetters > 0)
      throw new Error(`${result.deadLetters} documents could not be written (see dead-letters)`);
    fill.written += ops.length;
    onProgress(fill);
  };
  for (const start of starts) {
    const range = aliases.get(start) ?? {};
    if (done.has(start)) {
      fill.skipped += 1;
      continue;
    }
    let ops: WriteOp[] = [];
    if (range.transactions !== undefined)
      for await (const hit of engine.scan<T>(
        { indices: range.transactions },
        { _source: [...plan.fields], sort: [{ ledger_index: 'asc' }, { 'meta.TransactionIndex': 'asc' }] },
      )) {
        const tx = hit._source;
        if (tx === undefined || typeof tx.ledger_index !== 'number') continue;
        fill.transactions += 1;
        ops.push(...plan.writes(tx));
        if (ops.length >= PAGE) {
          await flush(ops);
          ops = [];
        }
      }
    await flush(ops);
    // What the plan writes last: a range cut half-way never says it holds what is not in.
    if (range.ledgers !== undefined && plan.afterTransactions !== undefined)
      await plan.afterTransactions(range.ledgers, flush);
    done.add(start);
    // Ranges another run finished meanwhile are kept: the record is the union of both.
    for (const other of (await engine.get<FillRecord>('ingest-state', plan.record))?.detail.done ?? []) done.add(other);
    await engine.put('ingest-state', plan.record, {
      kind: 'fill',
      detail: { done: [...done].sort((a, b) => a - b) },
      updated_at: new Date().toISOString(),
    } satisfies FillRecord);
    onProgress(fill);
  }
  return fill;
}
