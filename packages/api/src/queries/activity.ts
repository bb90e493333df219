import type { estypes } from '@elastic/elasticsearch';
import { currencyHex, type ActivityDoc } from '@xle/documents';
import { between, changeOrder, type AssetFilter, type BalanceChangeFilters } from './balances.js';

/**
 * The filters of /account/{ACCOUNT}/transactions, as its query schema (schemas/queries.ts
 * AccountTxQuery) validates them, with the limit decided.
 */
export interface AccountTxFilters {
  type?: string;
  result?: string;
  from?: string;
  to?: string;
  destination_tag?: number;
  source_tag?: number;
  currency?: string;
  direction?: 'sent' | 'received';
  forward?: boolean;
  limit: number;
}

/**
 * One page of an account's transactions from the activity index (pure): its documents of
 * transactions (not of opening balances: those have no `type`) within the pinned newest ledger,
 * each filter on the field the activity document carries for it.
 * Emits: bool.filter [term key, exists type, range ledger_index lte max, term type / result /
 * destination_tag / source_tag / currencies / sent / received, range date], sort (ledger_index,
 * transaction_index) desc (asc when forward), search_after the marker's last transaction, size
 * limit + 1 (the extra hit says whether a next page exists), `_source` without the changes.
 */
export function buildAccountActivityQuery(
  account: string,
  filters: AccountTxFilters,
  pinnedMax: number,
  after?: readonly [number, number],
): estypes.SearchRequest & { size: number } {
  const filter: estypes.QueryDslQueryContainer[] = [
    { term: { key: account } },
    { exists: { field: 'type' } },
    { range: { ledger_index: { lte: pinnedMax } } },
  ];
  // A transaction type in any case: payment finds Payment.
  if (filters.type !== undefined) filter.push({ term: { type: { value: filters.type, case_insensitive: true } } });
  if (filters.result !== undefined) filter.push({ term: { result: filters.result } });
  if (filters.from !== undefined || filters.to !== undefined)
    filter.push({
      range: {
        date: {
          ...(filters.from === undefined ? {} : { gte: filters.from }),
          ...(filters.to === undefined ? {} : { lte: filters.to }),
        },
      },
    });
  if (filters.destination_tag !== undefined) filter.push({ term: { destination_tag: filters.destination_tag } });
  if (filters.source_tag !== undefined) filter.push({ term: { source_tag: filters.source_tag } });
  if (filters.currency !== undefined) filter.push({ term: { currencies: filters.currency } });
  if (filters.direction === 'sent') filter.push({ term: { sent: true } });
  if (filters.direction === 'received') filter.push({ term: { received: true } });
  return keyPage(filter, filters.forward === true ? 'asc' : 'desc', filters.limit + 1, after);
}

/**
 * One page of an NFT's history from the activity index (pure): every transaction naming it,
 * oldest first unless `newestFirst`.
 * Emits: bool.filter [term key], sort (ledger_index, transaction_index), search_after, size limit + 1.
 */
export function buildNftActivityQuery(
  id: string,
  limit: number,
  newestFirst: boolean,
  after?: readonly estypes.FieldValue[],
): estypes.SearchRequest & { size: number } {
  return keyPage([{ term: { key: id } }], newestFirst ? 'desc' : 'asc', limit + 1, after);
}

function keyPage(
  filter: estypes.QueryDslQueryContainer[],
  order: 'asc' | 'desc',
  size: number,
  after: readonly estypes.FieldValue[] | undefined,
): estypes.SearchRequest & { size: number } {
  const request: estypes.SearchRequest & { size: number } = {
    query: { bool: { filter } },
    sort: [{ ledger_index: { order } }, { transaction_index: { order } }],
    size,
    track_total_hits: false,
    _source: ['ledger_index', 'hash'],
  };
  if (after !== undefined) request.search_after = [...after];
  return request;
}

/** The sort key of one balance change: ledger, transaction index, position (unique per change). */
export type ChangeKey = readonly [number, number, number];

/**
 * One page of an account's activity documents that hold balance changes matching the filters
 * (pure), oldest first: the page of its balance changes is cut from their `changes`
 * (matchingChanges). Each filter reads the document's flat lists, which a document matches when
 * any of its changes does, so matchingChanges checks each change again. After a marker (the last
 * change of the page before), the marker's transaction is read again for the changes it has left.
 * Emits: bool.filter [term key, exists change_kinds, range ledger_index, range date, terms
 * change_currencies (the code as given and its 40-hex form), term change_issuers, term
 * change_kinds], sort (ledger_index, transaction_index, position) asc, search_after, size.
 */
export function buildChangeActivityQuery(
  account: string,
  filters: BalanceChangeFilters,
  upTo: number,
  size: number,
  after?: readonly estypes.FieldValue[],
): estypes.SearchRequest & { size: number } {
  const where = [
    ...between('ledger_index', filters.from_ledger, Math.min(upTo, filters.to_ledger ?? upTo)),
    ...between('date', filters.from, filters.to),
    ...(filters.kind === undefined ? [] : [{ term: { change_kinds: filters.kind } }]),
  ];
  return changeSearch(account, where, filters, 'asc', size, after);
}

/**
 * The account's activity documents holding balance changes (term key, exists change_kinds),
 * under `where` and of one asset when given, as one page in (ledger, transaction, position)
 * order.
 */
function changeSearch(
  account: string,
  where: readonly estypes.QueryDslQueryContainer[],
  asset: { currency?: string; issuer?: string } | undefined,
  order: 'asc' | 'desc',
  size: number,
  after: readonly estypes.FieldValue[] | undefined,
): estypes.SearchRequest & { size: number } {
  const filter: estypes.QueryDslQueryContainer[] = [
    { term: { key: account } },
    { exists: { field: 'change_kinds' } },
    ...where,
  ];
  const codes = currencyForms(asset?.currency);
  if (codes !== undefined) filter.push({ terms: { change_currencies: codes } });
  if (asset?.issuer !== undefined) filter.push({ term: { change_issuers: asset.issuer } });
  const request: estypes.SearchRequest & { size: number } = {
    query: { bool: { filter } },
    sort: changeOrder(order),
    size,
    track_total_hits: false,
    _source: ['ledger_index', 'transaction_index', 'position', 'changes'],
  };
  if (after !== undefined) request.search_after = [...after];
  return request;
}

/** A currency filter's forms: XRP, or the code as given and its 40-hex form. */
function currencyForms(currency: string | undefined): string[] | undefined {
  if (currency === undefined) return undefined;
  if (currency.toUpperCase() === 'XRP') return ['XRP'];
  const hex = currencyHex(currency);
  return hex === undefined || hex === currency ? [currency] : [currency, hex];
}

/**
 * The balance changes of a page of activity documents that match the filters, in order, after
 * `after` (pure): each with its document id, ledger and sort key.
 */
export function matchingChanges(
  hits: readonly estypes.SearchHit<Pick<ActivityDoc, 'ledger_index' | 'transaction_index' | 'changes'>>[],
  filters: Pick<BalanceChangeFilters, 'currency' | 'issuer' | 'kind'>,
  after?: ChangeKey,
): Array<{ id: string; ledgerIndex: number; key: ChangeKey }> {
  const codes = currencyForms(filters.currency);
  const out: Array<{ id: string; ledgerIndex: number; key: ChangeKey }> = [];
  for (const hit of hits) {
    const doc = hit._source;
    if (doc === undefined) continue;
    for (const change of doc.changes ?? []) {
      if (codes !== undefined && !codes.includes(change.currency) && !codes.includes(change.currency_hex)) continue;
      if (filters.issuer !== undefined && change.issuer !== filters.issuer) continue;
      if (filters.kind !== undefined && change.kind !== filters.kind) continue;
      const key: ChangeKey = [doc.ledger_index, doc.transaction_index, change.position];
      if (after !== undefined && compareKeys(key, after) <= 0) continue;
      out.push({ id: change.id, ledgerIndex: doc.ledger_index, key });
    }
  }
  return out;
}

function compareKeys(a: ChangeKey, b: ChangeKey): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/**
 * The account's activity documents holding balance changes within (`after`, `upTo`], nearest
 * first in `order`, optionally only those where its history starts or with a change of one asset
 * (pure): where to find its first or last such change.
 * Emits: bool.filter [term key, exists change_kinds, range ledger_index, term starts / terms
 * change_currencies, term change_issuers], sort (ledger_index, transaction_index, position), size.
 */
export function buildChangeLookupQuery(
  account: string,
  span: { after?: number; upTo: number },
  what: { asset?: AssetFilter; starts?: true },
  order: 'asc' | 'desc',
  size: number,
  cursor?: readonly estypes.FieldValue[],
): estypes.SearchRequest & { size: number } {
  const where: estypes.QueryDslQueryContainer[] = [
    { range: { ledger_index: { ...(span.after === undefined ? {} : { gt: span.after }), lte: span.upTo } } },
  ];
  if (what.starts === true) where.push({ term: { starts: true } });
  return changeSearch(account, where, what.asset, order, size, cursor);
}
