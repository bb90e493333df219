import type { estypes } from '@elastic/elasticsearch';
import BigNumber from 'bignumber.js';
import { AppError, BadRequestError, ErrorCode, NotFoundError, totalHits } from '@xle/core';
import {
  RIPPLE_EPOCH_OFFSET,
  rippleTimeToIso,
  type ActivityDoc,
  type BalanceChangeDoc,
  type Json,
} from '@xle/documents';
import type { Engine } from '../engine.js';
import {
  buildBalanceHistoryQuery,
  buildBalancesAggs,
  buildBalancesFilter,
  buildEffectsQuery,
  buildLedgerCountQuery,
  type AssetFilter,
  type BalanceChangeFilters,
  type HistoryInterval,
} from '../queries/balances.js';
import {
  buildChangeActivityQuery,
  buildChangeLookupQuery,
  matchingChanges,
  type ChangeKey,
} from '../queries/activity.js';
import { decodePageMarker, encodePageMarker } from '../queries/markers.js';
import { shapeBalance, shapeBalanceChange, shapeBalanceHistory, type ShapedBalance } from '../shapers/balances.js';
import { lastLedgerClosedBy, latestLedger } from './ledgers.js';

/**
 * Historical balances, from the balance-changes data set. Each change carries the balance after
 * it, so an account's balance of an asset at a ledger is its newest change at or before that
 * ledger, exact when the index holds every ledger between the two. Its whole list of balances is
 * known from where its history starts in the index (its creation, or a state snapshot's opening
 * balances) as long as no ledger is missing from there to the point asked; anywhere else the
 * answer is refused with HISTORY_INCOMPLETE, never guessed.
 */

type Change = Partial<BalanceChangeDoc>;

/** How long a count of one range's ledger markers is kept: markers are only ever added. */
const MARKERS_TTL_MS = 30_000;

/**
 * Whether the balance-changes data set holds every ledger after `after` up to `upTo`: its ledger
 * markers are counted (one per ledger, written with the ledger's changes), so a range indexed
 * before the data set existed, and not filled since, is a gap like a ledger never indexed. Each
 * range's part is counted in that range alone and kept MARKERS_TTL_MS (a count that fell short
 * is asked again), so an account's pages do not count every range of its history each time.
 */
async function holdsEveryLedger(engine: Engine, after: number, upTo: number): Promise<boolean> {
  if (upTo <= after) return true;
  for (const part of rangeParts(engine, after + 1, upTo)) {
    const ledgers = part.to - part.from + 1;
    const count = await engine.rememberIn(
      'ledger-markers',
      `${part.from}-${part.to}`,
      MARKERS_TTL_MS,
      async () => {
        const found = await engine.searchInRange(
          'balance-changes',
          part.from,
          buildLedgerCountQuery(part.from - 1, part.to),
        );
        return totalHits(found.hits);
      },
      (n) => n === ledgers,
    );
    if (count !== ledgers) return false;
  }
  return true;
}

/** The ledgers `from`..`to` cut at the ranges' bounds, each part within one range. */
function rangeParts(engine: Engine, from: number, to: number): Array<{ from: number; to: number }> {
  const parts: Array<{ from: number; to: number }> = [];
  for (let at = from; at <= to;) {
    const last = Math.min(to, engine.rangeLast(at));
    parts.push({ from: at, to: last });
    at = last + 1;
  }
  return parts;
}

/**
 * The account's nearest balance change within (`after`, `upTo`] in `order` that matches `what`
 * (one asset, or where its history starts), or undefined: its activity documents (one shard)
 * name the candidates, and their documents are read by id from their ranges.
 */
async function findChange(
  engine: Engine,
  account: string,
  span: { after?: number; upTo: number },
  what: { asset?: AssetFilter; starts?: true },
  order: 'asc' | 'desc',
): Promise<Change | undefined> {
  const size = 10;
  let cursor: estypes.FieldValue[] | undefined;
  for (;;) {
    const found = await engine.searchActivity<ActivityDoc>(
      account,
      buildChangeLookupQuery(account, span, what, order, size, cursor),
    );
    const hits = found.hits.hits;
    const candidates = matchingChanges(hits, what.asset ?? {});
    if (order === 'desc') candidates.sort((a, b) => b.key[0] - a.key[0] || b.key[1] - a.key[1] || b.key[2] - a.key[2]);
    const docs = await engine.documentsInRanges<Change>('balance-changes', candidates);
    for (const c of candidates) {
      const doc = docs.get(c.id);
      if (doc !== undefined && (what.starts !== true || doc.history_start === true)) return doc;
    }
    const last = hits[hits.length - 1];
    if (hits.length < size || last?.sort === undefined) return undefined;
    cursor = last.sort;
  }
}

/** The account's first change after `after` up to `upTo` (any asset), or undefined. */
function firstChangeAfter(engine: Engine, account: string, after: number, upTo: number): Promise<Change | undefined> {
  return findChange(engine, account, { after, upTo }, {}, 'asc');
}

/** The newest change at or before `ledger` of the account that matches `what`. */
function lastChange(
  engine: Engine,
  account: string,
  ledger: number,
  what: { asset: AssetFilter } | { starts: true },
): Promise<Change | undefined> {
  return findChange(engine, account, { upTo: ledger }, what, 'desc');
}

/** Where an account's history starts in the index, as seen from a ledger. */
interface HistoryStart {
  ledger_index: number;
  /** The account was created there (nothing before), rather than a snapshot's opening balances. */
  created: boolean;
  /** Close time of that ledger (absent for a snapshot's ledger not indexed). */
  date?: string;
}

/**
 * Where the account's history starts at or before `ledger` (its creation; a snapshot's opening
 * balances count once that snapshot was written whole) when every ledger from there to `ledger`
 * is indexed: from there on its balances are all known. Undefined otherwise.
 */
async function historyStart(engine: Engine, account: string, ledger: number): Promise<HistoryStart | undefined> {
  const start = await lastChange(engine, account, ledger, { starts: true });
  if (start?.ledger_index === undefined) return undefined;
  if (start.kind === 'opening') {
    // A snapshot of part of the state (or with writes refused) leaves trust lines out.
    const seeded = await engine.get<{ status?: string; dead_letters?: number; detail?: { whole?: boolean } }>(
      'ingest-state',
      `state.${start.ledger_index}`,
    );
    if (seeded?.status !== 'complete' || seeded.detail?.whole !== true || (seeded.dead_letters ?? 0) > 0)
      return undefined;
  }
  if (!(await holdsEveryLedger(engine, start.ledger_index, ledger))) return undefined;
  return {
    ledger_index: start.ledger_index,
    created: start.kind !== 'opening',
    ...(start.date === undefined ? {} : { date: start.date }),
  };
}

/** The ledger from which the account's balances are all known at `ledger` (see historyStart). */
export async function completeFrom(engine: Engine, account: string, ledger: number): Promise<number | undefined> {
  return (await historyStart(engine, account, ledger))?.ledger_index;
}

function incomplete(account: string, ledger: number, completeFromLedger: number | undefined, why: string): AppError {
  return new AppError(
    422,
    ErrorCode.HistoryIncomplete,
    `The balances of ${account} at ledger ${ledger} are not known exactly: ${why}.`,
    {
      details: {
        account,
        ledger_index: ledger,
        complete_from_ledger: completeFromLedger ?? null,
        hint: 'GET /status lists the indexed ranges and gaps; balances are exact from where an account was created or a whole state snapshot was seeded, with no ledger missing since.',
      },
    },
  );
}

/** A ledger's index and close time, by index or as the last closed at or before an instant. */
interface Point {
  ledger_index: number;
  close_time: number;
}

async function ledgerPoint(
  engine: Engine,
  request: { ledger?: number | undefined; date?: string | undefined },
): Promise<Point> {
  const latest = await latestLedger(engine);
  if (request.date !== undefined) {
    const rippleTime = Math.floor(Date.parse(request.date) / 1000) - RIPPLE_EPOCH_OFFSET;
    const doc = await lastLedgerClosedBy<Point>(engine, rippleTime, ['ledger_index', 'close_time']);
    if (doc === undefined)
      throw new NotFoundError(`No indexed ledger closed at or before ${request.date}.`, { date: request.date });
    // The last *indexed* ledger closed by then is the last closed by then only if the next one is
    // indexed (closed after it) or none is newer.
    if (doc.ledger_index < latest.ledger_index) {
      const next = await engine.getInRange<Point>('ledgers', doc.ledger_index + 1, String(doc.ledger_index + 1));
      if (next === undefined)
        throw new AppError(
          422,
          ErrorCode.HistoryIncomplete,
          `The ledger closed at ${request.date} is not known: ledgers after ${doc.ledger_index}, the last indexed before then, are missing.`,
          { details: { date: request.date, ledger_index: doc.ledger_index, complete_from_ledger: null } },
        );
    }
    return doc;
  }
  if (request.ledger === undefined) return latest;
  if (request.ledger > latest.ledger_index)
    throw new NotFoundError(`Ledger ${request.ledger} is not indexed: the newest is ${latest.ledger_index}.`, {
      ledger: request.ledger,
    });
  const doc = await engine.getInRange<Point>('ledgers', request.ledger, String(request.ledger));
  // A ledger not indexed: its balances cannot be exact (a gap at the very point).
  return doc ?? { ledger_index: request.ledger, close_time: -1 };
}

/** The newest change of each asset of the account at or before `ledger`, optionally of one asset. */
async function lastOfEachAsset(
  engine: Engine,
  account: string,
  ledger: number,
  asset: AssetFilter,
  since?: number,
): Promise<Change[]> {
  const out: Change[] = [];
  for await (const page of engine.buckets(
    'balance-changes',
    buildBalancesFilter(account, ledger, asset, since),
    buildBalancesAggs,
    (aggregations) => aggregations.assets as { buckets: Array<Record<string, unknown>> } | undefined,
  ))
    for (const bucket of page.buckets) {
      const hit = (bucket.last as { hits?: { hits?: Array<{ _source?: Change }> } } | undefined)?.hits?.hits?.[0];
      if (hit?._source !== undefined) out.push(hit._source);
    }
  return out;
}

export interface BalancesRequest extends AssetFilter {
  ledger?: number | undefined;
  date?: string | undefined;
}

/**
 * GET /account/{ACCOUNT}/balances: XRP and every token balance at the end of a ledger (the newest
 * by default, or the last closed at or before `date`). Without an asset, exact only from where
 * the account's history is complete; with one asset (currency, and issuer for a token), exact
 * also where the index holds every ledger since that asset's last change.
 */
export async function accountBalances(engine: Engine, account: string, request: BalancesRequest): Promise<Json> {
  const point = await ledgerPoint(engine, request);
  const ledger = point.ledger_index;
  const from = await completeFrom(engine, account, ledger);
  const asset: AssetFilter = { currency: request.currency, issuer: request.issuer };
  // From where its history starts: a line emptied and deleted in a gap before a snapshot is not
  // in the snapshot, and its older change must not stand for it.
  const changes = await lastOfEachAsset(engine, account, ledger, asset, from);
  if (from === undefined) {
    const oneAsset =
      request.currency !== undefined && (request.currency.toUpperCase() === 'XRP' || request.issuer !== undefined);
    if (!oneAsset)
      throw incomplete(
        account,
        ledger,
        undefined,
        request.currency === undefined
          ? 'the index does not hold its history from its creation or a whole state snapshot up to that ledger (one asset may still be asked: currency and issuer)'
          : 'without an issuer, every issuer of the currency would have to be known (name the issuer)',
      );
    if (changes.length > 1)
      throw new BadRequestError(
        `Invalid query parameter "currency": ${request.currency} names ${changes.length} currencies of that issuer; give its 40-hex code.`,
        { parameter: 'currency', in: 'query' },
        ErrorCode.InvalidParameter,
      );
    const last = changes[0];
    if (last?.ledger_index === undefined)
      throw incomplete(account, ledger, undefined, 'no change of that asset is indexed at or before that ledger');
    if (!(await holdsEveryLedger(engine, last.ledger_index, ledger)))
      throw incomplete(
        account,
        ledger,
        undefined,
        `ledgers are missing between its last change (ledger ${last.ledger_index}) and that ledger`,
      );
  }
  if (point.close_time < 0) throw incomplete(account, ledger, from, 'that ledger is not indexed');
  const balances: ShapedBalance[] = changes
    .filter((c) => c.currency_hex === 'XRP' || !new BigNumber(c.balance ?? '0').isZero())
    .map(shapeBalance)
    .sort((a, b) =>
      a.issuer === null
        ? -1
        : b.issuer === null
          ? 1
          : a.currency.localeCompare(b.currency) || a.issuer.localeCompare(b.issuer),
    );
  return {
    account,
    ledger_index: ledger,
    date: rippleTimeToIso(point.close_time),
    complete_from_ledger: from ?? null,
    balances,
  };
}

export interface BalanceChangesRequest extends Omit<BalanceChangeFilters, 'limit'> {
  limit: number;
  marker?: string | undefined;
}

/**
 * GET /account/{ACCOUNT}/balance_changes: the account's changes, oldest first, a page at a time;
 * the marker resumes after the last change sent (a unique sort key: nothing repeats or is lost).
 */
/**
 * The account's balance changes after `after` that match the request, at least `limit` + 1 of
 * them when there are that many (the extra one says a next page exists): read from its
 * documents of the activity index (one shard), a page of them at a time, each change checked
 * against the filters (activity.ts matchingChanges).
 */
async function pickChanges(
  engine: Engine,
  account: string,
  request: BalanceChangesRequest,
  upTo: number,
  after: ChangeKey | undefined,
): Promise<Array<{ id: string; ledgerIndex: number; key: ChangeKey }>> {
  const size = request.limit + 1;
  const picked: Array<{ id: string; ledgerIndex: number; key: ChangeKey }> = [];
  // The marker's own transaction is read again, for the changes of it the last page left.
  let cursor: estypes.FieldValue[] | undefined = after === undefined ? undefined : [after[0], after[1], -1];
  for (;;) {
    const found = await engine.searchActivity<ActivityDoc>(
      account,
      buildChangeActivityQuery(account, request, upTo, size, cursor),
    );
    const hits = found.hits.hits;
    picked.push(...matchingChanges(hits, request, after));
    const last = hits[hits.length - 1];
    if (picked.length >= size || hits.length < size || last?.sort === undefined) return picked;
    cursor = last.sort;
  }
}

export async function accountBalanceChanges(
  engine: Engine,
  account: string,
  request: BalanceChangesRequest,
): Promise<Json> {
  const scope = `balance_changes:${account}:${JSON.stringify([request.currency, request.issuer, request.from_ledger, request.to_ledger, request.from, request.to, request.kind])}`;
  const after = request.marker === undefined ? undefined : decodePageMarker(request.marker, scope);
  if (after !== undefined && (after.length !== 3 || !after.every((v) => typeof v === 'number')))
    throw new BadRequestError(
      'Invalid query parameter "marker": not one this API issued.',
      { parameter: 'marker', in: 'query' },
      ErrorCode.InvalidParameter,
    );
  const latest = await latestLedger(engine);
  const [picked, from] = await Promise.all([
    pickChanges(engine, account, request, latest.ledger_index, after as ChangeKey | undefined),
    completeFrom(engine, account, latest.ledger_index),
  ]);
  const page = picked.slice(0, request.limit);
  // The page's documents by id from the ranges that hold them; one the data set lacks (a range
  // indexed before it existed and not filled) is not listed, as a search would not find it.
  const docs = await engine.documentsInRanges<Change>('balance-changes', page);
  const last = page[page.length - 1];
  return {
    account,
    complete_from_ledger: from ?? null,
    changes: page.flatMap((c) => {
      const doc = docs.get(c.id);
      return doc === undefined ? [] : [shapeBalanceChange(doc)];
    }),
    marker: picked.length > request.limit && last !== undefined ? encodePageMarker(scope, [...last.key]) : null,
  };
}

export interface BalanceHistoryRequest extends AssetFilter {
  interval: HistoryInterval;
  from?: string | undefined;
  to?: string | undefined;
  /** Without `from`: days before `to` the span starts (default 365), or later where the history starts. */
  days?: number;
}

/** At most this many points in one answer (ten years of days). */
export const HISTORY_POINTS_MAX = 3660;

/** The start of the calendar interval (UTC; weeks start on Monday, as the engine's) that holds `ms`. */
export function intervalStart(ms: number, interval: HistoryInterval): number {
  const d = new Date(ms);
  if (interval === 'month') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  if (interval === 'day') return day;
  return day - ((d.getUTCDay() + 6) % 7) * 86_400_000;
}

export function nextInterval(ms: number, interval: HistoryInterval): number {
  const d = new Date(ms);
  if (interval === 'month') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  return ms + (interval === 'day' ? 1 : 7) * 86_400_000;
}

/**
 * GET /account/{ACCOUNT}/balance_history: the balance of one asset at the end of each day, week
 * or month from `from` to `to` (default: the year up to the newest ledger); the last point is the
 * balance at `to`. Refused unless the balance at `from` is known exactly and no ledger is missing
 * up to `to`.
 */
export async function accountBalanceHistory(
  engine: Engine,
  account: string,
  request: BalanceHistoryRequest,
): Promise<Json> {
  const latest = await latestLedger(engine);
  // Nothing after the newest indexed ledger is known: `to` stops there.
  const latestMs = (latest.close_time + RIPPLE_EPOCH_OFFSET) * 1000;
  const toMs = Math.min(request.to === undefined ? latestMs : Date.parse(request.to), latestMs);
  // Where the history starts as seen from the newest ledger, looked up once when asked twice.
  let atLatest: Promise<HistoryStart | undefined> | undefined;
  const startAt = (ledger: number): Promise<HistoryStart | undefined> =>
    ledger === latest.ledger_index
      ? (atLatest ??= historyStart(engine, account, ledger))
      : historyStart(engine, account, ledger);
  // By default a year (or `days`), or from where the account's history starts when that is later.
  const start = request.from === undefined ? await startAt(latest.ledger_index) : undefined;
  const fromMs =
    request.from === undefined
      ? Math.max(toMs - (request.days ?? 365) * 86_400_000, start?.date === undefined ? 0 : Date.parse(start.date))
      : Date.parse(request.from);
  if (fromMs > toMs)
    throw new BadRequestError(
      `Invalid query parameter "from": after the newest indexed ledger's close (${new Date(latestMs).toISOString()}).`,
      { parameter: 'from', in: 'query' },
      ErrorCode.InvalidParameter,
    );
  const starts: number[] = [];
  for (let at = intervalStart(fromMs, request.interval); at <= toMs; at = nextInterval(at, request.interval)) {
    starts.push(at);
    if (starts.length > HISTORY_POINTS_MAX)
      throw new BadRequestError(
        `Invalid query parameter "from": from ${new Date(fromMs).toISOString()} to ${new Date(toMs).toISOString()} is more than ${HISTORY_POINTS_MAX} points of a ${request.interval}; ask a longer interval or a shorter span.`,
        { parameter: 'from', in: 'query' },
        ErrorCode.InvalidParameter,
      );
  }
  const [fromPoint, toPoint] = await Promise.all([
    ledgerPoint(engine, { date: new Date(fromMs).toISOString() }).catch((error: unknown) => {
      // Before the first indexed ledger: nothing is known there.
      if (error instanceof NotFoundError)
        throw incomplete(account, 0, undefined, `no indexed ledger closed by ${new Date(fromMs).toISOString()}`);
      throw error;
    }),
    ledgerPoint(engine, { date: new Date(toMs).toISOString() }),
  ]);
  const asset: AssetFilter = { currency: request.currency ?? 'XRP', issuer: request.issuer };
  const [from, opening, startAtEnd] = await Promise.all([
    completeFrom(engine, account, fromPoint.ledger_index),
    lastChange(engine, account, fromPoint.ledger_index, { asset }),
    startAt(toPoint.ledger_index),
  ]);
  // Known at the start: the account's history is complete there; or the asset's last change
  // before it is indexed with every ledger since; or the account was created within the span with
  // every ledger from the start indexed and no change of it before its creation (so it did not
  // exist at the start: it held nothing).
  let createdWithin = false;
  if (from === undefined && startAtEnd?.created === true && startAtEnd.ledger_index > fromPoint.ledger_index) {
    const [first, held] = await Promise.all([
      firstChangeAfter(engine, account, fromPoint.ledger_index, toPoint.ledger_index),
      holdsEveryLedger(engine, fromPoint.ledger_index, toPoint.ledger_index),
    ]);
    createdWithin = held && first?.history_start === true && first.ledger_index === startAtEnd.ledger_index;
  }
  if (!createdWithin) {
    const knownFrom = from ?? opening?.ledger_index;
    if (knownFrom === undefined)
      throw incomplete(
        account,
        fromPoint.ledger_index,
        undefined,
        'no change of that asset is indexed at or before the start, and its history does not start there',
      );
    if (!(await holdsEveryLedger(engine, Math.min(knownFrom, fromPoint.ledger_index), toPoint.ledger_index)))
      throw incomplete(
        account,
        toPoint.ledger_index,
        from,
        `ledgers are missing between ledger ${knownFrom} and ledger ${toPoint.ledger_index}`,
      );
  }
  // A change from before where the history starts (a line deleted in a gap before a snapshot, an
  // earlier life of a re-created account) says nothing about the start.
  const before = createdWithin || (from !== undefined && (opening?.ledger_index ?? -1) < from) ? undefined : opening;
  const found = await engine.search(
    'balance-changes',
    buildBalanceHistoryQuery(account, asset, fromPoint.ledger_index, toPoint.ledger_index, request.interval),
  );
  const buckets =
    (
      found.aggregations?.points as
        { buckets?: Array<{ key: number; last?: { hits?: { hits?: Array<{ _source?: Change }> } } }> } | undefined
    )?.buckets ?? [];
  return shapeBalanceHistory({
    account,
    currency: asset.currency as string,
    issuer: request.issuer,
    interval: request.interval,
    fromMs,
    toMs,
    starts,
    before,
    lastIn: new Map(buckets.map((b) => [b.key, b.last?.hits?.hits?.[0]?._source])),
    completeFrom: from ?? startAtEnd?.ledger_index ?? null,
  });
}

/** What a transaction did to one balance of the account: the net of its changes of one asset. */
export interface Effect {
  currency: string;
  currency_hex: string;
  issuer: string | null;
  /** Signed, exact: positive when the account gained (the fee included). */
  value: string;
}

/**
 * The effect of each of these transactions on the account's balances, from the balance-changes
 * data set (the same documents /balance_changes answers): per transaction, the net change of
 * each asset, fee included, in the order the assets first changed. One search of the ranges that
 * hold the transactions' ledgers.
 */
export async function transactionEffects(
  engine: Engine,
  account: string,
  transactions: ReadonlyArray<{ hash: string; ledger_index: number }>,
): Promise<Map<string, Effect[]>> {
  const out = new Map<string, Effect[]>();
  if (transactions.length === 0) return out;
  const ledgers = transactions.map((t) => t.ledger_index);
  const range = { gte: Math.min(...ledgers), lte: Math.max(...ledgers) };
  const hits = await engine.searchByLedger<Change>(
    'balance-changes',
    buildEffectsQuery(
      account,
      transactions.map((t) => t.hash),
      range,
    ),
    { ...range, ascending: true },
  );
  for (const hit of hits) {
    const change = hit._source;
    if (change?.hash === undefined || change.value === undefined) continue;
    const effects = out.get(change.hash) ?? [];
    const issuer = change.issuer ?? null;
    const held = effects.find((e) => e.currency_hex === change.currency_hex && e.issuer === issuer);
    if (held === undefined)
      effects.push({
        currency: change.currency ?? '',
        currency_hex: change.currency_hex ?? '',
        issuer,
        value: change.value,
      });
    else held.value = new BigNumber(held.value).plus(change.value).toFixed();
    out.set(change.hash, effects);
  }
  for (const [hash, effects] of out) {
    const moved = effects.filter((e) => !new BigNumber(e.value).isZero());
    out.set(hash, moved);
  }
  return out;
}
