import { errors, type estypes } from '@elastic/elasticsearch';
import {
  EngineUnavailableError,
  IndexNotFoundError,
  indexName,
  isClusterWeather,
  rangeAlias,
  TtlCache,
  type Client,
  type IndexKind,
  type IndexNaming,
  type RangedKind,
  type SingleIndexKind,
} from '@xle/core';

/** Documents kept per cached index (the oldest go first). */
const CACHE_ENTRIES = 50_000;

/**
 * The one module of the API that talks to the search engine: lookups by id, searches, the
 * readiness probe, and the process's caches of engine answers (one facility, `TtlCache`).
 */
export class Engine {
  private readonly caches = new Map<string, TtlCache<string, unknown>>();
  private readonly networks = new Map<string, Engine>();

  constructor(
    private readonly client: Client,
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
      other = new Engine(this.client, { ...this.naming, network });
      this.networks.set(network, other);
    }
    return other;
  }

  /** Whether a kind's index (or read alias) exists. */
  async exists(kind: IndexKind): Promise<boolean> {
    return this.client.indices.exists({ index: this.index(kind) });
  }

  async get<T>(kind: SingleIndexKind, id: string): Promise<T | undefined> {
    const doc = await this.client.get<T>({ index: this.index(kind), id }, { ignore: [404] });
    return doc.found ? doc._source : undefined;
  }

  /**
   * A document of a kind that grows with history, by id, from the range that holds `ledgerIndex`
   * (a read by id must name one index; the kind's alias spans every range). A range never
   * written answers 404 like a missing document.
   */
  async getInRange<T>(kind: RangedKind, ledgerIndex: number, id: string): Promise<T | undefined> {
    const doc = await this.client.get<T>({ index: rangeAlias(this.naming, kind, ledgerIndex), id }, { ignore: [404] });
    return doc.found ? doc._source : undefined;
  }

  async mget<T>(kind: SingleIndexKind, ids: readonly string[]): Promise<Map<string, T>> {
    const found = new Map<string, T>();
    if (ids.length === 0) return found;
    const result = await this.client.mget<T>({ index: this.index(kind), ids: [...new Set(ids)] });
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
    const found = await this.client.search<T>({
      allow_partial_search_results: false,
      ...body,
      index: this.index(kind),
    });
    if ((found._shards?.failed ?? 0) > 0)
      throw new EngineUnavailableError(new Error(`${found._shards.failed} shards failed`));
    return found;
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
    const found = await this.client.search<T>(
      { allow_partial_search_results: false, ...body },
      signal === undefined ? {} : { signal },
    );
    if ((found._shards?.failed ?? 0) > 0)
      throw new EngineUnavailableError(new Error(`${found._shards.failed} shards failed`));
    return found;
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
