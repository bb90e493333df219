import { errors, type Client, type estypes } from '@elastic/elasticsearch';
import {
  CommandError,
  applyTemplates,
  createEngineClient,
  createRange,
  DEFAULT_LAYOUT,
  DEFAULT_RANGE_LEDGERS,
  indexName,
  isRangedKind,
  layoutOf,
  MAX_NAMED_RANGES,
  namingOf,
  rangeAlias,
  rangeIndexName,
  rangeIndexOf,
  rangeIndices,
  rangeStart,
  RangePlanner,
  ReadEngine,
  readLayout,
  swapRange,
  type ApplyResult,
  type CompositePage,
  type CompositePageRequest,
  type Config,
  type IndexKind,
  type IndexLayout,
  type IndexNaming,
  type Logger,
  type RangedKind,
  type RecordedLayout,
  type SingleIndexKind,
} from '@xle/core';
import type { Json, LedgerRange } from '@xle/documents';
import { retryTransient, writeOps, type WriteOp, type WriteOptions, type WriteResult } from './bulk-writer.js';

export type { LedgerRange };

/**
 * What a read names: a kind (its index, or for a ranged kind the alias over all its ranges), or
 * the indices `IngestEngine.rangesHolding` chose for some ledgers.
 */
export type ReadTarget = IndexKind | { indices: string };

/** Where a document stood when read: a conditional write succeeds only if nobody wrote it since. */
export interface WriteTag {
  seqNo: number;
  primaryTerm: number;
}

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
  /** Range aliases known to exist (a range, once created, is never removed while this runs). */
  private readonly ranges = new Set<string>();
  /** The process's read engine: its walkers page every read of the jobs and importers. */
  private readonly read: ReadEngine;
  /** Which ranges a read of the jobs names (core's RangePlanner, the API's too). */
  private readonly planner: RangePlanner;

  constructor(
    private readonly client: Client,
    naming: IndexNaming,
    readonly logger: Logger,
    private readonly layout: IndexLayout = DEFAULT_LAYOUT,
  ) {
    this.naming = naming;
    this.read = new ReadEngine(client);
    // Listed on every read (a job reads ranges a backfill may have just created), riding out weather.
    this.planner = new RangePlanner(client, naming, {
      ttlMs: 0,
      guard: (what, call) => this.weather(what, call),
    });
  }

  /** An engine of the configured cluster, for a command that closes it when done. */
  static open(config: Config, logger: Logger): IngestEngine {
    return new IngestEngine(createEngineClient(config), namingOf(config), logger, layoutOf(config));
  }

  /** A call to the engine that rides out a lost node or an election (see `retryTransient`). */
  private weather<T>(what: string, call: () => Promise<T>): Promise<T> {
    return retryTransient(call, this.logger, what);
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  /** The name to read a kind by: its index, or for a ranged kind the alias over all its ranges. */
  index(kind: IndexKind): string {
    return indexName(this.naming, kind);
  }

  /**
   * The indices that hold a ranged kind's documents of `ledgers`: the range aliases (listed from
   * the cluster, so a range nothing was written to is not named) that overlap them. The kind's
   * alias when none does or when more than MAX_NAMED_RANGES do (a request names at most that many);
   * a read through it must then filter on the ledgers itself, as every read given a target does.
   */
  async rangesHolding(kind: RangedKind, ledgers: readonly LedgerRange[]): Promise<ReadTarget> {
    const names = await this.planner.target(
      kind,
      ledgers.map((r) => ({ gte: r.from, lte: r.to })),
    );
    return names === undefined ? kind : { indices: names };
  }

  private nameOf(target: ReadTarget): string {
    return typeof target === 'string' ? this.index(target) : target.indices;
  }

  /** Where a document of a ranged kind at `ledgerIndex` is written and read by id: its range alias. */
  rangeAlias(kind: RangedKind, ledgerIndex: number): string {
    return rangeAlias(this.naming, kind, ledgerIndex);
  }

  /**
   * Checks the engine and applies the index templates (idempotent). The layout recorded in the
   * cluster must be this engine's (a LayoutError otherwise): the ingester records one on a fresh
   * cluster, but never changes one; `templates apply` does.
   */
  applyTemplates(): Promise<ApplyResult> {
    // Idempotent, so it can ride out a node lost or a master being elected like any other call.
    return this.weather('templates', () =>
      applyTemplates(this.client, this.naming, { layout: this.layout, role: 'ingest' }),
    );
  }

  /** The index layout recorded in the cluster for this engine's prefix and network. */
  recordedLayout(): Promise<RecordedLayout> {
    return this.weather('layout', () => readLayout(this.client, this.naming));
  }

  /**
   * Writes documents: retries, 409s counted as superseded, other refusals dead-lettered (see
   * bulk-writer.ts). Writes to a range alias create its range first when it is new.
   */
  async write(ops: readonly WriteOp[], options: WriteOptions = {}): Promise<WriteResult> {
    await this.prepareRanges(ops);
    return writeOps(this.client, this.naming, this.logger, ops, options);
  }

  /**
   * Creates every range of `kinds` that holds a ledger from `from` to `to` (if missing) and
   * answers their range aliases: a backfill prepares its ranges before writing, to set their
   * refresh interval.
   */
  async ensureRangesBetween(kinds: readonly RangedKind[], from: number, to: number): Promise<string[]> {
    const size = this.naming.rangeLedgers ?? DEFAULT_RANGE_LEDGERS;
    const aliases: string[] = [];
    for (const kind of kinds)
      for (let start = rangeStart(this.naming, from); start <= to; start += size) {
        const alias = rangeAlias(this.naming, kind, start);
        if (!this.ranges.has(alias)) {
          await this.weather('create range', () => createRange(this.client, this.naming, kind, start));
          this.ranges.add(alias);
        }
        aliases.push(alias);
      }
    return aliases;
  }

  /**
   * Every range index of a kind: its range alias, concrete index, the documents users see (top
   * level: a transaction, not its nested rows, which the index statistics also count) and bytes
   * on disk (primaries).
   */
  async listRanges(kind: RangedKind): Promise<{ alias: string; index: string; documents: number; bytes: number }[]> {
    const indices = await rangeIndices(this.client, this.naming, kind);
    if (indices.length === 0) return [];
    const [stats, counts] = await Promise.all([
      this.client.indices.stats({ index: indices, metric: ['store'] }),
      Promise.all(indices.map((index) => this.client.count({ index }).then((c) => c.count))),
    ]);
    return indices.map((index, i) => ({
      alias: index.replace(/-g\d+$/, ''),
      index,
      documents: counts[i] ?? 0,
      bytes: stats.indices?.[index]?.primaries?.store?.size_in_bytes ?? 0,
    }));
  }

  /**
   * Rebuilds the range of `kind` that holds `ledgerIndex` into its next generation without
   * downtime: a new index from the current template, every document copied into it, both aliases
   * swapped to it in one atomic step, then a second copy of anything written to the old index
   * meanwhile (write-once: nothing newer is overwritten; ledgers and transactions never change),
   * and the old index deleted. Readers see the old range or the new one throughout.
   */
  async rebuildRange(
    kind: RangedKind,
    ledgerIndex: number,
    /** Documents read so far of the old index, in the copy and then in the catch-up's second scan. */
    onProgress?: (phase: 'copy' | 'catch-up', scanned: number) => void | Promise<void>,
  ): Promise<{ from: string; to: string; documents: number; caughtUp: number }> {
    const current = await rangeIndexOf(this.client, this.naming, kind, ledgerIndex);
    if (current === undefined)
      throw new CommandError(
        'NO_SUCH_RANGE',
        `no ${kind} range holds ledger ${ledgerIndex}: nothing to rebuild. \`pnpm ingest ranges --kind ${kind}\` lists the ranges there are.`,
      );
    const generation = Number(/-g(\d+)$/.exec(current)?.[1] ?? 1);
    const next = rangeIndexName(rangeAlias(this.naming, kind, ledgerIndex), generation + 1);
    await this.weather('create index', () =>
      this.client.indices.create({ index: next }, { ignore: [400], requestTimeout: 120_000 }),
    );
    const copy = async (create: boolean): Promise<number> => {
      let copied = 0;
      let scanned = 0;
      let page: WriteOp[] = [];
      const flush = async (): Promise<void> => {
        const result = await this.write(page);
        if (result.deadLetters > 0)
          throw new Error(`the rebuilt index ${next} refused ${result.deadLetters} documents`);
        copied += page.length - (create ? result.superseded.length : 0);
        scanned += page.length;
        await onProgress?.(create ? 'catch-up' : 'copy', scanned);
        page = [];
      };
      for await (const hit of this.read.eachDocument<Json>(current)) {
        if (hit._id === undefined || hit._source === undefined) continue;
        page.push({
          index: next,
          id: hit._id,
          doc: hit._source,
          ledgerIndex: Number(hit._source.ledger_index ?? 0),
          ...(create ? { create: true as const } : {}),
        });
        if (page.length >= 2000) await flush();
      }
      if (page.length > 0) await flush();
      return copied;
    };
    const documents = await copy(false);
    // Searchable before it is swapped in, so that no reader sees a range with fewer documents.
    await this.client.indices.refresh({ index: next });
    await swapRange(this.client, this.naming, kind, ledgerIndex, next);
    await this.client.indices.refresh({ index: current });
    const caughtUp = await copy(true);
    await this.client.indices.refresh({ index: next });
    await this.client.indices.delete({ index: current });
    return { from: current, to: next, documents, caughtUp };
  }

  /** Creates the ranges a batch writes to that this process has not seen yet (one check per range). */
  async prepareRanges(ops: readonly WriteOp[]): Promise<void> {
    const wanted = new Map<string, { kind: RangedKind; ledgerIndex: number }>();
    for (const op of ops)
      if (op.range !== undefined && !this.ranges.has(op.index) && !wanted.has(op.index)) wanted.set(op.index, op.range);
    for (const [alias, range] of wanted) {
      await this.weather('create range', () => createRange(this.client, this.naming, range.kind, range.ledgerIndex));
      this.ranges.add(alias);
    }
  }

  /** One document, written whole under its id (a status or checkpoint record). */
  async put(kind: SingleIndexKind, id: string, document: object, options: { refresh?: boolean } = {}): Promise<void> {
    await this.weather('put', () =>
      this.client.index({
        index: this.index(kind),
        id,
        document,
        ...(options.refresh === true ? { refresh: true } : {}),
      }),
    );
  }

  /** Deletes documents by id; a refusal other than "already gone" fails the call. */
  async deleteIds(kind: SingleIndexKind, ids: readonly string[], options: { refresh?: boolean } = {}): Promise<void> {
    const index = this.index(kind);
    for (let at = 0; at < ids.length; at += 1000) {
      const response = await this.weather('delete', () =>
        this.client.bulk({
          operations: ids.slice(at, at + 1000).map((id) => ({ delete: { _index: index, _id: id } })),
          ...(options.refresh === true ? { refresh: 'wait_for' as const } : {}),
        }),
      );
      const failed = response.items.find((item) => (item.delete?.status ?? 500) >= 300 && item.delete?.status !== 404);
      if (failed !== undefined) throw new Error(`the ${kind} index refused to delete ${failed.delete?._id}`);
    }
  }

  async refresh(kinds: readonly IndexKind[]): Promise<void> {
    await this.weather('refresh', () => this.client.indices.refresh({ index: kinds.map((k) => this.index(k)) }));
  }

  /**
   * Makes what was written of `ledgers` searchable: the single indices of `kinds` whole, a ranged
   * kind only in the ranges that hold those ledgers (a range nothing was written to is skipped), so
   * the cost follows what changed, not the number of ranges.
   */
  async refreshLedgers(kinds: readonly IndexKind[], ledgers: readonly LedgerRange[]): Promise<void> {
    const names: string[] = [];
    for (const kind of kinds) {
      if (!isRangedKind(kind)) names.push(this.index(kind));
      else {
        const ranges = await this.planner.overlapping(
          kind,
          ledgers.map((r) => ({ gte: r.from, lte: r.to })),
        );
        names.push(...(ranges.length > MAX_NAMED_RANGES ? [this.index(kind)] : ranges));
      }
    }
    if (names.length === 0) return;
    await this.weather('refresh', () => this.client.indices.refresh({ index: names.join(',') }));
  }

  async get<T>(kind: SingleIndexKind, id: string): Promise<T | undefined> {
    const found = await this.weather('get', () =>
      this.client.get<T>({ index: this.index(kind), id }, { ignore: [404] }),
    );
    return found.found ? found._source : undefined;
  }

  /** An indexed ledger's index and hash, read in real time through its range alias, or undefined. */
  async indexedLedger(ledgerIndex: number): Promise<{ ledger_index: number; ledger_hash: string } | undefined> {
    const found = await this.weather('get', () =>
      this.client.get<{ ledger_hash?: string }>(
        { index: this.rangeAlias('ledgers', ledgerIndex), id: String(ledgerIndex), _source_includes: ['ledger_hash'] },
        { ignore: [404] },
      ),
    );
    const hash = found.found ? found._source?.ledger_hash : undefined;
    return typeof hash === 'string' ? { ledger_index: ledgerIndex, ledger_hash: hash } : undefined;
  }

  /** A document with the tag a conditional write needs, or undefined when there is none. */
  async getTagged<T>(kind: SingleIndexKind, id: string): Promise<{ source: T; tag: WriteTag } | undefined> {
    const found = await this.weather('get', () =>
      this.client.get<T>({ index: this.index(kind), id }, { ignore: [404] }),
    );
    if (!found.found || found._source === undefined) return undefined;
    return { source: found._source, tag: { seqNo: found._seq_no ?? 0, primaryTerm: found._primary_term ?? 0 } };
  }

  /**
   * Writes a document only if it is still as read (`tag`), or, with `'absent'`, only if it does
   * not exist yet: the compare-and-set behind leases and shared checkpoints. Answers the new tag,
   * or undefined when another writer got there first (the engine's 409).
   */
  async putIf(
    kind: SingleIndexKind,
    id: string,
    document: object,
    tag: WriteTag | 'absent',
  ): Promise<WriteTag | undefined> {
    const condition =
      tag === 'absent' ? { op_type: 'create' as const } : { if_seq_no: tag.seqNo, if_primary_term: tag.primaryTerm };
    // Sent again after a lost answer, a write that did land meets itself: a 409, read as "another
    // writer got there first", which every caller treats safely (re-read, or let the lease expire).
    const answer = await this.weather('conditional put', () =>
      this.client.index({ index: this.index(kind), id, document, ...condition }, { ignore: [409] }),
    );
    const written = answer as unknown as { status?: number; _seq_no?: number; _primary_term?: number };
    if (written.status === 409 || written._seq_no === undefined) return undefined;
    return { seqNo: written._seq_no, primaryTerm: written._primary_term ?? 0 };
  }

  /** Sets a setting on the concrete indices behind names (for example the refresh interval of the ranges a backfill writes). */
  async setIndexSettings(names: readonly string[], settings: Record<string, unknown>): Promise<void> {
    if (names.length === 0) return;
    await this.weather('settings', () =>
      this.client.indices.putSettings({ index: [...names], settings: { index: settings } }, { ignore: [404] }),
    );
  }

  /** Documents by id (missing ones are absent), optionally only some fields. */
  async mget<T>(kind: SingleIndexKind, ids: readonly string[], fields?: readonly string[]): Promise<Map<string, T>> {
    const found = new Map<string, T>();
    if (ids.length === 0) return found;
    const result = await this.weather('mget', async () =>
      unavailableDocs(
        await this.client.mget<T>({
          index: this.index(kind),
          ids: [...new Set(ids)],
          ...(fields === undefined ? {} : { _source_includes: [...fields] }),
        }),
      ),
    );
    for (const doc of result.docs)
      if ('found' in doc && doc.found && doc._source !== undefined) found.set(doc._id, doc._source);
    return found;
  }

  /** Documents of any indices with their versions, in the order asked (for conditional rewrites). */
  async mgetVersioned<T>(docs: readonly { index: string; id: string }[]): Promise<VersionedDocument<T>[]> {
    const result = await this.weather('mget', async () =>
      unavailableDocs(await this.client.mget<T>({ docs: docs.map((d) => ({ _index: d.index, _id: d.id })) })),
    );
    return result.docs.map((entry) =>
      'found' in entry && entry.found && entry._source !== undefined
        ? { source: entry._source, version: entry._version }
        : { source: undefined, version: undefined },
    );
  }

  search<T>(target: ReadTarget, request: estypes.SearchRequest): Promise<estypes.SearchResponse<T>> {
    return this.weather('search', () => this.client.search<T>({ ...request, index: this.nameOf(target) }));
  }

  /** Every hit of a search, a page at a time (the request's sort must end in a unique key). */
  scan<T>(target: ReadTarget, request: estypes.SearchRequest): AsyncGenerator<estypes.SearchHit<T>> {
    return this.read.eachHit<T>({ ...request, index: this.nameOf(target) });
  }

  /** Every document of an index through a point in time. */
  scanAll<T>(
    kind: IndexKind,
    request: Omit<estypes.SearchRequest, 'index' | 'pit' | 'sort'> = {},
  ): AsyncGenerator<estypes.SearchHit<T>> {
    return this.read.eachDocument<T>(this.index(kind), request);
  }

  /** Every bucket of a composite aggregation over one index (see core's ReadEngine.eachBucket). */
  composite(
    target: ReadTarget,
    request: estypes.SearchRequest,
    aggs: (page: CompositePageRequest) => Record<string, estypes.AggregationsAggregationContainer>,
    locate: (aggregations: Record<string, unknown>) => CompositePage | undefined,
    size?: number,
  ): AsyncGenerator<Record<string, unknown>> {
    return this.read.eachBucket({ ...request, index: this.nameOf(target) }, aggs, locate, size);
  }
}

/**
 * A document of an mget whose shard could not answer (its copies lost or moving) is not missing:
 * the read fails, as a transient engine error, rather than answer "absent".
 */
function unavailableDocs<R extends { docs: readonly unknown[] }>(result: R): R {
  const failed = result.docs.find(
    (doc) =>
      typeof doc === 'object' &&
      doc !== null &&
      'error' in doc &&
      (doc.error as { type?: string } | undefined)?.type !== 'index_not_found_exception',
  );
  if (failed === undefined) return result;
  throw new errors.ResponseError({
    body: failed,
    statusCode: 503,
    headers: {},
    warnings: null,
    meta: {} as never,
  } as never);
}
