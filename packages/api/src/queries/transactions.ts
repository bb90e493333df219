import type { estypes } from '@elastic/elasticsearch';
import type { Marker } from './markers.js';

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
 * The search for one page of an account's transactions (pure).
 * Emits: bool.filter [term _accounts, term/range filters..., range ledger_index within the pinned
 * max and the marker's ledger],
 * sort [ledger_index, meta.TransactionIndex] desc (asc when forward), search_after the marker's
 * last transaction, size limit + 1 (the extra hit says whether a next page exists).
 */
export function buildAccountTxQuery(
  account: string,
  filters: AccountTxFilters,
  pinnedMax: number,
  after?: Marker['after'],
  closed?: Marker['closed'],
): estypes.SearchRequest & { size: number } {
  // The ledgers left to walk; and the close times left (see Marker.closed), which let a deep page
  // skip the range indices it has passed.
  const forward = filters.forward === true;
  const ledgers =
    after === undefined
      ? { lte: pinnedMax }
      : forward
        ? { gte: after[0], lte: pinnedMax }
        : { lte: Math.min(after[0], pinnedMax) };
  const filter: estypes.QueryDslQueryContainer[] = [
    { term: { _accounts: account } },
    { range: { ledger_index: ledgers } },
  ];
  if (closed !== undefined) filter.push({ range: { _date: forward ? { gte: closed } : { lte: closed } } });
  if (filters.type !== undefined) filter.push({ term: { TransactionType: filters.type } });
  if (filters.result !== undefined) filter.push({ term: { 'meta.TransactionResult': filters.result } });
  if (filters.from !== undefined || filters.to !== undefined) {
    filter.push({
      range: {
        _date: {
          ...(filters.from === undefined ? {} : { gte: filters.from }),
          ...(filters.to === undefined ? {} : { lte: filters.to }),
        },
      },
    });
  }
  if (filters.destination_tag !== undefined) filter.push({ term: { DestinationTag: filters.destination_tag } });
  if (filters.source_tag !== undefined) filter.push({ term: { SourceTag: filters.source_tag } });
  if (filters.currency !== undefined) {
    const code = filters.currency;
    filter.push({
      bool: {
        should: ['Amount', 'SendMax', 'TakerGets', 'TakerPays', 'LimitAmount', 'meta.delivered_amount'].flatMap(
          (field) => [{ term: { [`${field}.currency`]: code } }, { term: { [`${field}._currency`]: code } }],
        ),
        minimum_should_match: 1,
      },
    });
  }
  if (filters.direction === 'sent') filter.push({ term: { Account: account } });
  if (filters.direction === 'received') filter.push({ term: { Destination: account } });
  const order = forward ? 'asc' : 'desc';
  const request: estypes.SearchRequest & { size: number } = {
    query: { bool: { filter } },
    sort: [{ ledger_index: { order } }, { 'meta.TransactionIndex': { order } }],
    size: filters.limit + 1,
    track_total_hits: false,
  };
  if (after !== undefined) request.search_after = after;
  return request;
}
