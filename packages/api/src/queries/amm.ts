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
