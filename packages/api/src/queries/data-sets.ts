import type { estypes } from '@elastic/elasticsearch';

/** Every amendment, by name (unnamed ones last), then id (pure). */
export function buildAmendmentsQuery(): estypes.SearchRequest {
  return {
    query: { match_all: {} },
    sort: [{ name: { order: 'asc', missing: '_last' } }, { amendment_id: 'asc' }],
    size: 10_000,
  };
}

/** The facts of one namespace (pure). */
export function buildFactsQuery(namespace: string): estypes.SearchRequest {
  return { query: { term: { namespace } }, sort: [{ fact_id: 'asc' }], size: 1000 };
}

/** The daily records of one metric between two UTC days (inclusive; either may be open), oldest first (pure). */
export function buildMetricsQuery(metricId: string, from?: string, to?: string): estypes.SearchRequest {
  const range: Record<string, string> = {};
  if (from !== undefined) range.gte = `${from}T00:00:00.000Z`;
  if (to !== undefined) range.lte = `${to}T00:00:00.000Z`;
  return {
    query: {
      bool: {
        filter: [
          { term: { metric_id: metricId } },
          ...(Object.keys(range).length === 0 ? [] : [{ range: { date: range } }]),
        ],
      },
    },
    sort: [{ date: 'asc' }],
    size: 10_000,
  };
}

/** A page of the rich list, largest balance first (pure). */
export function buildBalancesQuery(limit: number, offset: number): estypes.SearchRequest {
  return {
    query: { match_all: {} },
    sort: [{ rank: 'asc' }],
    from: offset,
    size: Math.min(limit, 10_000 - offset),
  };
}

/** The newest snapshot of one kind of rippled answer (pure). */
export function buildLatestSnapshotQuery(kind: 'fee' | 'server_info'): estypes.SearchRequest {
  return { query: { term: { kind } }, sort: [{ taken_at: 'desc' }, { ledger_index: 'desc' }], size: 1 };
}

/** The distinct values of a version field (pure). */
export function buildVersionsQuery(field: string): estypes.SearchRequest {
  return { size: 0, aggs: { versions: { terms: { field, size: 1000 } } } };
}

/**
 * The nodes a crawl fetched since it started (pure); a node written before `crawled_at` existed
 * counts by its `last_seen`, which was then the fetch time.
 */
export function buildNodesQuery(since: string): estypes.SearchRequest {
  return {
    query: {
      bool: {
        should: [
          { range: { crawled_at: { gte: since } } },
          {
            bool: {
              must_not: { exists: { field: 'crawled_at' } },
              filter: { range: { last_seen: { gte: since } } },
            },
          },
        ],
        minimum_should_match: 1,
      },
    },
    sort: [{ public_key: 'asc' }],
    size: 10_000,
  };
}

/** Every label of the names index, by account (pure). */
export function buildWellKnownNamesQuery(): estypes.SearchRequest {
  return {
    query: { match_all: {} },
    sort: [{ account: { order: 'asc' } }],
    size: 10000,
    _source: ['name', 'username', 'desc', 'account', 'domain', 'twitter', 'verified'],
  };
}
