import type { estypes } from '@elastic/elasticsearch';
import { currencyHex } from '@xle/documents';

/**
 * The searches of the balance-changes data set (pure): an account's changes in order, its last
 * change of each asset at a ledger, where its history starts, and end-of-interval balances.
 * Every change sorts by (ledger_index, transaction_index, position), unique per document.
 */

/** One asset as a request names it: XRP, or a currency (3-character, 40-hex or text) with an optional issuer. */
export interface AssetFilter {
  currency?: string | undefined;
  issuer?: string | undefined;
}

/** The order of changes, oldest first (reversed for the newest first). */
export function changeOrder(order: 'asc' | 'desc'): estypes.Sort {
  return [{ ledger_index: { order } }, { transaction_index: { order } }, { position: { order } }];
}

/** A range filter on `field` from `gte` to `lte` (either may be absent), or none when both are (pure). */
export function between(
  field: string,
  gte: number | string | undefined,
  lte: number | string | undefined,
): estypes.QueryDslQueryContainer[] {
  if (gte === undefined && lte === undefined) return [];
  return [{ range: { [field]: { ...(gte === undefined ? {} : { gte }), ...(lte === undefined ? {} : { lte }) } } }];
}

/** The filter of one asset: a code matches its 40-hex form or its decoded text. */
export function assetFilter({ currency, issuer }: AssetFilter): estypes.QueryDslQueryContainer[] {
  const filter: estypes.QueryDslQueryContainer[] = [];
  if (currency !== undefined) {
    if (currency.toUpperCase() === 'XRP') filter.push({ term: { currency_hex: 'XRP' } });
    else {
      const hex = currencyHex(currency);
      filter.push({
        bool: {
          should: [{ term: { currency } }, ...(hex === undefined ? [] : [{ term: { currency_hex: hex } }])],
          minimum_should_match: 1,
        },
      });
    }
  }
  if (issuer !== undefined) filter.push({ term: { issuer } });
  return filter;
}

export interface BalanceChangeFilters extends AssetFilter {
  from_ledger?: number | undefined;
  to_ledger?: number | undefined;
  from?: string | undefined;
  to?: string | undefined;
  kind?: string | undefined;
  limit: number;
}

/** Fields a balance answer reads from a change. */
export const BALANCE_SOURCE = ['currency', 'currency_hex', 'issuer', 'balance', 'ledger_index', 'hash', 'kind', 'date'];

/**
 * The newest change of each asset of an account at or before `ledger`, one composite page (pure).
 * Emits: aggs.assets composite [currency_hex, issuer (missing bucket for XRP)] with top_hits size
 * 1 sorted (ledger_index, transaction_index, position) desc.
 */
export function buildBalancesAggs(page: {
  size: number;
  after?: Record<string, estypes.FieldValue>;
}): Record<string, estypes.AggregationsAggregationContainer> {
  return {
    assets: {
      composite: {
        ...page,
        sources: [
          { currency_hex: { terms: { field: 'currency_hex' } } },
          { issuer: { terms: { field: 'issuer', missing_bucket: true } } },
        ],
      },
      aggs: { last: { top_hits: { size: 1, sort: changeOrder('desc'), _source: BALANCE_SOURCE } } },
    },
  };
}

/**
 * What the composite of buildBalancesAggs walks (pure): the account's changes at or before
 * `ledger` (from `since` on, where its history starts), of one asset or all.
 */
export function buildBalancesFilter(
  account: string,
  ledger: number,
  asset: AssetFilter,
  since?: number,
): estypes.SearchRequest {
  return {
    query: {
      bool: {
        filter: [
          { term: { account } },
          ...assetFilter(asset),
          { range: { ledger_index: { lte: ledger, ...(since === undefined ? {} : { gte: since }) } } },
        ],
      },
    },
  };
}

/**
 * The balance-changes data set's ledger markers after `after` up to `upTo` (pure): counted, to
 * tell whether it holds every one of those ledgers.
 */
export function buildLedgerCountQuery(after: number, upTo: number): estypes.SearchRequest {
  return {
    size: 0,
    track_total_hits: true,
    query: { bool: { filter: [{ term: { kind: 'ledger' } }, { range: { ledger_index: { gt: after, lte: upTo } } }] } },
  };
}

export type HistoryInterval = 'day' | 'week' | 'month';

/**
 * The last balance of one asset in each interval between two ledgers (pure).
 * Emits: bool.filter [term account, asset terms, range ledger_index (after, upTo]], size 0,
 * aggs.points date_histogram on date (calendar interval, UTC), each bucket's newest change.
 */
export function buildBalanceHistoryQuery(
  account: string,
  asset: AssetFilter,
  after: number,
  upTo: number,
  interval: HistoryInterval,
): estypes.SearchRequest {
  return {
    size: 0,
    track_total_hits: false,
    query: {
      bool: {
        filter: [{ term: { account } }, ...assetFilter(asset), { range: { ledger_index: { gt: after, lte: upTo } } }],
      },
    },
    aggs: {
      points: {
        date_histogram: { field: 'date', calendar_interval: interval, time_zone: 'UTC', min_doc_count: 1 },
        aggs: { last: { top_hits: { size: 1, sort: changeOrder('desc'), _source: BALANCE_SOURCE } } },
      },
    },
  };
}

/**
 * An account's changes in some transactions (pure), for the effect column of its page.
 * Emits: bool.filter [term account, terms hash, range ledger_index], sort (ledger_index,
 * transaction_index, position) asc, size: up to 64 changes a transaction.
 */
export function buildEffectsQuery(
  account: string,
  hashes: readonly string[],
  ledgers: { gte: number; lte: number },
): estypes.SearchRequest & { size: number } {
  return {
    query: {
      bool: {
        filter: [{ term: { account } }, { terms: { hash: [...hashes] } }, { range: { ledger_index: ledgers } }],
      },
    },
    sort: changeOrder('asc'),
    size: Math.min(10_000, hashes.length * 64),
    track_total_hits: false,
    _source: ['hash', 'currency', 'currency_hex', 'issuer', 'value'],
  };
}

/** What the accounting export reads: one account's changes, optionally between two instants. */
export interface AccountingFilters {
  account: string;
  from?: string | undefined;
  to?: string | undefined;
}

/**
 * The search of an account's changes in an accounting export (pure).
 * Emits: bool.filter [term account, range date], must_not [term kind opening], sort (ledger_index,
 * transaction_index, position) asc.
 */
export function buildAccountingQuery(request: AccountingFilters): estypes.SearchRequest {
  const filter: estypes.QueryDslQueryContainer[] = [
    { term: { account: request.account } },
    ...between('date', request.from, request.to),
  ];
  // Opening balances of a snapshot are not movements a tax tool should book.
  return { query: { bool: { filter, must_not: [{ term: { kind: 'opening' } }] } }, sort: changeOrder('asc') };
}
