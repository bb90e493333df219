import type { Client, estypes } from '@elastic/elasticsearch';

/** Hits and buckets are read this many at a time. */
export const READ_PAGE = 1000;

/**
 * Every hit of a search, read a page at a time with `search_after` on the request's sort (which
 * must end in a unique key, or be `_shard_doc` under a point in time). The one paged reader of
 * every package: jobs, imports, state seeding, usage pruning and the tests' index readers.
 */
export async function* scanHits<T = unknown>(
  client: Client,
  request: estypes.SearchRequest,
  pageSize = READ_PAGE,
): AsyncGenerator<estypes.SearchHit<T>> {
  let after: estypes.SortResults | undefined;
  for (;;) {
    const page = await client.search<T>({
      ...request,
      size: pageSize,
      ...(after === undefined ? {} : { search_after: after }),
    });
    const hits = page.hits.hits;
    yield* hits;
    if (hits.length < pageSize) return;
    after = hits[hits.length - 1]?.sort;
  }
}

/** What a composite aggregation's page request carries: its size, and the key to resume after. */
export interface CompositePageRequest {
  size: number;
  after?: Record<string, estypes.FieldValue>;
}

/** One page of a composite aggregation, as the engine answers it. */
export interface CompositePage {
  after_key?: Record<string, estypes.FieldValue>;
  buckets: Array<Record<string, unknown>>;
}

/**
 * Every bucket of a composite aggregation, a page at a time. `aggs(page)` builds the request's
 * aggregations, spreading `page` into the composite; `locate` finds the composite aggregate in the
 * answer (it may sit under `nested` or `filter` aggregations).
 */
export async function* compositeBuckets(
  client: Client,
  request: estypes.SearchRequest,
  aggs: (page: CompositePageRequest) => Record<string, estypes.AggregationsAggregationContainer>,
  locate: (aggregations: Record<string, unknown>) => CompositePage | undefined,
  size = READ_PAGE,
): AsyncGenerator<Record<string, unknown>> {
  let after: CompositePage['after_key'];
  for (;;) {
    const response = await client.search({
      ...request,
      size: 0,
      aggs: aggs({ size, ...(after === undefined ? {} : { after }) }),
    });
    const page = locate((response.aggregations ?? {}) as Record<string, unknown>);
    const buckets = page?.buckets ?? [];
    yield* buckets;
    if (buckets.length < size || page?.after_key === undefined) return;
    after = page.after_key;
  }
}

/**
 * Every document of an index through a point in time (`_shard_doc` order), so a walk sees one
 * consistent view however the index changes meanwhile; the point in time is closed at the end.
 */
export async function* scanIndex<T = unknown>(
  client: Client,
  index: string,
  request: Omit<estypes.SearchRequest, 'index' | 'pit' | 'sort'> = {},
): AsyncGenerator<estypes.SearchHit<T>> {
  const pit = await client.openPointInTime({ index, keep_alive: '1m' });
  try {
    yield* scanHits<T>(client, { ...request, pit: { id: pit.id, keep_alive: '1m' }, sort: ['_shard_doc'] });
  } finally {
    await client.closePointInTime({ id: pit.id }).catch(() => undefined);
  }
}
