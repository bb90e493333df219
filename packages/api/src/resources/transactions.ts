import { NotFoundError } from '@xle/core';
import type { Json } from '@xle/documents';
import type { Engine } from '../engine.js';
import { enrichTransactions } from '../enrich/transactions.js';
import { buildTxByHashesQuery, buildTxLookup } from '../queries/lookups.js';
import { buildAccountTxQuery, decodeMarker } from '../queries/transactions.js';
import type { AccountTxQuery } from '../schemas/queries.js';
import { shapeAccountTransactions } from '../shapers/account-transactions.js';
import { shapeTransactions } from '../shapers/transaction.js';
import { latestLedger } from './ledgers.js';

/** GET /tx/{HASH}: a validated transaction by hash or ctid. */
export async function transactionById(engine: Engine, id: string): Promise<Json> {
  const found = await engine.search<Json>('transactions', buildTxLookup(id));
  const doc = found.hits.hits[0]?._source;
  if (doc === undefined) throw new NotFoundError(`Transaction ${id.toUpperCase()} is not indexed.`, { hash: id });
  return shapeTransactions([doc], await enrichTransactions(engine, [doc]))[0] as Json;
}

/**
 * GET /account/{ACCOUNT}/transactions: one page, newest first (oldest with `forward`). A first
 * page pins the newest indexed ledger; the marker carries it to the next pages.
 */
export async function accountTransactions(engine: Engine, account: string, query: AccountTxQuery): Promise<Json> {
  const forward = query.forward === true;
  const limit = query.limit ?? 20;
  const marker = query.marker === undefined ? undefined : decodeMarker(query.marker, account, forward);
  const max = marker?.max ?? (await latestLedger(engine)).ledger_index;
  const found = await engine.search<Json>(
    'transactions',
    buildAccountTxQuery(account, { ...query, limit }, max, marker?.after),
  );
  const hits = found.hits.hits;
  const context = await enrichTransactions(
    engine,
    hits.slice(0, limit).map((h) => h._source ?? {}),
  );
  return shapeAccountTransactions({ account, limit, forward, max, hits }, context);
}

/** Which of these transaction hashes are indexed (one search, hashes only). */
export async function indexedTransactions(engine: Engine, hashes: Iterable<string>): Promise<Set<string>> {
  const wanted = [...new Set([...hashes].map((h) => h.toUpperCase()))];
  if (wanted.length === 0) return new Set();
  const found = await engine.search<{ hash: string }>('transactions', buildTxByHashesQuery(wanted, ['hash']));
  return new Set(found.hits.hits.flatMap((h) => (h._source === undefined ? [] : [h._source.hash])));
}
