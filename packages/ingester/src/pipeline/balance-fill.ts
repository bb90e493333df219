import { rangeStartOf } from '@xle/core';
import type { BalanceChangeSource } from '@xle/documents';
import { balanceChangeWrites, balanceMarker } from './batch.js';
import type { IngestEngine } from '../engine/ingest-engine.js';
import type { WriteOp } from '../writes.js';

/** Balance changes written per request while filling them in. */
const PAGE = 2000;

/** The ingest-state record of the fill: the transaction ranges done, so a run resumes after them. */
export const BALANCE_FILL_ID = 'fill.balance-changes';

interface FillRecord {
  kind: 'fill';
  /** `done`: first ledgers of the transaction ranges whose balance changes are all written. */
  detail: { done: number[] };
  updated_at: string;
}

export interface BalanceFill {
  /** Ranges (of ledgers or transactions) in the cluster, and those done before this run (skipped). */
  ranges: number;
  skipped: number;
  transactions: number;
  /** Balance-change documents written (a document already there is written again, the same). */
  written: number;
}

/** Fields of a transaction the balance changes are made from. */
const SOURCE_FIELDS = [
  'hash',
  'ledger_index',
  '_date',
  'TransactionType',
  'Account',
  'Destination',
  'Fee',
  'DestinationTag',
  'SourceTag',
  'meta.AffectedNodes',
  'meta.TransactionIndex',
  'meta.TransactionResult',
];

/**
 * Builds the balance-changes data set from transactions indexed before it existed: each range of
 * transactions is read in ledger order and the documents of each transaction written
 * (deterministic ids: a change written twice is one document), then the range's ledger markers
 * (see documents' ledgerMarkerDocument), which tell readers the data set holds those ledgers. A range done is recorded in
 * ingest-state, so a run stopped half-way resumes at the first range not done and redoes only the
 * part of it already written, which changes nothing. Safe beside running writers, which write the
 * same documents for the ledgers they index.
 */
export async function fillBalanceChanges(
  engine: IngestEngine,
  onProgress: (fill: BalanceFill) => void = () => undefined,
): Promise<BalanceFill> {
  const record = await engine.get<FillRecord>('ingest-state', BALANCE_FILL_ID);
  const done = new Set(record?.detail.done ?? []);
  // The ranges of either kind, by first ledger: a range's ledgers get their markers, its
  // transactions their changes.
  const aliases = new Map<number, { ledgers?: string; transactions?: string }>();
  for (const kind of ['ledgers', 'transactions'] as const)
    for (const range of await engine.listRanges(kind)) {
      const start = rangeStartOf(range.alias);
      if (start === undefined) continue;
      aliases.set(start, { ...aliases.get(start), [kind]: range.alias });
    }
  const starts = [...aliases.keys()].sort((a, b) => a - b);
  const fill: BalanceFill = { ranges: starts.length, skipped: 0, transactions: 0, written: 0 };
  const flush = async (ops: WriteOp[]): Promise<void> => {
    if (ops.length === 0) return;
    const result = await engine.write(ops);
    if (result.deadLetters > 0)
      throw new Error(`${result.deadLetters} balance changes could not be written (see dead-letters)`);
    fill.written += ops.length;
    onProgress(fill);
  };
  const context = { rangeAlias: engine.rangeAlias.bind(engine) };
  for (const start of starts) {
    const range = aliases.get(start) ?? {};
    if (done.has(start)) {
      fill.skipped += 1;
      continue;
    }
    let ops: WriteOp[] = [];
    if (range.transactions !== undefined)
      for await (const hit of engine.scan<BalanceChangeSource>(
        { indices: range.transactions },
        { _source: SOURCE_FIELDS, sort: [{ ledger_index: 'asc' }, { 'meta.TransactionIndex': 'asc' }] },
      )) {
        const tx = hit._source;
        if (tx === undefined || typeof tx.ledger_index !== 'number') continue;
        fill.transactions += 1;
        ops.push(...balanceChangeWrites(tx, context));
        if (ops.length >= PAGE) {
          await flush(ops);
          ops = [];
        }
      }
    await flush(ops);
    ops = [];
    // The markers last: a range cut half-way never says it holds ledgers whose changes are not in.
    if (range.ledgers !== undefined)
      for await (const hit of engine.scan<{ ledger_index?: number; close_time?: number }>(
        { indices: range.ledgers },
        { _source: ['ledger_index', 'close_time'], sort: [{ ledger_index: 'asc' }] },
      )) {
        const ledger = hit._source;
        if (typeof ledger?.ledger_index !== 'number') continue;
        ops.push(balanceMarker(ledger.ledger_index, ledger.close_time, context));
        if (ops.length >= PAGE) {
          await flush(ops);
          ops = [];
        }
      }
    await flush(ops);
    done.add(start);
    // Ranges another run finished meanwhile are kept: the record is the union of both.
    for (const other of (await engine.get<FillRecord>('ingest-state', BALANCE_FILL_ID))?.detail.done ?? [])
      done.add(other);
    await engine.put('ingest-state', BALANCE_FILL_ID, {
      kind: 'fill',
      detail: { done: [...done].sort((a, b) => a - b) },
      updated_at: new Date().toISOString(),
    } satisfies FillRecord);
    onProgress(fill);
  }
  return fill;
}
