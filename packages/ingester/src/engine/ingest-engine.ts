import type { Client, estypes } from '@elastic/elasticsearch';
import {
  applyTemplates,
  compositeBuckets,
  createEngineClient,
  indexName,
  namingOf,
  scanHits,
  scanIndex,
  type ApplyResult,
  type CompositePage,
  type CompositePageRequest,
  type Config,
  type IndexKind,
  type IndexNaming,
  type Logger,
} from '@xle/core';
import { writeOps, type WriteOp, type WriteOptions, type WriteResult } from './bulk-writer.js';

/** A document by index and id, as read for a conditional rewrite: its source and version. */
export interface VersionedDocument<T> {
  source: T | undefined;
  version: number | undefined;
}

/**
 * The one module of the ingester that talks to the engine: every writer (the ledger pipeline,
 * state seeding, the jobs, the name and KYC imports, the validators consumer) writes through
 * `write`, and every reader reads through the methods below. Stages, transforms and job builders
 * never see the client.
 */
export class IngestEngine {
  readonly naming: IndexNaming;

  constructor(
    private readonly client: Client,
    naming: IndexNaming,
    readonly logger: Logger,
  ) {
    this.naming = naming;
  }

  /** An engine of the configured cluster, for a command that closes it when done. */
  static open(config: Config, logger: Logger): IngestEngine {
    return new IngestEngine(createEngineClient(config), namingOf(config), logger);
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  index(kind: IndexKind): string {
    return indexName(this.naming, kind);
  }

  /** Checks the engine and applies the index templates (idempotent). */
  applyTemplates(): Promise<ApplyResult> {
    return applyTemplates(this.client, this.naming);
  }

  /** Writes documents: retries, 409s counted as superseded, other refusals dead-lettered (see bulk-writer.ts). */
  write(ops: readonly WriteOp[], options: WriteOptions = {}): Promise<WriteResult> {
    return writeOps(this.client, this.naming, this.logger, ops, options);
  }

  /** One document, written whole under its id (a status or checkpoint record). */
  async put(kind: IndexKind, id: string, document: object, options: { refresh?: boolean } = {}): Promise<void> {
    await this.client.index({
      index: this.index(kind),
      id,
      document,
      ...(options.refresh === true ? { refresh: true } : {}),
    });
  }

  /** Deletes documents by id; a refusal other than "already gone" fails the call. */
  async deleteIds(kind: IndexKind, ids: readonly string[], options: { refresh?: boolean } = {}): Promise<void> {
    const index = this.index(kind);
    for (let at = 0; at < ids.length; at += 1000) {
      const response = await this.client.bulk({
        operations: ids.slice(at, at + 1000).map((id) => ({ delete: { _index: index, _id: id } })),
        ...(options.refresh === true ? { refresh: 'wait_for' as const } : {}),
      });
      const failed = response.items.find((item) => (item.delete?.status ?? 500) >= 300 && item.delete?.status !== 404);
      if (failed !== undefined) throw new Error(`the ${kind} index refused to delete ${failed.delete?._id}`);
    }
  }

  async refresh(kinds: readonly IndexKind[]): Promise<void> {
    await this.client.indices.refresh({ index: kinds.map((k) => this.index(k)) });
  }

  async get<T>(kind: IndexKind, id: string): Promise<T | undefined> {
    const found = await this.client.get<T>({ index: this.index(kind), id }, { ignore: [404] });
    return found.found ? found._source : undefined;
  }

  /** Documents by id (missing ones are absent), optionally only some fields. */
  async mget<T>(kind: IndexKind, ids: readonly string[], fields?: readonly string[]): Promise<Map<string, T>> {
    const found = new Map<string, T>();
    if (ids.length === 0) return found;
    const result = await this.client.mget<T>({
      index: this.index(kind),
      ids: [...new Set(ids)],
      ...(fields === undefined ? {} : { _source_includes: [...fields] }),
    });
    for (const doc of result.docs)
      if ('found' in doc && doc.found && doc._source !== undefined) found.set(doc._id, doc._source);
    return found;
  }

  /** Documents of any indices with their versions, in the order asked (for conditional rewrites). */
  async mgetVersioned<T>(docs: readonly { index: string; id: string }[]): Promise<VersionedDocument<T>[]> {
    const result = await this.client.mget<T>({ docs: docs.map((d) => ({ _index: d.index, _id: d.id })) });
    return result.docs.map((entry) =>
      'found' in entry && entry.found && entry._source !== undefined
        ? { source: entry._source, version: entry._version }
        : { source: undefined, version: undefined },
    );
  }

  search<T>(kind: IndexKind, request: estypes.SearchRequest): Promise<estypes.SearchResponse<T>> {
    return this.client.search<T>({ ...request, index: this.index(kind) });
  }

  /** Every hit of a search, a page at a time (the request's sort must end in a unique key). */
  scan<T>(kind: IndexKind, request: estypes.SearchRequest): AsyncGenerator<estypes.SearchHit<T>> {
    return scanHits<T>(this.client, { ...request, index: this.index(kind) });
  }

  /** Every document of an index through a point in time. */
  scanAll<T>(
    kind: IndexKind,
    request: Omit<estypes.SearchRequest, 'index' | 'pit' | 'sort'> = {},
  ): AsyncGenerator<estypes.SearchHit<T>> {
    return scanIndex<T>(this.client, this.index(kind), request);
  }

  /** Every bucket of a composite aggregation over one index (see core's compositeBuckets). */
  composite(
    kind: IndexKind,
    request: estypes.SearchRequest,
    aggs: (page: CompositePageRequest) => Record<string, estypes.AggregationsAggregationContainer>,
    locate: (aggregations: Record<string, unknown>) => CompositePage | undefined,
    size?: number,
  ): AsyncGenerator<Record<string, unknown>> {
    return compositeBuckets(this.client, { ...request, index: this.index(kind) }, aggs, locate, size);
  }
}
