import { RangePlanner } from './range-planner.js';
import type { IndexNaming } from '../index-names.js';
import { errors, type Client, type estypes } from '@elastic/elasticsearch';
import { TtlCache } from '../cache.js';
import { EngineTimeoutError, EngineUnavailableError, IndexNotFoundError } from '../errors.js';
import { isClusterWeather } from './error-mapping.js';
import { RAW_HITS_FILTER, readRawHits, type RawHit } from './raw-hits.js';

/**
 * The one read engine of every package: searches that never return a partial answer silently,
 * reads by id under their own time budget with the one bounded cache, points in time, and the
 * resumable walkers (hits by `search_after`, raw hits for exports, composite buckets) that SQL,
 * exports, REST, the jobs and the importers page with. The packages' engine modules only name
 * indices (kinds, ranges, networks) and hand their requests here.
 */

/**
 * How many hits a search counted (its `hits.total`, a number or `{value}` by the request's
 * `rest_total_hits_as_int`); 0 when it counted none (`track_total_hits: false`).
 */
export function totalHits(hits: { total?: number | estypes.SearchTotalHits | undefined }): number {
  const total = hits.total;
  return typeof total === 'number' ? total : (total?.value ?? 0);
}

/** Hits and buckets are read this many at a time. */
export const READ_PAGE = 1000;

/** Documents kept per cached index (the oldest go first). */
const CACHE_ENTRIES = 50_000;

/** How long each kind of read may take. */
export interface ReadBudgets {
  /**
   * A read by id (get, mget): a point lookup, far shorter than a search, so an engine that stops
   * answering is known within it. Unset: the client's request timeout.
   */
  lookupMs?: number;
}

/** Per request: who may abort it, and its time budget (the engine's own `timeout` and the client's). */
export interface SearchOptions {
  signal?: AbortSignal;
  /** The engine stops at this many ms (its `timeout`); the client waits 5 s longer for the answer. */
  timeoutMs?: number;
}

/** One page of a hit walk, and where the walk stands after it. */
export interface HitPage<H> {
  hits: H[];
  /** The sort values of the page's last hit: a walk resumed `after` them starts after this page. */
  after: estypes.SortResults | undefined;
  /** The point in time the next page reads (the engine may give a new id with each answer). */
  pitId: string | undefined;
  /** True when the walk has nothing more (a short page, or `limit` reached). */
  last: boolean;
}

/** A point in time for a walk: one to open over these indices, or one already open. */
export type WalkPit = { index: string | readonly string[]; keepAlive: string } | { id: string; keepAlive: string };

export interface HitWalkOptions {
  /** Read under a point in time (`request` then names no index, and its sort may end in `_shard_doc`). */
  pit?: WalkPit;
  /**
   * Leave the point in time open when the walk ends (a cursor reads on from it later; its owner
   * closes it). Otherwise the walk closes it however it ends.
   */
  keepPit?: boolean;
  /** Resume after these sort values (from a previous page's `after`). */
  after?: estypes.SortResults | undefined;
  /** Hits per page (READ_PAGE). */
  pageSize?: number;
  /** At most this many hits in all: the last page asks only for what is left. */
  limit?: number;
  /** Ask for the next page while the consumer works on this one (exports, not cursor pages). */
  prefetch?: boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
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

/** One page of a bucket walk, and where the walk stands after it. */
export interface BucketPage {
  buckets: Array<Record<string, unknown>>;
  /** The composite's `after_key`: a walk resumed `after` it starts after this page. */
  after: Record<string, estypes.FieldValue> | undefined;
  last: boolean;
}

export interface BucketWalkOptions {
  after?: Record<string, estypes.FieldValue> | undefined;
  /** Buckets per page (READ_PAGE). */
  pageSize?: number;
  prefetch?: boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** Failed shards (503) or a shard out of time (504) are an error, never a 200 that lacks documents. */
function refusePartial(failedShards: number, timedOut: boolean): void {
  if (failedShards > 0) throw new EngineUnavailableError(new Error(`${failedShards} shards failed`));
  if (timedOut) throw new EngineTimeoutError(new Error('a shard ran out of the search time'));
}

/** A search answer as a whole (see refusePartial), unless the request asked for partial results. */
function complete<T>(request: estypes.SearchRequest, found: estypes.SearchResponse<T>): estypes.SearchResponse<T> {
  // A caller that asked for partial results explicitly (a /search body) reads `_shards` itself.
  if (request.allow_partial_search_results !== true) refusePartial(found._shards?.failed ?? 0, found.timed_out);
  return found;
}

/**
 * Pages of a walk: `fetch(after, size, signal)` reads one page. With `prefetch`, the next page is
 * on its way while the consumer holds this one. A consumer that stops early (`return()`: a
 * closed connection, a full cursor page) aborts the page under way; `cleanup` runs however the
 * walk ends.
 */
async function* pagesOf<P extends { after: unknown; count: number }>(
  fetch: (after: P['after'] | undefined, size: number, signal: AbortSignal) => Promise<P>,
  options: {
    after?: P['after'] | undefined;
    pageSize: number;
    limit?: number;
    prefetch?: boolean;
    signal?: AbortSignal;
  },
  cleanup: (completed: boolean) => Promise<void>,
): AsyncGenerator<P & { last: boolean }> {
  const own = new AbortController();
  const abort = (): void => own.abort(options.signal?.reason);
  if (options.signal?.aborted === true) abort();
  options.signal?.addEventListener('abort', abort, { once: true });
  let read = 0;
  const sizeFor = (): number =>
    Math.max(1, Math.min(options.pageSize, (options.limit ?? Number.POSITIVE_INFINITY) - read));
  let completed = false;
  let pending: { page: Promise<P>; size: number } | undefined;
  const request = (after: P['after'] | undefined): { page: Promise<P>; size: number } => {
    const size = sizeFor();
    const page = fetch(after, size, own.signal);
    // A page asked ahead and never awaited must not fail unobserved.
    page.catch(() => undefined);
    return { page, size };
  };
  try {
    if (options.limit !== undefined && options.limit <= 0) {
      completed = true;
      return;
    }
    pending = request(options.after);
    for (;;) {
      const { page: next, size } = pending;
      pending = undefined;
      const page = await next;
      read += page.count;
      const last =
        page.count < size || page.after === undefined || (options.limit !== undefined && read >= options.limit);
      if (!last && options.prefetch === true) pending = request(page.after);
      if (last) completed = true;
      yield { ...page, last };
      if (last) return;
      pending ??= request(page.after);
    }
  } finally {
    options.signal?.removeEventListener('abort', abort);
    if (pending !== undefined) own.abort(new Error('the walk ended'));
    await cleanup(completed);
  }
}

export class ReadEngine {
  private readonly caches = new Map<string, TtlCache<string, unknown>>();
  private readonly planners = new Map<string, RangePlanner>();
  /** Request options of a read by id. */
  private readonly lookup: { requestTimeout?: number };

  constructor(
    readonly client: Client,
    budgets: ReadBudgets = {},
  ) {
    this.lookup = budgets.lookupMs === undefined ? {} : { requestTimeout: budgets.lookupMs };
  }

  /** The range planner of a prefix and network, over this engine's client: one per process, shared by its readers. */
  ranges(naming: IndexNaming): RangePlanner {
    const key = `${naming.prefix}-${naming.network}-${naming.rangeLedgers ?? ''}`;
    let planner = this.planners.get(key);
    if (planner === undefined) {
      planner = new RangePlanner(this.client, naming);
      this.planners.set(key, planner);
    }
    return planner;
  }

  /**
   * A document by id, under the lookup budget; absent is undefined. With `indexMustExist`, an
   * index that is not there (deleted under the server) is a 503 INDEX_NOT_FOUND, not an absent
   * document; without it (a range that may never have been written), it is absent too.
   */
  async get<T>(
    index: string,
    id: string,
    { indexMustExist = true }: { indexMustExist?: boolean } = {},
  ): Promise<T | undefined> {
    const doc = await this.client.get<T>({ index, id }, { ...this.lookup, ignore: [404] });
    const error = (doc as { error?: { type?: string; reason?: string } }).error;
    if (indexMustExist && error?.type === 'index_not_found_exception')
      throw new IndexNotFoundError(new Error(`get ${index} ${JSON.stringify(id)}: ${error.reason ?? error.type}`));
    return doc.found ? doc._source : undefined;
  }

  /** Documents by id from one index (or alias), under the lookup budget: those found. */
  async mget<T>(index: string, ids: readonly string[]): Promise<Map<string, T>> {
    const found = new Map<string, T>();
    if (ids.length === 0) return found;
    const result = await this.client.mget<T>({ index, ids: [...new Set(ids)] }, this.lookup);
    for (const doc of result.docs) {
      // A shard that cannot answer (its copies lost or moving) does not mean "absent", nor does an
      // index deleted under the server (503 INDEX_NOT_FOUND); any other refusal of one document
      // is a bug of ours, not the engine's weather (a 500).
      if ('error' in doc) {
        const failure = new Error(`mget ${index} ${JSON.stringify(doc._id)}: ${doc.error.type}: ${doc.error.reason}`);
        if (doc.error.type === 'index_not_found_exception') throw new IndexNotFoundError(failure);
        throw isClusterWeather(doc.error.type) ? new EngineUnavailableError(failure) : failure;
      }
      if (doc.found && doc._source !== undefined) found.set(doc._id, doc._source);
    }
    return found;
  }

  /**
   * Documents by id from several indices in one request, under the lookup budget, each with its
   * version (the external version a versioned writer gave it); absent is undefined. Errors as mget.
   */
  async mgetVersioned<T>(
    docs: readonly { index: string; id: string }[],
  ): Promise<Array<{ source: T; version: number | undefined } | undefined>> {
    if (docs.length === 0) return [];
    const result = await this.client.mget<T>({ docs: docs.map((d) => ({ _index: d.index, _id: d.id })) }, this.lookup);
    return result.docs.map((doc) => {
      if ('error' in doc) {
        const failure = new Error(
          `mget ${doc._index} ${JSON.stringify(doc._id)}: ${doc.error.type}: ${doc.error.reason}`,
        );
        if (doc.error.type === 'index_not_found_exception') throw new IndexNotFoundError(failure);
        throw isClusterWeather(doc.error.type) ? new EngineUnavailableError(failure) : failure;
      }
      return doc.found && doc._source !== undefined ? { source: doc._source, version: doc._version } : undefined;
    });
  }

  /**
   * Documents by id, answered from this process's cache while younger than `ttlMs`: one batched
   * lookup of the ids not cached. With `cacheMisses`, an id found missing is not asked again
   * within that time either.
   */
  async mgetCached<T>(
    index: string,
    ids: Iterable<string>,
    ttlMs: number,
    { cacheMisses = true }: { cacheMisses?: boolean } = {},
  ): Promise<Map<string, T>> {
    const all = await this.cache(`documents:${index}`, ttlMs).getOrLoadMany(
      ids,
      (missing) => this.mget<unknown>(index, missing),
      cacheMisses ? null : undefined,
    );
    const found = new Map<string, T>();
    for (const [id, doc] of all) if (doc !== null) found.set(id, doc as T);
    return found;
  }

  /** What `load` answers, kept under `key` for `ttlMs` (values every request needs, such as the newest ledger). */
  remember<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
    return this.cache(`value:${key}`, ttlMs).getOrLoad(key, load) as Promise<T>;
  }

  /**
   * What `load` answers for `key` among the values called `name` (one bounded cache per name,
   * unlike `remember`'s one per key), kept `ttlMs` unless `keep` says otherwise of the value.
   */
  async rememberIn<T>(
    name: string,
    key: string,
    ttlMs: number,
    load: () => Promise<T>,
    keep: (value: T) => boolean = () => true,
  ): Promise<T> {
    const cache = this.cache(`values:${name}`, ttlMs);
    const value = (await cache.getOrLoad(key, load)) as T;
    if (!keep(value)) cache.delete(key);
    return value;
  }

  private cache(name: string, ttlMs: number): TtlCache<string, unknown> {
    let cache = this.caches.get(name);
    if (cache === undefined) {
      cache = new TtlCache({ ttlMs, maxEntries: CACHE_ENTRIES });
      this.caches.set(name, cache);
    }
    return cache;
  }

  /**
   * One search, on the indices `request` names or on its point in time. Never a partial answer:
   * a shard that fails (a node lost, a replica being promoted) fails the whole search, answered
   * 503 with Retry-After, and a shard out of time a 504, rather than a 200 that silently lacks
   * documents. Only a request that asks for partial results itself gets them (and its `_shards`).
   */
  async search<T = unknown>(
    request: estypes.SearchRequest,
    options: SearchOptions = {},
  ): Promise<estypes.SearchResponse<T>> {
    const body: estypes.SearchRequest = { allow_partial_search_results: false, ...request };
    if (options.timeoutMs !== undefined) body.timeout = `${options.timeoutMs}ms`;
    return complete(body, await this.client.search<T>(body, transportOptions(options)));
  }

  /**
   * One search whose hits come back as the engine's bytes (each `_source` unparsed), for a reader
   * that passes documents on as stored (an export). Never partial, as `search`.
   */
  async searchRaw(
    request: estypes.SearchRequest,
    options: SearchOptions = {},
  ): Promise<{ hits: RawHit[]; pitId: string | undefined }> {
    const { index, ...body } = request;
    if (options.timeoutMs !== undefined) body.timeout = `${options.timeoutMs}ms`;
    const path = index === undefined ? '/_search' : `/${[index].flat().map(encodeURIComponent).join(',')}/_search`;
    // The bytes are the engine's JSON as sent: the client asks for no compression (its
    // `compression` option is off), so nothing here has to inflate them.
    const answer = await this.client.transport.request<NodeJS.ReadableStream>(
      {
        method: 'POST',
        path,
        querystring: { filter_path: RAW_HITS_FILTER, allow_partial_search_results: false },
        body,
      },
      { asStream: true, meta: true, ...transportOptions(options) },
    );
    const chunks: Buffer[] = [];
    for await (const chunk of answer.body) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    if (answer.statusCode !== null && answer.statusCode >= 400) {
      // A refusal, as the client reports one when it reads the answer itself (mapped to 4xx/5xx).
      let parsed: unknown = bytes.toString('utf8');
      try {
        parsed = JSON.parse(parsed as string);
      } catch {
        // Not JSON: the text is the reason.
      }
      throw new errors.ResponseError({ ...answer, body: parsed } as never);
    }
    const read = readRawHits(bytes);
    refusePartial(read.failedShards, read.timedOut);
    return { hits: read.hits, pitId: read.pitId };
  }

  /** Opens a point in time over some indices or aliases (a consistent view for a long walk). */
  async openPit(index: string | readonly string[], keepAlive: string, signal?: AbortSignal): Promise<string> {
    const answer = await this.client.openPointInTime(
      { index: [index].flat(), keep_alive: keepAlive },
      signal === undefined ? {} : { signal },
    );
    return answer.id;
  }

  /** Closes a point in time; one already expired or closed is no error (closing is best effort). */
  async closePit(id: string): Promise<void> {
    await this.client.closePointInTime({ id }, { ignore: [404] }).catch(() => undefined);
  }

  /**
   * Every hit of a search, a page at a time with `search_after` on the request's sort (which must
   * end in a unique key, or in `_shard_doc` under a point in time), resumable from any page's
   * `after`. See HitWalkOptions for the point in time, limit, prefetch and abort.
   */
  hits<T = unknown>(
    request: estypes.SearchRequest,
    options: HitWalkOptions = {},
  ): AsyncGenerator<HitPage<estypes.SearchHit<T>>> {
    requireSort(request);
    return this.walkHits(options, async (body, search) => {
      const answer = await this.search<T>({ ...request, ...body }, search);
      const hits = answer.hits.hits;
      return { hits, sortOfLast: hits[hits.length - 1]?.sort, pitId: answer.pit_id };
    });
  }

  /** `hits`, each hit's document as the engine's bytes (see searchRaw). */
  rawHits(request: estypes.SearchRequest, options: HitWalkOptions = {}): AsyncGenerator<HitPage<RawHit>> {
    requireSort(request);
    return this.walkHits(options, async (body, search) => {
      const answer = await this.searchRaw({ ...request, ...body }, search);
      const hits = answer.hits;
      return { hits, sortOfLast: hits[hits.length - 1]?.sort as estypes.SortResults | undefined, pitId: answer.pitId };
    });
  }

  private async *walkHits<H>(
    options: HitWalkOptions,
    read: (
      body: estypes.SearchRequest,
      search: SearchOptions,
    ) => Promise<{ hits: H[]; sortOfLast: estypes.SortResults | undefined; pitId: string | undefined }>,
  ): AsyncGenerator<HitPage<H>> {
    const { pit } = options;
    let pitId = pit !== undefined && 'id' in pit ? pit.id : undefined;
    let yielded = false;
    const fetch = async (
      after: estypes.SortResults | undefined,
      size: number,
      signal: AbortSignal,
    ): Promise<Omit<HitPage<H>, 'last'> & { count: number }> => {
      if (pit !== undefined && pitId === undefined && 'index' in pit)
        pitId = await this.openPit(pit.index, pit.keepAlive, signal);
      const body: estypes.SearchRequest = { size, track_total_hits: false };
      if (pit !== undefined) body.pit = { id: pitId as string, keep_alive: pit.keepAlive };
      if (after !== undefined) body.search_after = after;
      const page = await read(body, {
        signal,
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      });
      if (page.pitId !== undefined) pitId = page.pitId;
      return { hits: page.hits, after: page.sortOfLast, pitId, count: page.hits.length };
    };
    const pages = pagesOf(
      fetch,
      {
        after: options.after,
        pageSize: options.pageSize ?? READ_PAGE,
        ...pick(options, 'limit', 'prefetch', 'signal'),
      },
      async (completed) => {
        // A kept point in time is its owner's to close, unless the walk failed before the owner
        // ever heard of it.
        if (pitId !== undefined && (options.keepPit !== true || (!completed && !yielded))) await this.closePit(pitId);
      },
    );
    for await (const page of stripCount(pages)) {
      yielded = true;
      yield page;
    }
  }

  /**
   * Every bucket of a composite aggregation, a page at a time, resumable from any page's `after`.
   * `aggs(page)` builds the request's aggregations, spreading `page` into the composite; `locate`
   * finds the composite aggregate in the answer (it may sit under `nested` or `filter` aggregations).
   */
  buckets(
    request: estypes.SearchRequest,
    aggs: (page: CompositePageRequest) => Record<string, estypes.AggregationsAggregationContainer>,
    locate: (aggregations: Record<string, unknown>) => CompositePage | undefined,
    options: BucketWalkOptions = {},
  ): AsyncGenerator<BucketPage> {
    const fetch = async (
      after: BucketPage['after'],
      size: number,
      signal: AbortSignal,
    ): Promise<Omit<BucketPage, 'last'> & { count: number }> => {
      const answer = await this.search(
        {
          ...request,
          size: 0,
          track_total_hits: false,
          aggs: aggs({ size, ...(after === undefined ? {} : { after }) }),
        },
        { signal, ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }) },
      );
      const page = locate((answer.aggregations ?? {}) as Record<string, unknown>);
      const buckets = page?.buckets ?? [];
      return { buckets, after: page?.after_key, count: buckets.length };
    };
    return stripCount(
      pagesOf(
        fetch,
        { after: options.after, pageSize: options.pageSize ?? READ_PAGE, ...pick(options, 'prefetch', 'signal') },
        async () => undefined,
      ),
    );
  }

  /** Every hit of a search (see `hits`: the sort must end in a unique key), one at a time. */
  async *eachHit<T = unknown>(
    request: estypes.SearchRequest,
    pageSize = READ_PAGE,
  ): AsyncGenerator<estypes.SearchHit<T>> {
    for await (const page of this.hits<T>(request, { pageSize })) yield* page.hits;
  }

  /**
   * Every document of an index through a point in time (`_shard_doc` order), one at a time, so a
   * walk sees one consistent view however the index changes meanwhile; the point in time is
   * closed however the walk ends.
   */
  async *eachDocument<T = unknown>(
    index: string,
    request: Omit<estypes.SearchRequest, 'index' | 'pit' | 'sort'> = {},
    pageSize = READ_PAGE,
  ): AsyncGenerator<estypes.SearchHit<T>> {
    const pages = this.hits<T>(
      { ...request, sort: ['_shard_doc'] },
      { pit: { index, keepAlive: '1m' }, prefetch: true, pageSize },
    );
    for await (const page of pages) yield* page.hits;
  }

  /** Every bucket of a composite aggregation (see `buckets`), one at a time. */
  async *eachBucket(
    request: estypes.SearchRequest,
    aggs: (page: CompositePageRequest) => Record<string, estypes.AggregationsAggregationContainer>,
    locate: (aggregations: Record<string, unknown>) => CompositePage | undefined,
    size = READ_PAGE,
  ): AsyncGenerator<Record<string, unknown>> {
    for await (const page of this.buckets(request, aggs, locate, { pageSize: size })) yield* page.buckets;
  }
}

async function* stripCount<P extends { count: number }>(pages: AsyncGenerator<P>): AsyncGenerator<Omit<P, 'count'>> {
  for await (const { count: _count, ...page } of pages) yield page;
}

/** The options present in `options` among `keys` (exactOptionalPropertyTypes: no key set to undefined). */
function pick<O extends object, K extends keyof O>(options: O, ...keys: K[]): { [P in K]?: Exclude<O[P], undefined> } {
  const out: { [P in K]?: Exclude<O[P], undefined> } = {};
  for (const key of keys) if (options[key] !== undefined) out[key] = options[key] as Exclude<O[K], undefined>;
  return out;
}

function transportOptions(options: SearchOptions): { signal?: AbortSignal; requestTimeout?: number } {
  return {
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.timeoutMs === undefined ? {} : { requestTimeout: options.timeoutMs + 5000 }),
  };
}

/**
 * A walk pages on its request's sort: without one, no page has an `after` and the walk would end,
 * silently, after its first page. That is a caller's mistake, refused where it is made.
 */
function requireSort(request: estypes.SearchRequest): void {
  if (request.sort === undefined)
    throw new Error('A hit walk needs a sort ending in a unique key (or _shard_doc under a point in time).');
}
