/**
 * A bounded cache whose entries live `ttlMs`: the one cache facility behind every value a process
 * keeps from the engine (labels, data-set runs, the newest ledger, table schemas, API keys).
 * Entries are dropped oldest first past `maxEntries`; concurrent loads of one key share one call.
 */
export interface TtlCacheOptions<V = unknown> {
  ttlMs: number;
  maxEntries?: number;
  /**
   * With `weigh`, the most total weight kept (bytes, say): the oldest entries are dropped past it,
   * and a value heavier than it on its own is not kept at all.
   */
  maxWeight?: number;
  weigh?: (value: V) => number;
  /** Injectable clock, in milliseconds. */
  now?: () => number;
}

export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; at: number; weight: number }>();
  private readonly loading = new Map<K, Promise<V>>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly maxWeight: number;
  private readonly weigh: ((value: V) => number) | undefined;
  private readonly now: () => number;
  /** The total weight of the entries kept (0 without `weigh`). */
  private weighed = 0;

  constructor(options: TtlCacheOptions<V>) {
    this.ttlMs = options.ttlMs;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.maxWeight = options.maxWeight ?? Infinity;
    this.weigh = options.weigh;
    this.now = options.now ?? (() => performance.now());
  }

  /** How many entries are kept, and their total weight (expired ones until they are next read or pushed out). */
  get size(): { entries: number; weight: number } {
    return { entries: this.entries.size, weight: this.weighed };
  }

  /** The value of `key` while it is fresh. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (this.now() - entry.at >= this.ttlMs) {
      this.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: K, value: V): void {
    if (this.ttlMs <= 0) return;
    const weight = this.weigh?.(value) ?? 0;
    if (!Number.isFinite(weight) || weight < 0) throw new RangeError(`a cache entry weighs ${weight}`);
    // Re-inserted so that Map order stays oldest first.
    this.delete(key);
    if (weight > this.maxWeight) return;
    this.entries.set(key, { value, at: this.now(), weight });
    this.weighed += weight;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries && this.weighed <= this.maxWeight) break;
      this.delete(oldest);
    }
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.weighed -= entry.weight;
  }

  /** The fresh value of `key`, else what `load` gives (cached; one load per key at a time). */
  async getOrLoad(key: K, load: () => Promise<V>): Promise<V> {
    const entry = this.entries.get(key);
    if (entry !== undefined && this.now() - entry.at < this.ttlMs) return entry.value;
    const pending = this.loading.get(key);
    if (pending !== undefined) return pending;
    const loaded = load().then(
      (value) => {
        this.loading.delete(key);
        this.set(key, value);
        return value;
      },
      (error: unknown) => {
        this.loading.delete(key);
        throw error;
      },
    );
    this.loading.set(key, loaded);
    return loaded;
  }

  /**
   * Fresh values of `keys`, loading the missing ones in one call: `loadMany` answers the keys it
   * knows. With `absent`, every other missing key is cached as that value (a known miss is not
   * asked again); without it, a miss is asked again next time.
   */
  async getOrLoadMany(
    keys: Iterable<K>,
    loadMany: (missing: K[]) => Promise<Map<K, V>>,
    absent?: V,
  ): Promise<Map<K, V>> {
    const found = new Map<K, V>();
    const missing: K[] = [];
    for (const key of new Set(keys)) {
      const entry = this.entries.get(key);
      if (entry !== undefined && this.now() - entry.at < this.ttlMs) found.set(key, entry.value);
      else missing.push(key);
    }
    if (missing.length === 0) return found;
    const loaded = await loadMany(missing);
    for (const key of missing) {
      if (!loaded.has(key) && absent === undefined) continue;
      const value = loaded.has(key) ? (loaded.get(key) as V) : (absent as V);
      this.set(key, value);
      found.set(key, value);
    }
    return found;
  }
}
