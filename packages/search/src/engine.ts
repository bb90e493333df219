import type { estypes } from '@elastic/elasticsearch';
import {
  indexName,
  isRangedKind,
  ledgerSpanOf,
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
import { mergeSearchable, searchableFields, type SearchableFields } from './dsl-fields.js';
import { schemaFromMapping, type FieldInfo, type TableSchema } from './sql/schema.js';

/**
 * Whether a search reads documents its query does not match: a `global` aggregation (every
 * document), a `significant_terms` / `significant_text` one (the background set), a suggester.
 */
function readsBeyondQuery(request: estypes.SearchRequest): boolean {
  if (request.suggest !== undefined) return true;
  const beyond = (aggs: Record<string, unknown> | undefined): boolean =>
    Object.values(aggs ?? {}).some((agg) => {
      const container = agg as Record<string, unknown>;
      return (
        'global' in container ||
        'significant_terms' in container ||
        'significant_text' in container ||
        beyond((container.aggs ?? container.aggregations) as Record<string, unknown> | undefined)
      );
    });
  return beyond((request.aggs ?? request.aggregations) as Record<string, unknown> | undefined);
}

/** How long a table's mapping is reused before it is read again. */
const SCHEMA_TTL_MS = 60_000;

/**
 * The search package's view of the engine: public tables to indices, mappings to SQL schemas, and
 * every read through the process's one read engine (core's ReadEngine) under the search budget.
 */
export class SearchEngine {
  private readonly schemas = new Map<IndexKind, { schema: TableSchema; fields: SearchableFields; at: number }>();

  constructor(
    private readonly read: ReadEngine,
    private readonly naming: IndexNaming,
    /** Server-side limit of one engine search. */
    readonly timeoutMs: number,
  ) {}

  index(kind: IndexKind): string {
    return indexName(this.naming, kind);
  }

  /**
   * What a read of a table names: for a kind that grows with history and a request confined to
   * some ledgers (`ledger_index` BETWEEN, =, <, > that every row must match), the range aliases
   * that overlap them (core's RangePlanner, the REST routes' too); otherwise the table's alias. A
   * range outside the ledgers is never asked, however many ranges the history has. The alias is
   * kept when the span reaches the newest listed range (a range created after the listing is newer
   * than all of them), when no range or more than MAX_NAMED_RANGES overlap (the engine's shards
   * skip the others on the filter), and when the request reads more than its query's documents: a
   * `global` or `significant_*` aggregation, a suggester.
   */
  async target(kind: IndexKind, request: estypes.SearchRequest): Promise<string> {
    if (!isRangedKind(kind) || readsBeyondQuery(request)) return this.index(kind);
    const named = await this.read.ranges(this.naming).target(kind, [ledgerSpanOf(request.query)], { newest: true });
    return named ?? this.index(kind);
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
    return (await this.mapping(kind)).schema;
  }

  /** The names a search body may query in a table, from its live mapping (see dsl-fields.ts). */
  async fields(kind: IndexKind): Promise<SearchableFields> {
    return (await this.mapping(kind)).fields;
  }

  private async mapping(kind: IndexKind): Promise<{ schema: TableSchema; fields: SearchableFields }> {
    const cached = this.schemas.get(kind);
    if (cached !== undefined && performance.now() - cached.at < SCHEMA_TTL_MS) return cached;
    const index = this.index(kind);
    const answer = await this.read.client.indices.getMapping({ index });
    // A ranged kind answers one mapping per range index: a field is a column if any range maps it
    // (the same template made them all; a range not yet rebuilt may lack a newer field).
    const schema = new Map<string, FieldInfo>();
    const searchable: SearchableFields[] = [];
    for (const { mappings } of Object.values(answer)) {
      const properties = (mappings.properties ?? {}) as Parameters<typeof schemaFromMapping>[0];
      const columns = (mappings._meta as { columns?: Record<string, string> } | undefined)?.columns ?? {};
      for (const [path, info] of schemaFromMapping(properties, columns)) if (!schema.has(path)) schema.set(path, info);
      searchable.push(searchableFields(properties as Parameters<typeof searchableFields>[0]));
    }
    const entry = { schema, fields: mergeSearchable(searchable), at: performance.now() };
    this.schemas.set(kind, entry);
    return entry;
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
    const request = kind === undefined ? body : { ...body, index: await this.target(kind, body) };
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
    // The target is listed when the walk starts, as its first page is read.
    const walk = async function* (this: SearchEngine): AsyncGenerator<BucketPage> {
      const index = await this.target(kind, request);
      yield* this.read.buckets({ ...request, index }, aggs, locate, { timeoutMs: this.timeoutMs, ...options });
    };
    return walk.call(this);
  }

  async openPit(kind: IndexKind, keepAlive: string, signal?: AbortSignal): Promise<string> {
    return this.read.openPit(this.index(kind), keepAlive, signal);
  }

  /** Closing is best effort: an expired point in time is already gone. */
  async closePit(id: string): Promise<void> {
    await this.read.closePit(id);
  }
}
