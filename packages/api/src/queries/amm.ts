import type { estypes } from '@elastic/elasticsearch';
import { liveObjects } from './accounts.js';

/** A page of the live AMM entries, by AMM account (pure). */
export function buildAmmPoolsQuery(limit: number, offset: number): estypes.SearchRequest {
  return {
    query: liveObjects('AMM'),
    sort: [{ Account: { order: 'asc' } }],
    from: offset,
    size: Math.min(limit, 10_000 - offset),
  };
}

/** The live AMM entry of an AMM account (an account has at most one) (pure). */
export function buildAmmOfAccountQuery(ammAccount: string): estypes.SearchRequest {
  return { query: liveObjects('AMM', { term: { Account: ammAccount } }), size: 1 };
}

/** The live AMM entries of any of these accounts (at most one each): which accounts are pools (pure). */
export function buildAmmOfAccountsQuery(accounts: readonly string[]): estypes.SearchRequest {
  return {
    query: liveObjects('AMM', { terms: { Account: [...accounts] } }),
    _source: ['Account', 'Asset', 'Asset2'],
    size: accounts.length,
    track_total_hits: false,
  };
}

/** The AMM account's trust lines to the issuers of its pool's tokens (pure). */
export function buildAmmLinesQuery(ammAccount: string, issuers: readonly string[]): estypes.SearchRequest {
  return {
    query: liveObjects('RippleState', { term: { _accounts: ammAccount } }, { terms: { _accounts: [...issuers] } }),
    size: 10,
  };
}

/**
 * The trust lines holding the token sides of several pools: for each pool, its account's lines
 * with the issuers of its assets (two per pool at most) (pure).
 * Emits: bool.filter [term LedgerEntryType RippleState, term deleted:false, bool.should [bool.filter
 * [term _accounts pool, terms _accounts issuers] per pool]], size 2 per pool.
 */
export function buildAmmPoolLinesQuery(
  pools: readonly { account: string; issuers: readonly string[] }[],
): estypes.SearchRequest {
  const withTokens = pools.filter((p) => p.issuers.length > 0);
  return {
    query: liveObjects('RippleState', {
      bool: {
        should: withTokens.map((p) => ({
          bool: { filter: [{ term: { _accounts: p.account } }, { terms: { _accounts: [...p.issuers] } }] },
        })),
        minimum_should_match: 1,
      },
    }),
    size: Math.max(1, withTokens.length * 2),
    track_total_hits: false,
  };
}
