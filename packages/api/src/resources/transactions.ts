import { NotFoundError } from '@xle/core';
import { decodeCtid, type Json } from '@xle/documents';
import type { Engine } from '../engine.js';
import { enrichTransactions } from '../enrich/transactions.js';
import { buildOfferCreationQuery, buildTxLookup } from '../queries/lookups.js';
import { decodeMarker } from '../queries/markers.js';
import { buildAccountActivityQuery } from '../queries/activity.js';
import { transactionsOfActivity, type ActivityEntry } from './activity.js';
import type { AccountTxQuery } from '../schemas/queries.js';
import { shapeAccountTransactions } from '../shapers/account-transactions.js';
import { shapeTransactions } from '../shapers/transaction.js';
import { latestLedger, oldestLedger } from './ledgers.js';

/**
 * A transaction document by hash or ctid, read from the one range index that holds its ledger:
 * by hash, the hash's locator then the document by id (two reads by id); by ctid, whose ledger it
 * names, a search of that range only.
 */
async function transactionDocument(engine: Engine, id: string): Promise<Json | undefined> {
  if (id.length === 64) {
    const ledgerIndex = await engine.locate(id);
    return ledgerIndex === undefined
      ? undefined
      : engine.getInRange<Json>('transactions', ledgerIndex, id.toUpperCase(), { located: true });
  }
  const { ledgerIndex } = decodeCtid(id);
  const found = await engine.searchInRange<Json>('transactions', ledgerIndex, buildTxLookup(id));
  return found.hits.hits[0]?._source;
}

/** GET /tx/{HASH}: a validated transaction by hash or ctid. */
export async function transactionById(engine: Engine, id: string): Promise<Json> {
  const doc = await transactionDocument(engine, id);
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
  const [max, min] = await Promise.all([
    marker?.max ?? latestLedger(engine).then((l) => l.ledger_index),
    oldestLedger(engine),
  ]);
  // The page from the account's documents of the activity index (one shard), then its
  // transactions by id from the ranges that hold them.
  const found = await engine.searchActivity<ActivityEntry>(
    account,
    buildAccountActivityQuery(account, { ...query, limit }, max, marker?.after),
  );
  const activity = found.hits.hits;
  const docs = await transactionsOfActivity(engine, activity.slice(0, limit));
  const hits = activity.map((hit, i) => ({ _source: docs[i], sort: hit.sort }));
  const context = await enrichTransactions(engine, docs);
  return shapeAccountTransactions({ account, limit, forward, min: Math.min(min, max), max, hits }, context);
}

/** Which of these transaction hashes are indexed: their locators, read by id in one request. */
export async function indexedTransactions(engine: Engine, hashes: Iterable<string>): Promise<Set<string>> {
  const wanted = [...new Set([...hashes].map((h) => h.toUpperCase()))];
  return new Set((await engine.mget<unknown>('locators', wanted)).keys());
}

/**
 * The hash of the OfferCreate that made an account's offer of this sequence, indexed at or before
 * `ledger` (the ledger of the transaction naming it); undefined when it is not indexed. Only the
 * ranges up to that ledger are read, newest first.
 */
export async function offerCreation(
  engine: Engine,
  account: string,
  sequence: number,
  ledger: number,
): Promise<string | undefined> {
  const found = await engine.searchByLedger<{ hash?: string }>(
    'transactions',
    buildOfferCreationQuery(account, sequence),
    { lte: ledger },
  );
  const hash = found[0]?._source?.hash;
  return typeof hash === 'string' ? hash : undefined;
}
