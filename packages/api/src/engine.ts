import type { estypes } from '@elastic/elasticsearch';
import {
  indexName,
  rangeAlias,
  rangeIndices,
  type HitPage,
  type HitWalkOptions,
  type IndexKind,
  type IndexNaming,
  type RangedKind,
  type RawHit,
  type ReadEngine,
  type SingleIndexKind,
} from '@xle/core';

/** How long the list of a kind's ranges is kept (`searchNewest`). */
const RANGES_TTL_MS = 5000;

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

  /**
   * A search over a kind's index or alias (never a partial answer: see ReadEngine.search).
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
      const indices = await rangeIndices(this.read.client, this.naming, kind);
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
    return this.read.search<T>({ ...body, index });
  }

  /**
   * A walk of every document of some kinds under one point in time, each as the engine's bytes
   * (see ReadEngine.rawHits): `request` sorts and filters, `options` resumes, prefetches, aborts.
   */
  rawHits(
    kinds: readonly IndexKind[],
    request: estypes.SearchRequest,
    options: Omit<HitWalkOptions, 'pit'> & { keepAlive: string },
  ): AsyncGenerator<HitPage<RawHit>> {
    const { keepAlive, ...walk } = options;
    return this.read.rawHits(request, { ...walk, pit: { index: kinds.map((k) => this.index(k)), keepAlive } });
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
