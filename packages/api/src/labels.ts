import type { Engine } from './engine.js';

/** The spec's label object (`accountName`, `parentName`, `AccountName`, ...). */
export interface Label {
  name?: string;
  username?: string;
  desc?: string;
  account: string;
  domain?: string;
  twitter?: string;
  verified?: boolean;
}

export type Labels = ReadonlyMap<string, Label>;

/**
 * Labels change only when a names import runs, and most addresses have none, so answers (found or
 * not) are kept for LABEL_TTL_MS: an import shows within that time. At most LABEL_CACHE_SIZE
 * addresses are kept per engine; the oldest go first.
 */
export const LABEL_TTL_MS = 30_000;
const LABEL_CACHE_SIZE = 50_000;
const caches = new WeakMap<Engine, Map<string, { label: Label | null; at: number }>>();

function toLabel(account: string, doc: Record<string, unknown>): Label {
  const label: Label = { account };
  for (const key of ['name', 'username', 'desc', 'domain', 'twitter', 'verified'] as const) {
    if (doc[key] !== undefined) (label as unknown as Record<string, unknown>)[key] = doc[key];
  }
  return label;
}

/** One batched lookup of every address a response mentions that is not cached. */
export async function lookupLabels(engine: Engine, addresses: Iterable<string | undefined>): Promise<Labels> {
  let cache = caches.get(engine);
  if (cache === undefined) caches.set(engine, (cache = new Map()));
  const now = performance.now();
  const labels = new Map<string, Label>();
  const missing: string[] = [];
  for (const address of new Set(addresses)) {
    if (typeof address !== 'string') continue;
    const hit = cache.get(address);
    if (hit !== undefined && now - hit.at < LABEL_TTL_MS) {
      if (hit.label !== null) labels.set(address, hit.label);
    } else missing.push(address);
  }
  if (missing.length === 0) return labels;
  const found = await engine.mget<Record<string, unknown>>('names', missing);
  for (const account of missing) {
    const doc = found.get(account);
    const label = doc === undefined ? null : toLabel(account, doc);
    if (label !== null) labels.set(account, label);
    cache.delete(account);
    cache.set(account, { label, at: now });
  }
  for (const oldest of cache.keys()) {
    if (cache.size <= LABEL_CACHE_SIZE) break;
    cache.delete(oldest);
  }
  return labels;
}

export function labelOf(labels: Labels, address: unknown): Label | null {
  return typeof address === 'string' ? (labels.get(address) ?? null) : null;
}
