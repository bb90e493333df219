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

/** One batched lookup of every address a response mentions. */
export async function lookupLabels(engine: Engine, addresses: Iterable<string | undefined>): Promise<Labels> {
  const ids = [...new Set([...addresses].filter((a): a is string => typeof a === 'string'))];
  const found = await engine.mget<Label & { source?: string; version?: string; updated_at?: string }>('names', ids);
  const labels = new Map<string, Label>();
  for (const [account, doc] of found) {
    const label: Label = { account };
    for (const key of ['name', 'username', 'desc', 'domain', 'twitter', 'verified'] as const) {
      if (doc[key] !== undefined) (label as unknown as Record<string, unknown>)[key] = doc[key];
    }
    labels.set(account, label);
  }
  return labels;
}

export function labelOf(labels: Labels, address: unknown): Label | null {
  return typeof address === 'string' ? (labels.get(address) ?? null) : null;
}
