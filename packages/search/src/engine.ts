import type { estypes } from '@elastic/elasticsearch';
import { indexName, type Client, type IndexKind, type IndexNaming } from '@xle/core';
import { schemaFromMapping, type FieldInfo, type TableSchema } from './sql/schema.js';

/** How long a table's mapping is reused before it is read again. */
const SCHEMA_TTL_MS = 60_000;

/** The one module of the search package that talks to the engine. */
export class SearchEngine {
  private readonly schemas = new Map<IndexKind, { schema: TableSchema; at: number }>();

  constructor(
    private readonly client: Client,
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
    const answer = await this.client.indices.getMapping({ index });
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

  /** One search: on an index, or on a point in time when the body carries `pit`. */
  async search<T = Record<string, unknown>>(
    kind: IndexKind | undefined,
    body: estypes.SearchRequest,
    signal?: AbortSignal,
  ): Promise<estypes.SearchResponse<T>> {
    // A shard that fails fails the search (503), unless the body asks for partial results.
    const request: estypes.SearchRequest = {
      allow_partial_search_results: false,
      ...body,
      timeout: `${this.timeoutMs}ms`,
    };
    if (kind !== undefined) request.index = this.index(kind);
    return this.client.search<T>(request, {
      requestTimeout: this.timeoutMs + 5000,
      ...(signal === undefined ? {} : { signal }),
    });
  }

  async openPit(kind: IndexKind, keepAlive: string, signal?: AbortSignal): Promise<string> {
    const answer = await this.client.openPointInTime(
      { index: this.index(kind), keep_alive: keepAlive },
      signal === undefined ? {} : { signal },
    );
    return answer.id;
  }

  /** Closing is best effort: an expired point in time is already gone. */
  async closePit(id: string): Promise<void> {
    await this.client.closePointInTime({ id }).catch(() => undefined);
  }
}
