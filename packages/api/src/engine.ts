import type { estypes } from '@elastic/elasticsearch';
import { withNewestThreading } from '@xle/documents';
import {
  indexName,
  isRangedKind,
  MAX_NAMED_RANGES,
  rangeAlias,
  rangeLast,
  rangeStartOf,
  type BucketPage,
  type BucketWalkOptions,
  type CompositePage,
  type CompositePageRequest,
  type HitPage,
  type HitWalkOptions,
  type IndexKind,
  type IndexNaming,
  type LedgerSpan,
  type RangedKind,
  type RawHit,
  type ReadEngine,
  type SingleIndexKind,
} from '@xle/core';

/** How long the first close time of each range is kept (`searchClosedBy`). */
const CALENDAR_TTL_MS = 300_000;

/**
 * The API's view of the engine: which index or range alias each kind of read names, for this
 * network. Every read goes through the process's one read engine (core's ReadEngine: never a
 * partial answer, the lookup budget, the one cache, the walkers).
 */
export class Engine {
  private readonly networks = new Map<string, Engine>();

  constructor(
    readonly read: ReadEngine,
    private readonly naming: IndexNaming,
  ) {}

  index(kind: IndexKind): string {
    return indexName(this.naming, kind);
  }

  /** The network this engine module reads. */
  get network(): IndexNaming['network'] {
    return this.naming.network;
  }

  /** The same engine, reading another network's indices under the same prefix. */
  forNetwork(network: IndexNaming['network']): Engine {
    if (network === this.naming.network) return this;
    let other = this.networks.get(network);
    if (other === undefined) {
      other = new Engine(this.read, { ...this.naming, network });
      this.networks.set(network, other);
    }
    return other;
  }

  /** Whether a kind's index (or read alias) exists. */
  async exists(kind: IndexKind): Promise<boolean> {
    return this.read.client.indices.exists({ index: this.index(kind) });
  }

  /** A document by id; its index missing (deleted under the server) is a 503 INDEX_NOT_FOUND, not an absent document. */
  async get<T>(kind: SingleIndexKind, id: string): Promise<T | undefined> {
    return this.read.get<T>(this.index(kind), id);
  }

  /**
   * The ledger a transaction or ledger hash belongs to, from its locator (one read by id), so that
   * a lookup by hash reads one range index by id instead of searching every range.
   */
  async locate(hash: string): Promise<number | undefined> {
    return (await this.get<{ ledger_index: number }>('locators', hash.toUpperCase()))?.ledger_index;
  }

  /**
   * A document of a kind that grows with history, by id, from the range that holds `ledgerIndex`
   * (a read by id must name one index; the kind's alias spans every range). A range never
   * written answers 404 like a missing document, unless the read is `located`: a locator says the
   * document is there, so a range that is not (deleted under the server) is a 503 INDEX_NOT_FOUND.
   */
  async getInRange<T>(
    kind: RangedKind,
    ledgerIndex: number,
    id: string,
    { located = false }: { located?: boolean } = {},
  ): Promise<T | undefined> {
    return this.read.get<T>(rangeAlias(this.naming, kind, ledgerIndex), id, { indexMustExist: located });
  }

  async mget<T>(kind: SingleIndexKind, ids: readonly string[]): Promise<Map<string, T>> {
    return this.read.mget<T>(this.index(kind), ids);
  }

  /** Documents of several kinds by id, in one request, each with its version (see ReadEngine.mgetVersioned). */
  async mgetVersioned<T>(
    docs: readonly { kind: SingleIndexKind; id: string }[],
  ): Promise<Array<{ source: T; version: number | undefined } | undefined>> {
    return this.read.mgetVersioned<T>(docs.map((d) => ({ index: this.index(d.kind), id: d.id })));
  }

  /**
   * A ledger-state document with its entry's newest threading: the document (of `kind`, by `id`)
   * and the entry's thread record (by `entryId`) read in one request, the record's PreviousTxnID /
   * PreviousTxnLgrSeq taken when it is newer (documents' withNewestThreading).
   */
  async getThreaded<T extends Record<string, unknown>>(
    kind: 'accounts' | 'objects',
    id: string,
    entryId: string,
  ): Promise<T | undefined> {
    const [doc, thread] = await this.mgetVersioned<Record<string, unknown>>([
      { kind, id },
      { kind: 'threads', id: entryId },
    ]);
    if (doc === undefined) return undefined;
    const record = thread?.version === undefined ? undefined : { version: thread.version, doc: thread.source };
    return withNewestThreading(doc.source, doc.version, record) as T;
  }

  /**
   * A search over a kind's index or alias (never a partial answer: see ReadEngine.search).
   */
  async search<T>(kind: IndexKind, body: estypes.SearchRequest): Promise<estypes.SearchResponse<T>> {
    return this.searchIndex<T>(this.index(kind), body);
  }

  /**
   * A search of the one range index that holds `ledgerIndex` (a ledger's own documents): its
   * shards only, however many ranges the kind has. A range never written has no hits, unless the
   * body says `ignore_unavailable: false` (the range must be there: 503 INDEX_NOT_FOUND if not).
   */
  async searchInRange<T>(
    kind: RangedKind,
    ledgerIndex: number,
    body: estypes.SearchRequest,
  ): Promise<estypes.SearchResponse<T>> {
    return this.searchIndex<T>(rangeAlias(this.naming, kind, ledgerIndex), { ignore_unavailable: true, ...body });
  }

  /**
   * A search of the activity index on the one shard that holds `key`'s documents (the index is
   * routed by key), however many shards and ranges there are.
   */
  async searchActivity<T>(key: string, body: estypes.SearchRequest): Promise<estypes.SearchResponse<T>> {
    return this.searchIndex<T>(this.index('activity'), { ...body, routing: key });
  }

  /**
   * Documents of a kind that grows with history, by id, each from the range its ledger names:
   * one search of exactly those ranges (an ids query, a shard request per range; in groups of
   * MAX_NAMED_RANGES), then a read by id (realtime) of any it did not find, which a range not
   * refreshed since the document was written cannot see yet. A range that is not there is a 503
   * INDEX_NOT_FOUND; what neither finds is left out of the answer (the caller says why).
   */
  async documentsInRanges<T>(
    kind: RangedKind,
    wanted: readonly { id: string; ledgerIndex: number }[],
  ): Promise<Map<string, T>> {
    const found = new Map<string, T>();
    if (wanted.length === 0) return found;
    const byRange = new Map<string, string[]>();
    for (const { id, ledgerIndex } of wanted) {
      const alias = rangeAlias(this.naming, kind, ledgerIndex);
      byRange.set(alias, [...(byRange.get(alias) ?? []), id]);
    }
    const aliases = [...byRange.keys()];
    const groups: string[][] = [];
    for (let i = 0; i < aliases.length; i += MAX_NAMED_RANGES) groups.push(aliases.slice(i, i + MAX_NAMED_RANGES));
    const answers = await Promise.all(
      groups.map((group) => {
        const ids = group.flatMap((alias) => byRange.get(alias) ?? []);
        return this.searchIndex<T>(group.join(','), {
          query: { ids: { values: ids } },
          size: ids.length,
          track_total_hits: false,
          ignore_unavailable: false,
        });
      }),
    );
    for (const answer of answers)
      for (const hit of answer.hits.hits)
        if (hit._id !== undefined && hit._source !== undefined) found.set(hit._id, hit._source);
    const missing = wanted.filter((w) => !found.has(w.id));
    if (missing.length > 0) {
      const read = await this.read.mgetVersioned<T>(
        missing.map((m) => ({ index: rangeAlias(this.naming, kind, m.ledgerIndex), id: m.id })),
      );
      missing.forEach((m, i) => {
        const doc = read[i];
        if (doc !== undefined) found.set(m.id, doc.source);
      });
    }
    return found;
  }

  /**
   * The newest documents of a kind that grows with history: `body` sorts on `ledger_index`
   * newest first and asks `size` (see searchByLedger).
   */
  async searchNewest<T>(
    kind: RangedKind,
    body: estypes.SearchRequest & { size: number },
  ): Promise<estypes.SearchHit<T>[]> {
    return this.searchByLedger<T>(kind, body, {});
  }

  /**
   * The hits of a search whose first sort key is `ledger_index` (newest first, or oldest first
   * with `ascending`), within the ledgers `gte`..`lte`: only the ranges that overlap those ledgers
   * are asked, in sort order and in batches that double (1, 2, 4, ... ranges in one search), until
   * `size` hits are in. A busy account's first page reads its newest range alone; one idle for
   * years costs a few round trips; none asks every range of the history at once. Batches are
   * disjoint and follow each other in sort order, so their hits concatenate. Past
   * MAX_NAMED_RANGES ranges a search, the ranges left are asked in one search of the kind's alias
   * confined to their ledgers (a request names at most that many indices). The ranges are listed
   * at most every RANGES_TTL_MS, and again at once when `lte` lies past the newest listed one (a
   * range created since); a listed range that is gone fails the read (503 INDEX_NOT_FOUND), never
   * a page that silently lacks its hits.
   */
  async searchByLedger<T>(
    kind: RangedKind,
    body: estypes.SearchRequest & { size: number },
    { gte, lte, ascending = false }: { gte?: number; lte?: number; ascending?: boolean },
  ): Promise<estypes.SearchHit<T>[]> {
    const planner = this.read.ranges(this.naming);
    if ((await planner.starts(kind, lte)).length === 0) return (await this.search<T>(kind, body)).hits.hits;
    const wanted = await planner.overlapping(kind, [
      { ...(gte === undefined ? {} : { gte }), ...(lte === undefined ? {} : { lte }) },
    ]);
    if (!ascending) wanted.reverse();
    const hits: estypes.SearchHit<T>[] = [];
    let at = 0;
    for (let batch = 1; at < wanted.length && hits.length < body.size && batch <= MAX_NAMED_RANGES; batch *= 2) {
      const found = await this.searchIndex<T>(wanted.slice(at, at + batch).join(','), {
        ...body,
        size: body.size - hits.length,
      });
      hits.push(...found.hits.hits);
      at += batch;
    }
    const next = wanted[at];
    if (next !== undefined && hits.length < body.size) {
      // The ranges left lie wholly before (after) the next one's end (start).
      const first = rangeStartOf(next) as number;
      const left = ascending ? { gte: first } : { lte: rangeLast(this.naming, first) };
      const found = await this.search<T>(kind, {
        ...body,
        query: { bool: { filter: [body.query ?? { match_all: {} }, { range: { ledger_index: left } }] } },
        size: body.size - hits.length,
      });
      hits.push(...found.hits.hits);
    }
    return hits;
  }

  /**
   * The first close time (Ripple epoch seconds) of each listed range of a kind, oldest first. A
   * range's is read with a `min` aggregation on that range alone (answered from the index's
   * points, not by reading its documents) and kept CALENDAR_TTL_MS: it changes only when a
   * backfill writes an earlier ledger into the range.
   */
  private async calendar(kind: RangedKind): Promise<Array<{ start: number; firstClose: number }>> {
    const listed = await this.read.ranges(this.naming).starts(kind);
    const firsts = await Promise.all(
      listed.map((start) =>
        this.remember(`first-close:${kind}:${start}`, CALENDAR_TTL_MS, async () => {
          const found = await this.searchIndex(rangeAlias(this.naming, kind, start), {
            size: 0,
            track_total_hits: false,
            aggs: { first: { min: { field: 'close_time' } } },
          });
          return (found.aggregations?.first as { value?: number | null } | undefined)?.value ?? null;
        }),
      ),
    );
    return listed.flatMap((start, i) => {
      const firstClose = firsts[i];
      return firstClose === null || firstClose === undefined ? [] : [{ start, firstClose }];
    });
  }

  /**
   * The hits of a search sorted newest first (`close_time`, then `ledger_index`) among documents
   * closed at or before `closeTime`, `latest` being the newest indexed ledger. Close times grow with
   * the ledger index, so the newest such document lies in the newest range whose first ledger
   * closed at or before `closeTime`: that range is asked (with the range of `latest` when it is
   * the newest known, for a range created since the calendar was read), and older ones only
   * while the page is not full (see searchByLedger).
   */
  async searchClosedBy<T>(
    kind: RangedKind,
    body: estypes.SearchRequest & { size: number },
    closeTime: number,
    latest: number,
  ): Promise<estypes.SearchHit<T>[]> {
    const calendar = await this.calendar(kind);
    if (calendar.length === 0) return (await this.search<T>(kind, body)).hits.hits;
    const at = calendar.findLastIndex((r) => r.firstClose <= closeTime);
    // Before the first ledger of every range: nothing closed that early is indexed.
    if (at < 0) return [];
    const last = rangeLast(this.naming, (calendar[at] as { start: number }).start);
    const lte = at === calendar.length - 1 ? Math.max(latest, last) : last;
    return this.searchByLedger<T>(kind, body, { lte });
  }

  /** A search of one index, alias or list of them, never a partial answer (see `search`). */
  private async searchIndex<T>(index: string, body: estypes.SearchRequest): Promise<estypes.SearchResponse<T>> {
    return this.read.search<T>({ ...body, index });
  }

  /**
   * A walk of every document of some kinds under one point in time, each as the engine's bytes
   * (see ReadEngine.rawHits): `request` sorts and filters, `options` resumes, prefetches, aborts.
   */
  rawHits(
    indices: readonly string[],
    request: estypes.SearchRequest,
    options: Omit<HitWalkOptions, 'pit'> & { keepAlive: string },
  ): AsyncGenerator<HitPage<RawHit>> {
    const { keepAlive, ...walk } = options;
    return this.read.rawHits(request, { ...walk, pit: { index: [...indices], keepAlive } });
  }

  /**
   * The indices a walk of some kinds confined to the ledgers of `span` reads: for a kind that
   * grows with history, the ranges that overlap them (core's RangePlanner); its index otherwise.
   */
  async indicesFor(kinds: readonly IndexKind[], span: LedgerSpan): Promise<string[]> {
    const planner = this.read.ranges(this.naming);
    const named = await Promise.all(
      kinds.map(
        async (kind) => (isRangedKind(kind) ? await planner.target(kind, [span]) : undefined) ?? this.index(kind),
      ),
    );
    return named.flatMap((n) => n.split(','));
  }

  /** Every hit of a search of one kind, a page at a time (see ReadEngine.hits: the sort must be unique). */
  hits<T>(
    kind: IndexKind,
    request: estypes.SearchRequest,
    options: Omit<HitWalkOptions, 'pit'> = {},
  ): AsyncGenerator<HitPage<estypes.SearchHit<T>>> {
    return this.read.hits<T>({ ...request, index: this.index(kind) }, options);
  }

  /** Every bucket of a composite aggregation over one kind, a page at a time (see ReadEngine.buckets). */
  buckets(
    kind: IndexKind,
    request: estypes.SearchRequest,
    aggs: (page: CompositePageRequest) => Record<string, estypes.AggregationsAggregationContainer>,
    locate: (aggregations: Record<string, unknown>) => CompositePage | undefined,
    options: BucketWalkOptions = {},
  ): AsyncGenerator<BucketPage> {
    return this.read.buckets({ ...request, index: this.index(kind) }, aggs, locate, options);
  }

  /** Documents by id from this process's one cache (see ReadEngine.mgetCached). */
  async mgetCached<T>(
    kind: SingleIndexKind,
    ids: Iterable<string>,
    ttlMs: number,
    options: { cacheMisses?: boolean } = {},
  ): Promise<Map<string, T>> {
    return this.read.mgetCached<T>(this.index(kind), ids, ttlMs, options);
  }

  /** The last ledger of the range of a kind that grows with history that holds `ledgerIndex`. */
  rangeLast(ledgerIndex: number): number {
    return rangeLast(this.naming, ledgerIndex);
  }

  /** What `load` answers for `key` among the values called `name` (for this network), kept `ttlMs` unless `keep` refuses it. */
  rememberIn<T>(
    name: string,
    key: string,
    ttlMs: number,
    load: () => Promise<T>,
    keep?: (value: T) => boolean,
  ): Promise<T> {
    return this.read.rememberIn(`${this.naming.prefix}-${this.naming.network}:${name}`, key, ttlMs, load, keep);
  }

  /** What `load` answers, kept under `key` (for this network) for `ttlMs`. */
  remember<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
    return this.read.remember(`${this.naming.prefix}-${this.naming.network}:${key}`, ttlMs, load);
  }

  /**
   * The readiness probe: true when the engine answers its health check within `timeoutMs`. No
   * retries, so a dead engine is known in well under a second.
   */
  async ping(timeoutMs: number): Promise<boolean> {
    return this.read.client.cluster.health({}, { requestTimeout: timeoutMs, maxRetries: 0 }).then(
      () => true,
      () => false,
    );
  }
}
