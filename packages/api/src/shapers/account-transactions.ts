import type { Json } from '@xle/documents';
import { encodeMarker, type Marker } from '../queries/markers.js';
import { shapeTransactions, type TransactionContext } from './transaction.js';

/** One page of an account's transactions as the engine answered it: `limit + 1` hits at most. */
export interface AccountTxPage {
  account: string;
  limit: number;
  forward: boolean;
  /** The oldest ledger the walk searches: the oldest indexed one. */
  min: number;
  /** The newest ledger of the walk, pinned by its first page. */
  max: number;
  hits: readonly { _source?: Json; sort?: unknown[] }[];
}

/**
 * The spec's account transactions answer (pure): the page's transactions, the ledgers searched
 * (as rippled's account_tx says them: the oldest and newest ledger of the search, not of the
 * page), and a marker when the engine found one more hit than the page holds.
 */
export function shapeAccountTransactions(page: AccountTxPage, context: TransactionContext): Json {
  const hits = page.hits.slice(0, page.limit);
  const docs = hits.map((h) => h._source ?? {});
  const response: Json = {
    account: page.account,
    ledger_index_min: page.min,
    ledger_index_max: page.max,
    transactions: shapeTransactions(docs, context),
    validated: true,
    limit: page.limit,
  };
  const last = hits[hits.length - 1];
  if (page.hits.length > page.limit && last?.sort !== undefined) {
    const marker: Marker = {
      v: 1,
      account: page.account,
      max: page.max,
      after: last.sort as [number, number],
      forward: page.forward,
    };
    const closed = last._source?._date;
    if (typeof closed === 'string') marker.closed = closed;
    response.marker = encodeMarker(marker);
  }
  return response;
}
