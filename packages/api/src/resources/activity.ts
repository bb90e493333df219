import type { estypes } from '@elastic/elasticsearch';
import { AppError, ErrorCode } from '@xle/core';
import type { Json } from '@xle/documents';
import type { Engine } from '../engine.js';
import { refusedTransactionDocuments } from './ledgers.js';

/** What a page of the activity index reads of each of its documents. */
export interface ActivityEntry {
  ledger_index?: number;
  hash?: string;
}
export type ActivityHit = estypes.SearchHit<ActivityEntry>;

/**
 * The transaction documents of a page of activity hits, in the page's order: read by id from the
 * ranges their ledgers name (Engine.documentsInRanges). The activity document is written beside
 * its transaction, so one that is not found yet is a 503 LEDGER_NOT_READY (ask again in a
 * second), unless the engine refused it when it was written (its dead letter: 500
 * LEDGER_INCOMPLETE, as waiting will not bring it).
 */
export async function transactionsOfActivity(engine: Engine, hits: readonly ActivityHit[]): Promise<Json[]> {
  const wanted = hits.flatMap((h) => {
    const { hash, ledger_index: ledgerIndex } = h._source ?? {};
    return typeof hash === 'string' && typeof ledgerIndex === 'number' ? [{ id: hash, ledgerIndex }] : [];
  });
  const found = await engine.documentsInRanges<Json>('transactions', wanted);
  const missing = wanted.filter((w) => !found.has(w.id));
  if (missing.length > 0) throw await missingTransactions(engine, missing);
  return wanted.map((w) => found.get(w.id) as Json);
}

/** Why some transactions of a history are not there: refused when written, or not written yet. */
async function missingTransactions(
  engine: Engine,
  missing: readonly { id: string; ledgerIndex: number }[],
): Promise<AppError> {
  const refused = await refusedTransactionDocuments(engine, { terms: { doc_id: missing.map((m) => m.id) } });
  const details = { transactions: missing.map((m) => ({ hash: m.id, ledger_index: m.ledgerIndex })) };
  const first = missing[0] as { id: string; ledgerIndex: number };
  if (refused > 0)
    return new AppError(
      500,
      ErrorCode.LedgerIncomplete,
      `Transaction ${first.id} of ledger ${first.ledgerIndex} (and ${missing.length - 1} more) is not indexed: the search engine refused it (recorded as a dead letter for the operator).`,
      { details },
    );
  return new AppError(
    503,
    ErrorCode.LedgerNotReady,
    `Transaction ${first.id} of ledger ${first.ledgerIndex} (and ${missing.length - 1} more) is still being indexed; ask again shortly.`,
    { retryAfter: 1, details },
  );
}
