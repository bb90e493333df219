import { errors, type estypes } from '@elastic/elasticsearch';
import {
  EngineUnavailableError,
  IndexNotFoundError,
  indexName,
  isClusterWeather,
  rangeAlias,
  rangeIndices,
  TtlCache,
  type Client,
  type IndexKind,
  type IndexNaming,
  type RangedKind,
  type SingleIndexKind,
} from '@xle/core';

/** How long the list of a kind's ranges is kept (`searchNewest`). */
const RANGES_TTL_MS = 5000;

/** Documents kept per cached index (the oldest go first). */
const CACHE_ENTRIES = 50_000;

/**
 * The one module of the API that talks to the search engine: lookups by id, searches, the
 * readiness probe, and the process's caches of engine answers (one facility, `TtlCache`).
 */
export class Engine {
  private readonly caches = new Map<string, TtlCache<string, unknown>>();
  private readonly networks = new Map<string, Engine>();

  /** Request options of a read by id: its own, shorter, time limit (see `es.lookupTimeoutMs`). */
  private readonly lookup: { requestTimeout?: number };

  constructor(
    private readonly client: Client,
    private readonly naming: IndexNaming,
    private readonly options: { lookupTimeoutMs?: number } = {},
  ) {
    this.lookup = options.lookupTimeoutMs === undefined ? {} : { requestTimeout: options.lookupTimeoutMs };
  }

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
      other = new Engine(this.client, { ...this.naming, network }, this.options);
      this.networks.set(network, other);
    }
    return other;
  }

  /** Whether a kind's index (or read alias) exists. */
  async exists(kind: IndexKind): Promise<boolean> {
    return this.client.indices.exists({ index: this.index(kind) });
  }

  /** A document by id; its index missing (deleted under the server) is a 503 INDEX_NOT_FOUND, not an absent document. */
  async get<T>(kind: SingleIndexKind, id: string): Promise<T | undefined> {
    return this.readById<T>(this.index(kind), kind, id, true);
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
    return this.readById<T>(rangeAlias(this.naming, kind, ledgerIndex), kind, id, located);
  }

  /** One read by id under the lookup time limit; with `indexMustExist`, a missing index throws IndexNotFoundError. */
  private async readById<T>(
    index: string,
    kind: IndexKind,
    id: string,
    indexMustExist: boolean,
  ): Promise<T | undefined> {
    const doc = await this.client.get<T>({ index, id }, { ...this.lookup, ignore: [404] });
    const error = (doc as { error?: { type?: string; reason?: string } }).error;
    if (indexMustExist && error?.type === 'index_not_found_exception')
      throw new IndexNotFoundError(new Error(`get ${kind} ${JSON.stringify(id)}: ${error.reason ?? error.type}`));
    return doc.found ? doc._source : undefined;
  }

  async mget<T>(kind: SingleIndexKind, ids: readonly string[]): Promise<Map<string, T>> {
    const found = new Map<string, T>();
    if (ids.length === 0) return found;
    const result = await this.client.mget<T>({ index: this.index(kind), ids: [...new Set(ids)] }, this.lookup);
    for (const doc of result.docs) {
      // A shard that cannot answer (its copies lost or moving) does not mean "absent", nor does an
      // index deleted under the server (503 INDEX_NOT_FOUND); any other refusal of one document
      // is a bug of ours, not the engine's weather (a 500).
      if ('error' in doc) {
        const failure = new Error(`mget ${kind} ${JSON.stringify(doc._id)}: ${doc.error.type}: ${doc.error.reason}`);
        if (doc.error.type === 'index_not_found_exception') throw new IndexNotFoundError(failure);
        throw isClusterWeather(doc.error.type) ? new EngineUnavailableError(failure) : failure;
      }
      if (doc.found && doc._source !== undefined) found.set(doc._id, doc._source);
    }
    return found;
  }

  /**
   * A search over a kind's index or alias. Never a partial answer: a shard that fails (a node
   * lost, a replica being promoted) fails the whole search, answered 503 with Retry-After, rather
   * than a 200 that silently lacks documents.
   */
  async search<T>(kind: IndexKind, body: estypes.SearchRequest): Promise<estypes.SearchResponse<T>> {
    return this.searchIndex<T>(this.index(kind), body);
  }

  /**
   * A search of the one range index that holds `ledgerIndex` (a ledger's own documents): its
   * shards only, however many ranges the kind has. A range never written has no hits.
   */
  async searchInRange<T>(
    kind: RangedKind,
    ledgerIndex: number,
    body: estypes.SearchRequest,
  ): Promise<estypes.SearchResponse<T>> {
    return this.searchIndex<T>(rangeAlias(this.naming, kind, ledgerIndex), { ...body, ignore_unavailable: true });
  }

  /**
   * The newest documents of a kind that grows with history: `body` sorts on `ledger_index`
   * newest first and asks `size`. The newest range is asked first, and older ones only while
   * fewer than `size` were found, instead of every range (the ranges are listed at most every
   * RANGES_TTL_MS: a range created since is seen within that time).
   */
  async searchNewest<T>(
    kind: RangedKind,
    body: estypes.SearchRequest & { size: number },
  ): Promise<estypes.SearchHit<T>[]> {
    const ranges = await this.remember(`ranges:${kind}`, RANGES_TTL_MS, async () => {
      const indices = await rangeIndices(this.client, this.naming, kind);
      // The range aliases (a rebuild swaps the index behind one), newest first: their first
      // ledgers are zero-padded, so they sort as numbers.
      return [...new Set(indices.map((name) => name.replace(/-g\d+$/, '')))].sort().reverse();
    });
    if (ranges.length === 0) return (await this.search<T>(kind, body)).hits.hits;
    const hits: estypes.SearchHit<T>[] = [];
    for (const alias of ranges) {
      const found = await this.searchIndex<T>(alias, { ...body, size: body.size - hits.length });
      hits.push(...found.hits.hits);
      if (hits.length >= body.size) break;
    }
    return hits;
  }

  /** A search of one index, alias or list of them, never a partial answer (see `search`). */
  private async searchIndex<T>(index: string, body: estypes.SearchRequest): Promise<estypes.SearchResponse<T>> {
    return complete(await this.client.search<T>({ allow_partial_search_results: false, ...body, index }));
  }

  /** Opens a point in time over the indices or aliases of some kinds (a consistent view for a long walk). */
  async openPit(kind: IndexKind | readonly IndexKind[], keepAlive: string): Promise<string> {
    const kinds = typeof kind === 'string' ? [kind] : kind;
    return (await this.client.openPointInTime({ index: kinds.map((k) => this.index(k)), keep_alive: keepAlive })).id;
  }

  /** Closes a point in time; one already expired or closed is no error. */
  async closePit(id: string): Promise<void> {
    await this.client.closePointInTime({ id }, { ignore: [404] }).catch(() => undefined);
  }

  /** A search under a point in time (the request names it; no index), never a partial answer. */
  async searchPit<T>(body: estypes.SearchRequest, signal?: AbortSignal): Promise<estypes.SearchResponse<T>> {
    return complete(
      await this.client.search<T>(
        { allow_partial_search_results: false, ...body },
        signal === undefined ? {} : { signal },
      ),
    );
  }

  /**
   * A search under a point in time whose answer comes back as bytes, filtered to `filterPath`,
   * for a reader that does not parse it whole (an export). An engine refusal is thrown as
   * searchPit throws it.
   */
  async searchPitRaw(body: estypes.SearchRequest, filterPath: string, signal?: AbortSignal): Promise<Buffer> {
    // The bytes are the engine's JSON as sent: the client asks for no compression (its
    // `compression` option is off), so nothing here would have to inflate them.
    const answer = await this.client.transport.request<NodeJS.ReadableStream>(
      {
        method: 'POST',
        path: '/_search',
        querystring: { filter_path: filterPath, allow_partial_search_results: false },
        body,
      },
      { asStream: true, meta: true, ...(signal === undefined ? {} : { signal }) },
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
    return bytes;
  }

  /**
   * Documents by id, answered from this process's cache while younger than `ttlMs`: one batched
   * lookup of the ids not cached. With `cacheMisses`, an id found missing is not asked again
   * within that time either.
   */
  async mgetCached<T>(
    kind: SingleIndexKind,
    ids: Iterable<string>,
    ttlMs: number,
    { cacheMisses = true }: { cacheMisses?: boolean } = {},
  ): Promise<Map<string, T>> {
    const cache = this.cache(`documents:${kind}`, ttlMs);
    const all = await cache.getOrLoadMany(
      ids,
      (missing) => this.mget<unknown>(kind, missing),
      cacheMisses ? null : undefined,
    );
    const found = new Map<string, T>();
    for (const [id, doc] of all) if (doc !== null) found.set(id, doc as T);
    return found;
  }

  /** What `load` answers, kept under `key` for `ttlMs` (for values every request needs, such as the newest ledger). */
  remember<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
    return this.cache(`value:${key}`, ttlMs).getOrLoad(key, load) as Promise<T>;
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
   * The readiness probe: true when the engine answers its health check within `timeoutMs`. No
   * retries, so a dead engine is known in well under a second.
   */
  async ping(timeoutMs: number): Promise<boolean> {
    return this.client.cluster.health({}, { requestTimeout: timeoutMs, maxRetries: 0 }).then(
      () => true,
      () => false,
    );
  }
}

/** A search answer as a whole: one with failed shards is a 503 (Retry-After), never a 200 that lacks documents. */
function complete<T>(found: estypes.SearchResponse<T>): estypes.SearchResponse<T> {
  if ((found._shards?.failed ?? 0) > 0)
    throw new EngineUnavailableError(new Error(`${found._shards.failed} shards failed`));
  return found;
}
