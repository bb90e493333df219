import type { estypes } from '@elastic/elasticsearch';

/**
 * What people type in a search box, as engine queries (pure): a label's name or domain, an
 * account's own Domain, a token's code or its XLS-26 name. Exact matches rank first; none of them
 * reads more than `size` documents.
 */

/** Labels named or domained as typed: the exact name in any case first, then names that start with it or hold its words. */
export function buildLabelSearchQuery(text: string, size: number): estypes.SearchRequest {
  const lower = text.toLowerCase();
  return {
    query: {
      bool: {
        should: [
          { term: { 'name.lower': { value: lower, boost: 10 } } },
          { term: { domain: { value: lower, boost: 8 } } },
          { term: { username: { value: text, boost: 5 } } },
          { match_phrase_prefix: { name: { query: text, boost: 2 } } },
          { match: { name: { query: text, operator: 'and' } } },
        ],
        minimum_should_match: 1,
      },
    },
    sort: ['_score', { account: 'asc' }],
    size,
    track_total_hits: false,
  };
}

/** Labels whose name is close to what was typed (one or two letters off): the suggestions of a search that found nothing. */
export function buildLabelSuggestQuery(text: string, size: number): estypes.SearchRequest {
  return {
    query: { match: { name: { query: text, fuzziness: 'AUTO', prefix_length: 1 } } },
    sort: ['_score', { account: 'asc' }],
    size,
    track_total_hits: false,
  };
}

/** Accounts whose own Domain (as set by AccountSet, decoded) is the domain typed. */
export function buildDomainAccountsQuery(domain: string, size: number): estypes.SearchRequest {
  const lower = domain.toLowerCase();
  return {
    query: {
      bool: {
        should: [{ term: { '_Domain.raw': lower } }, { term: { '_Domain.raw': domain } }],
        minimum_should_match: 1,
        must_not: [{ term: { deleted: true } }],
      },
    },
    _source: ['Account', '_Domain'],
    sort: [{ Account: 'asc' }],
    size,
    track_total_hits: false,
  };
}

/** Tokens whose code is the text in any case, or whose XLS-26 name holds its words; most held first. */
export function buildTokenSearchQuery(text: string, size: number): estypes.SearchRequest {
  return {
    query: {
      bool: {
        should: [
          { term: { 'code.lower': { value: text.toLowerCase(), boost: 10 } } },
          { match: { 'meta.token.name': { query: text, operator: 'and' } } },
        ],
        minimum_should_match: 1,
      },
    },
    _source: { excludes: ['tomldata', '_toml', '_history'] },
    sort: ['_score', { holders: { order: 'desc', missing: '_last' } }, { id: 'asc' }],
    size,
    track_total_hits: false,
  };
}
