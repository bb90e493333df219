import type { estypes } from '@elastic/elasticsearch';
import {
  indexName,
  type BucketPage,
  type BucketWalkOptions,
  type CompositePage,
  type CompositePageRequest,
  type HitPage,
  type HitWalkOptions,
  type IndexKind,
  type IndexNaming,
  type ReadEngine,
} from '@xle/core';
import { schemaFromMapping, type FieldInfo, type TableSchema } from './sql/schema.js';

/** How long a table's mapping is reused before it is read again. */
const SCHEMA_TTL_MS = 60_000;

/**
 * The search package's view of the engine: public tables to indices, mappings to SQL schemas, and
 * every read through the process's one read engine (core's ReadEngine) under the search budget.
 */
export class SearchEngine {
  private readonly schemas = new Map<IndexKind, { schema: TableSchema; at: number }>();

  constructor(
    private readonly read: ReadEngine,
    private readonly naming: IndexNaming,
    /** Server-side limit of one engine search. */
    readonly timeoutMs: number,
  ) {}

  index(kind: IndexKind): string {
    return indexName(this.naming, kind);
  }

  /** The public name of an index (`transactions`), never the deployment's prefixed one. */
  publicName(index: string | undefined): string | undefined {
    if (index === undefined) return undefined;
    const prefix = `${this.naming.prefix}-${this.naming.network}-`;
    if (!index.startsWith(prefix)) return index;
    // A range index (`transactions-0094000000-g1`) is answered as its kind.
    return index.slice(prefix.length).replace(/-\d{10}-g\d+$/, '');
  }

  /** Leaf fields of a table, from its live mapping. */
  async schema(kind: IndexKind): Promise<TableSchema> {
    const cached = this.schemas.get(kind);
    if (cached !== undefined && performance.now() - cached.at < SCHEMA_TTL_MS) return cached.schema;
    const index = this.index(kind);
    const answer = await this.read.client.indices.getMapping({ index });
    // A ranged kind answers one mapping per range index: a field is a column if any range maps it
    // (the same template made them all; a range not yet rebuilt may lack a newer field).
    const schema = new Map<string, FieldInfo>();
    for (const { mappings } of Object.values(answer))
      for (const [path, info] of schemaFromMapping(
        (mappings.properties ?? {}) as Parameters<typeof schemaFromMapping>[0],
      ))
        if (!schema.has(path)) schema.set(path, info);
    this.schemas.set(kind, { schema, at: performance.now() });
    return schema;
  }

  /**
   * One search: on an index, or on a point in time when the body carries `pit`. A shard that fails
   * fails the search (503), unless the body asks for partial results (see ReadEngine.search).
   */
  async search<T = Record<string, unknown>>(
    kind: IndexKind | undefined,
    body: estypes.SearchRequest,
    signal?: AbortSignal,
  ): Promise<estypes.SearchResponse<T>> {
    const request = kind === undefined ? body : { ...body, index: this.index(kind) };
    return this.read.search<T>(request, { timeoutMs: this.timeoutMs, ...(signal === undefined ? {} : { signal }) });
  }

  /** The hits of a search, page by page, on a table's point in time (see ReadEngine.hits). */
  hits<T = Record<string, unknown>>(
    request: estypes.SearchRequest,
    options: HitWalkOptions,
  ): AsyncGenerator<HitPage<estypes.SearchHit<T>>> {
    return this.read.hits<T>(request, { timeoutMs: this.timeoutMs, ...options });
  }

  /** The buckets of a composite aggregation over a table, page by page (see ReadEngine.buckets). */
  buckets(
    kind: IndexKind,
    request: estypes.SearchRequest,
    aggs: (page: CompositePageRequest) => Record<string, estypes.AggregationsAggregationContainer>,
    locate: (aggregations: Record<string, unknown>) => CompositePage | undefined,
    options: BucketWalkOptions,
  ): AsyncGenerator<BucketPage> {
    return this.read.buckets({ ...request, index: this.index(kind) }, aggs, locate, {
      timeoutMs: this.timeoutMs,
      ...options,
    });
  }

  async openPit(kind: IndexKind, keepAlive: string, signal?: AbortSignal): Promise<string> {
    return this.read.openPit(this.index(kind), keepAlive, signal);
  }

  /** Closing is best effort: an expired point in time is already gone. */
  async closePit(id: string): Promise<void> {
    await this.read.closePit(id);
  }
}
