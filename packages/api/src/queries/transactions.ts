import type { estypes } from '@elastic/elasticsearch';
import { BadRequestError, ErrorCode } from '@xle/core';
import type { AccountTxQuery } from '../schemas/queries.js';

/** The filters of /account/{ACCOUNT}/transactions, as its query schema validates them. */
export type AccountTxFilters = Omit<AccountTxQuery, 'limit' | 'marker'> & { limit: number };

/**
 * The marker pins the ledger range of the first page (so ledgers ingested meanwhile never shift
 * the walk) and the sort values of the last transaction returned; (ledger_index,
 * TransactionIndex) is unique per transaction, so nothing is skipped or repeated.
 */
export interface Marker {
  v: 1;
  account: string;
  max: number;
  after: [number, number];
  forward: boolean;
  /**
   * The close time (`_date`) of the last transaction's ledger. Close times never go back as
   * ledgers go on, so the ledgers left to walk closed at or before it (at or after it, forward):
   * a range on a date field, which the engine checks against each shard's own bounds and answers
   * without searching a range index that lies wholly beyond it (a numeric range is not checked).
   */
  closed?: string;
}

export function encodeMarker(marker: Marker): string {
  return Buffer.from(JSON.stringify(marker)).toString('base64url');
}

const notIssued = (): BadRequestError =>
  new BadRequestError(
    'Invalid query parameter "marker": not a marker this API issued.',
    { parameter: 'marker', in: 'query' },
    ErrorCode.InvalidParameter,
  );

/** The marker in a `marker` parameter, or undefined when it is not one this API issued (pure). */
export function parseMarker(text: string): Marker | undefined {
  let marker: Marker;
  try {
    marker = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Marker;
  } catch {
    return undefined;
  }
  const valid =
    marker?.v === 1 &&
    Number.isInteger(marker.max) &&
    Array.isArray(marker.after) &&
    marker.after.length === 2 &&
    marker.after.every((n) => Number.isInteger(n)) &&
    (marker.closed === undefined || (typeof marker.closed === 'string' && !Number.isNaN(Date.parse(marker.closed))));
  return valid ? marker : undefined;
}

/** A marker this API issued for the same account and ordering (pure; a 400 otherwise). */
export function decodeMarker(text: string, account: string, forward: boolean): Marker {
  const marker = parseMarker(text);
  if (marker === undefined) throw notIssued();
  if (marker.account !== account || marker.forward !== forward) {
    throw new BadRequestError(
      'Invalid query parameter "marker": it belongs to another account or ordering.',
      { parameter: 'marker', in: 'query' },
      ErrorCode.InvalidParameter,
    );
  }
  return marker;
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
): estypes.SearchRequest {
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
  const request: estypes.SearchRequest = {
    query: { bool: { filter } },
    sort: [{ ledger_index: { order } }, { 'meta.TransactionIndex': { order } }],
    size: filters.limit + 1,
    track_total_hits: false,
  };
  if (after !== undefined) request.search_after = after;
  return request;
}
