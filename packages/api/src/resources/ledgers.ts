import type { estypes } from '@elastic/elasticsearch';
import { LedgerIncompleteError, LedgerNotReadyError, NotFoundError, totalHits } from '@xle/core';
import { RIPPLE_EPOCH_OFFSET, type Json } from '@xle/documents';
import type { Engine } from '../engine.js';
import { enrichTransactions } from '../enrich/transactions.js';
import {
  buildLatestLedgersQuery,
  buildLedgerAtQuery,
  buildLedgerPageQuery,
  buildLedgerTxQuery,
} from '../queries/lookups.js';
import { shapeLatestLedgers, shapeLedger } from '../shapers/ledger.js';
import { shapeTransactions } from '../shapers/transaction.js';

/**
 * The newest indexed ledger's index and close time, which pin a first page's range and date an
 * auction slot. Kept for half a second: ledgers close every 3 to 4 seconds, so the value is never
 * more than one ledger old, and a marker pins whichever value its first page used.
 */
const LATEST_TTL_MS = 500;

export interface LatestLedger {
  ledger_index: number;
  close_time: number;
  /** The close time of the ledger before it (rippled's parentCloseTime), when indexed with it. */
  parent_close_time?: number;
}

export function latestLedger(engine: Engine): Promise<LatestLedger> {
  return engine.remember('latest-ledger', LATEST_TTL_MS, async () => {
    const found = await engine.searchNewest<LatestLedger>('ledgers', {
      ...buildLatestLedgersQuery(1),
      _source: ['ledger_index', 'close_time', 'parent_close_time'],
    });
    const newest = found[0]?._source;
    const latest: LatestLedger = { ledger_index: newest?.ledger_index ?? 0, close_time: newest?.close_time ?? 0 };
    if (typeof newest?.parent_close_time === 'number') latest.parent_close_time = newest.parent_close_time;
    return latest;
  });
}

/** How long the oldest indexed ledger is kept: a backfill moves it back, never by much in that time. */
const OLDEST_TTL_MS = 60_000;

/**
 * The oldest indexed ledger's index (0 when none is indexed): where an account's walk back in
 * time ends. One `min` aggregation over the ledgers, answered from the indices' points.
 */
export function oldestLedger(engine: Engine): Promise<number> {
  return engine.remember('oldest-ledger', OLDEST_TTL_MS, async () => {
    const found = await engine.search('ledgers', {
      size: 0,
      track_total_hits: false,
      aggs: { oldest: { min: { field: 'ledger_index' } } },
    });
    return (found.aggregations?.oldest as { value?: number | null } | undefined)?.value ?? 0;
  });
}

/**
 * Ledger headers newest first, `limit` of them below `before` (all when not given), and the index
 * the next page starts below (null on the oldest page): only the ranges holding them are read.
 */
export async function ledgerList(
  engine: Engine,
  { before, limit }: { before?: number | undefined; limit: number },
): Promise<{ ledgers: Json[]; next: number | null }> {
  const found = await engine.searchByLedger<Json>(
    'ledgers',
    buildLedgerPageQuery(before, limit + 1),
    before === undefined ? {} : { lte: before - 1 },
  );
  const docs = found.map((h) => h._source ?? {});
  const ledgers = docs.slice(0, limit).map((doc) => shapeLedger(doc, { withDestroyed: true }));
  const last = ledgers.at(-1)?.ledger_index;
  return { ledgers, next: docs.length > limit && typeof last === 'number' ? last : null };
}

/** GET /ledgers: the last 10 ledgers closed. */
export async function latestLedgers(engine: Engine): Promise<Json> {
  const found = await engine.searchNewest<Json>('ledgers', buildLatestLedgersQuery(10));
  return shapeLatestLedgers(found.map((h) => h._source ?? {}));
}

/** The ledger document of an index or a 64-hex hash; 404 when it is not indexed. */
async function ledgerDocument(engine: Engine, id: string): Promise<Json> {
  if (id.length === 64) {
    // The hash's locator, then the ledger by id from its range (a transaction's hash locates too: not a ledger).
    const located = await engine.locate(id);
    const doc =
      located === undefined
        ? undefined
        : await engine.getInRange<Json>('ledgers', located, String(located), { located: true });
    if (doc === undefined || String(doc.ledger_hash).toUpperCase() !== id.toUpperCase())
      throw new NotFoundError(`Ledger ${id.toUpperCase()} is not indexed.`, { ledger: id });
    return doc;
  }
  const index = Number(id);
  const doc = await engine.getInRange<Json>('ledgers', index, String(index));
  if (doc === undefined) throw new NotFoundError(`Ledger ${index} is not indexed.`, { ledger: index });
  return doc;
}

/** GET /ledger/{LEDGER_INDEX}: a ledger header by index or hash. */
export async function ledgerById(engine: Engine, id: string): Promise<Json> {
  return shapeLedger(await ledgerDocument(engine, id));
}

/**
 * GET /ledger/{LEDGER_INDEX}/transactions: its transactions, in ledger order, all of them or
 * none. Its header is read by id, which sees it as soon as it is written; its transactions are
 * searched, which sees each once its shard refreshes. While fewer are found than the header's
 * `tx_count` the ledger is still being indexed (503 LEDGER_NOT_READY), unless the engine refused
 * the missing ones when they were written (dead letters: 500 LEDGER_INCOMPLETE, as waiting will
 * not make the list whole). The answer is cached for good: never a part of the list.
 */
export async function ledgerTransactions(engine: Engine, id: string): Promise<Json[]> {
  const ledger = await ledgerDocument(engine, id);
  const ledgerIndex = Number(ledger.ledger_index);
  const txCount = Number(ledger.tx_count);
  if (txCount === 0) return [];
  // Its transactions' range must be there (a missing one is 503 INDEX_NOT_FOUND, not an empty list).
  const found = await engine.searchInRange<Json>('transactions', ledgerIndex, {
    ...buildLedgerTxQuery(ledgerIndex),
    ignore_unavailable: false,
  });
  const docs = found.hits.hits.map((h) => h._source ?? {});
  if (docs.length < txCount) {
    const refused = await refusedTransactions(engine, ledgerIndex);
    if (docs.length + refused >= txCount) throw new LedgerIncompleteError(ledgerIndex, refused, txCount);
    throw new LedgerNotReadyError(ledgerIndex, docs.length, txCount);
  }
  return shapeTransactions(docs, await enrichTransactions(engine, docs));
}

/** How many of a ledger's transaction documents the engine refused when they were written (its dead letters). */
function refusedTransactions(engine: Engine, ledgerIndex: number): Promise<number> {
  return refusedTransactionDocuments(engine, { term: { ledger_index: ledgerIndex } });
}

/** How many transaction documents matching `which` the engine refused when they were written (their dead letters). */
export async function refusedTransactionDocuments(
  engine: Engine,
  which: estypes.QueryDslQueryContainer,
): Promise<number> {
  const found = await engine.search('dead-letters', {
    size: 0,
    track_total_hits: true,
    ignore_unavailable: true,
    query: { bool: { filter: [which, { prefix: { target_index: `${engine.index('transactions')}-` } }] } },
  });
  return totalHits(found.hits);
}

/**
 * The last indexed ledger closed at or before `rippleTime` (Ripple epoch seconds), optionally only
 * some of its fields; undefined when none is (the instant is before the first indexed ledger).
 */
export async function lastLedgerClosedBy<T>(
  engine: Engine,
  rippleTime: number,
  fields?: readonly string[],
): Promise<T | undefined> {
  const latest = await latestLedger(engine);
  const found = await engine.searchClosedBy<T>(
    'ledgers',
    { ...buildLedgerAtQuery(rippleTime), ...(fields === undefined ? {} : { _source: [...fields] }) },
    rippleTime,
    latest.ledger_index,
  );
  return found[0]?._source;
}

/**
 * GET /ledger/at/{DATE}: the last indexed ledger closed at or before an instant (seconds since
 * the Unix epoch, fractions dropped); 404 when none is (the instant is before the first indexed
 * ledger).
 */
export async function ledgerAt(engine: Engine, unixSeconds: number): Promise<Json> {
  const doc = await lastLedgerClosedBy<Json>(engine, Math.floor(unixSeconds) - RIPPLE_EPOCH_OFFSET);
  if (doc === undefined)
    throw new NotFoundError(`No indexed ledger closed at or before ${new Date(unixSeconds * 1000).toISOString()}.`, {
      date: new Date(unixSeconds * 1000).toISOString(),
    });
  return shapeLedger(doc);
}
