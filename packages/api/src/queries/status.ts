import type { estypes } from '@elastic/elasticsearch';

/** The first and last indexed ledger and how many are indexed (pure). */
export function buildLedgerStatsQuery(): estypes.SearchRequest {
  return {
    size: 0,
    track_total_hits: false,
    aggs: {
      first: { min: { field: 'ledger_index' } },
      last: { max: { field: 'ledger_index' } },
      count: { value_count: { field: 'ledger_index' } },
    },
  };
}

/**
 * How many ledgers are indexed in each `interval`-wide slice of [from, to] (pure): a histogram on
 * ledger_index whose buckets are keyed at multiples of `interval`, empty ones included; the range
 * filter keeps the documents in [from, to] and the caller clips the first and last buckets to it.
 * (No `hard_bounds`: it drops the documents of a bucket whose key lies before `from`, and
 * `extended_bounds` would then report that bucket empty.)
 * Emits: size 0, range filter [from, to], aggs.slices.histogram {interval, min_doc_count 0,
 * extended_bounds [from, to]}.
 */
export function buildLedgerSlicesQuery(from: number, to: number, interval: number): estypes.SearchRequest {
  return {
    size: 0,
    track_total_hits: false,
    query: { range: { ledger_index: { gte: from, lte: to } } },
    aggs: {
      slices: {
        histogram: {
          field: 'ledger_index',
          interval,
          min_doc_count: 0,
          extended_bounds: { min: from, max: to },
        },
      },
    },
  };
}

/** The live follower's and backfill workers' heartbeats, newest first (pure). */
export function buildWorkersQuery(): estypes.SearchRequest {
  return {
    size: 100,
    query: { term: { kind: 'worker' } },
    sort: [{ heartbeat_at: { order: 'desc' } }],
  };
}
