import type { Json } from '@xle/documents';
import type { Engine } from '../engine.js';
import { toLabel, type Label, type Labels } from '../shapers/labels.js';

/**
 * Labels change only when a names import runs, and most addresses have none, so answers (found or
 * not) are kept for LABEL_TTL_MS: an import shows within that time.
 */
export const LABEL_TTL_MS = 30_000;

/** The enrichment step of every answer that names accounts: one batched lookup of the uncached addresses. */
export async function lookupLabels(engine: Engine, addresses: Iterable<string | undefined>): Promise<Labels> {
  // Pseudo-transactions (UNLModify, EnableAmendment, SetFee) carry an empty Account: no label, no lookup.
  const wanted = [...addresses].filter((a): a is string => typeof a === 'string' && a !== '');
  const found = await engine.mgetCached<Json>('names', wanted, LABEL_TTL_MS);
  const labels = new Map<string, Label>();
  for (const [account, doc] of found) labels.set(account, toLabel(account, doc));
  return labels;
}
