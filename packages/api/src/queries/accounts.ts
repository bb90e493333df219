import type { estypes } from '@elastic/elasticsearch';

/** Most ledger objects one account answer lists. */
export const MAX_OBJECTS = 10000;

/** Items an account list answers per page: by default, and at most (`limit`). */
export const LIST_LIMIT = { default: 200, max: 1000 } as const;

/**
 * One page of a list in a unique sort order (pure): `limit` + 1 hits (the extra one says whether
 * a next page exists), after the sort values a marker carried; no total is counted.
 */
export function pageOf(
  request: estypes.SearchRequest,
  limit: number,
  after?: estypes.FieldValue[],
): estypes.SearchRequest {
  return {
    ...request,
    size: limit + 1,
    track_total_hits: false,
    ...(after === undefined ? {} : { search_after: after }),
  };
}

/** Live (not deleted) ledger objects of one type, narrowed by `extra` filters (pure). */
export function liveObjects(type: string, ...extra: estypes.QueryDslQueryContainer[]): estypes.QueryDslQueryContainer {
  return { bool: { filter: [{ term: { LedgerEntryType: type } }, { term: { deleted: false } }, ...extra] } };
}

/**
 * Current (not deleted) ledger objects of one type that involve the account (pure).
 * Emits: bool.filter [term LedgerEntryType, term deleted:false, term _accounts, ...extra], by index.
 */
export function buildAccountObjectsQuery(
  account: string,
  type: string,
  extra: estypes.QueryDslQueryContainer[] = [],
): estypes.SearchRequest {
  return {
    query: liveObjects(type, { term: { _accounts: account } }, ...extra),
    sort: [{ index: { order: 'asc' } }],
    size: MAX_OBJECTS,
  };
}

/** Ledger objects of one type the account itself owns (its `Account` field), e.g. escrows, offers (pure). */
export function buildOwnedObjectsQuery(account: string, type: string): estypes.SearchRequest {
  return buildAccountObjectsQuery(account, type, [{ term: { Account: account } }]);
}

/**
 * The accounts an account activated, oldest first (an account is activated once: the address
 * breaks ties within a ledger), with their activation fields only (pure).
 */
export function buildActivationsQuery(account: string): estypes.SearchRequest {
  return {
    query: { term: { parent: account } },
    sort: [{ ledger_index: { order: 'asc' } }, { Account: { order: 'asc' } }],
    size: MAX_OBJECTS,
    _source: ['Account', 'parent', 'initial_balance', 'inception', 'ledger_index', 'tx_hash'],
  };
}

/**
 * Which of these addresses documents of an index name in `_accounts` (a terms aggregation over
 * exactly them, no hits): for the transactions index, or, with `liveTrustLines`, the live trust
 * lines of the objects index (pure).
 */
/**
 * Which of these addresses have an account history in the activity index (a transaction filed
 * under them), as a terms aggregation over its keys (pure).
 */
export function buildAccountsWithHistoryQuery(addresses: readonly string[]): estypes.SearchRequest {
  return {
    size: 0,
    track_total_hits: false,
    query: { terms: { key: [...addresses] } },
    aggs: { named: { terms: { field: 'key', include: [...addresses], size: addresses.length } } },
  };
}

export function buildAccountsNamedQuery(addresses: readonly string[], liveTrustLines = false): estypes.SearchRequest {
  const named = { terms: { _accounts: [...addresses] } };
  return {
    size: 0,
    track_total_hits: false,
    query: liveTrustLines ? liveObjects('RippleState', named) : named,
    aggs: { named: { terms: { field: '_accounts', include: [...addresses], size: addresses.length } } },
  };
}
