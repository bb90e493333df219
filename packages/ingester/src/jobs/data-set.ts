import type { estypes } from '@elastic/elasticsearch';
import type { Client, IndexKind, IndexNaming } from '@xle/core';
import { indexName } from '@xle/core';
import type { AsOf, DataSetDocument, JobStatus } from '@xle/documents';

export type { AsOf, DataSetDocument, JobStatus };

export interface ReplaceResult {
  written: number;
  removed: number;
}

const PAGE = 1000;

/**
 * Makes the `kind` index hold exactly `documents`: every document is (re)written under its
 * deterministic id, then every other document is deleted. A run killed half-way leaves each
 * document whole (old or new), and the next run ends in the same state as an uninterrupted one,
 * so a job is idempotent and resumable by running it again. Stale documents are found with a
 * point in time and deleted by id, because `_delete_by_query` lives in a module not every
 * deployment has.
 */
export async function replaceDataSet(
  client: Client,
  naming: IndexNaming,
  kind: IndexKind,
  documents: readonly DataSetDocument[],
): Promise<ReplaceResult> {
  const index = indexName(naming, kind);
  for (let at = 0; at < documents.length; at += PAGE) {
    const chunk = documents.slice(at, at + PAGE);
    const response = await client.bulk({
      operations: chunk.flatMap((d) => [{ index: { _index: index, _id: d._id } }, d.doc]),
      filter_path: 'errors,items.*.error,items.*._id',
    });
    if (response.errors) {
      const failed = response.items.find((i) => i.index?.error !== undefined)?.index;
      throw new Error(`the ${kind} index refused document ${failed?._id ?? '?'}: ${failed?.error?.reason ?? '?'}`);
    }
  }
  await client.indices.refresh({ index });
  const keep = new Set(documents.map((d) => d._id));
  const stale: string[] = [];
  const pit = await client.openPointInTime({ index, keep_alive: '1m' });
  try {
    const everything = { pit: { id: pit.id, keep_alive: '1m' }, sort: ['_shard_doc'], _source: false };
    for await (const hit of scanHits(client, everything))
      if (hit._id !== undefined && !keep.has(hit._id)) stale.push(hit._id);
  } finally {
    await client.closePointInTime({ id: pit.id }).catch(() => undefined);
  }
  for (let at = 0; at < stale.length; at += PAGE) {
    const response = await client.bulk({
      operations: stale.slice(at, at + PAGE).map((id) => ({ delete: { _index: index, _id: id } })),
    });
    if (response.errors) throw new Error(`the ${kind} index refused to delete stale documents`);
  }
  await client.indices.refresh({ index });
  return { written: documents.length, removed: stale.length };
}

/**
 * Every hit of a search, read a page of 1,000 at a time with `search_after` on the request's
 * sort (which must end in a unique key, or be `_shard_doc` under a point in time).
 */
export async function* scanHits<T = unknown>(
  client: Client,
  request: estypes.SearchRequest,
): AsyncGenerator<estypes.SearchHit<T>> {
  let after: estypes.SortResults | undefined;
  for (;;) {
    const page = await client.search<T>({
      ...request,
      size: PAGE,
      ...(after === undefined ? {} : { search_after: after }),
    });
    const hits = page.hits.hits;
    yield* hits;
    if (hits.length < PAGE) return;
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
  size = PAGE,
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

/** The newest indexed ledger, or undefined when nothing is indexed yet. */
export async function readAsOf(client: Client, naming: IndexNaming): Promise<AsOf | undefined> {
  const found = await client.search<{ ledger_index: number; close_time_human?: string; total_coins: string }>({
    index: indexName(naming, 'ledgers'),
    size: 1,
    sort: [{ ledger_index: 'desc' }],
    _source: ['ledger_index', 'close_time_human', 'total_coins'],
  });
  const ledger = found.hits.hits[0]?._source;
  if (ledger === undefined) return undefined;
  return {
    ledger_index: ledger.ledger_index,
    close_time: ledger.close_time_human ?? '',
    total_coins: String(ledger.total_coins),
  };
}

const statusId = (job: string): string => `job.${job}`;

/**
 * Records a job's completed run in the ingest-state index. It is written only after the whole
 * data set is in place; the REST routes answer DATA_NOT_READY until it exists.
 */
export async function recordJobRun(
  client: Client,
  naming: IndexNaming,
  status: Omit<JobStatus, 'kind' | 'status' | 'updated_at'>,
): Promise<JobStatus> {
  const doc: JobStatus = { kind: 'job', status: 'complete', ...status, updated_at: new Date().toISOString() };
  await client.index({
    index: indexName(naming, 'ingest-state'),
    id: statusId(status.job),
    document: doc,
    refresh: true,
  });
  return doc;
}

export async function readJobRun(client: Client, naming: IndexNaming, job: string): Promise<JobStatus | undefined> {
  const found = await client.get<JobStatus>(
    { index: indexName(naming, 'ingest-state'), id: statusId(job) },
    { ignore: [404] },
  );
  return found.found ? found._source : undefined;
}
