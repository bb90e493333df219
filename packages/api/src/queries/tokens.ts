import type { estypes } from '@elastic/elasticsearch';

export const TOKEN_SORTS = [
  'code',
  'trustlines',
  'holders',
  'amms',
  'price',
  'supply',
  'marketcap',
  'score',
  'createdAt',
  'updatedAt',
] as const;
export type TokenSort = (typeof TOKEN_SORTS)[number];

/** The engine field each sort key orders by (`code` case-insensitively). */
const SORT_FIELD: Record<TokenSort, string> = {
  code: 'code.lower',
  trustlines: 'trustlines',
  holders: 'holders',
  amms: 'amms',
  // Present only where a price is known: a token without one sorts last in either direction.
  price: '_price',
  supply: 'supply',
  marketcap: '_marketcap',
  score: 'score',
  createdAt: 'createdAt',
  updatedAt: 'updatedAt',
};

/** A page of tokens without their toml data; ties ordered by id (pure). */
export function buildTokensQuery(
  sort: TokenSort,
  direction: 'asc' | 'desc',
  limit: number,
  offset: number,
): estypes.SearchRequest {
  return {
    query: { match_all: {} },
    sort: [{ [SORT_FIELD[sort]]: { order: direction, missing: '_last' } }, { id: 'asc' }],
    from: offset,
    size: Math.min(limit, 10_000 - offset),
    _source: { excludes: ['tomldata'] },
  };
}

/** One token of an issuer, by its decoded code or its 40-hex currency (pure). */
export function buildTokenQuery(code: string, hex: string | undefined, issuer: string): estypes.SearchRequest {
  return {
    query: {
      bool: {
        filter: [{ term: { issuer } }],
        should: [{ term: { code } }, ...(hex === undefined ? [] : [{ term: { currency: hex } }])],
        minimum_should_match: 1,
      },
    },
    sort: [{ currency: 'asc' }],
    size: 1,
  };
}

/**
 * The live trust lines holding one token (`<currency_hex>.<issuer>`), largest holding first
 * (pure). Emits: bool.filter [term LedgerEntryType RippleState, term deleted:false, term _token,
 * range _holding > 0], sort _holding desc then index.
 */
export function buildTokenHoldersQuery(token: string, size: number): estypes.SearchRequest {
  return {
    query: {
      bool: {
        filter: [
          { term: { LedgerEntryType: 'RippleState' } },
          { term: { deleted: false } },
          { term: { _token: token } },
          { range: { _holding: { gt: 0 } } },
        ],
      },
    },
    sort: [{ _holding: { order: 'desc' } }, { index: { order: 'asc' } }],
    size,
  };
}
