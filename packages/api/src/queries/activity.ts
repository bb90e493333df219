import type { estypes } from '@elastic/elasticsearch';

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
  if (filters.type !== undefined) filter.push({ term: { type: filters.type } });
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
