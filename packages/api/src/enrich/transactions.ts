import type { Json } from '@xle/documents';
import type { Engine } from '../engine.js';
import type { TransactionContext } from '../shapers/transaction.js';
import { transactionLabelAddresses } from '../shapers/transaction.js';
import { lookupLabels } from './labels.js';

/** Amendment names change only when the amendments job runs. */
const AMENDMENT_NAME_TTL_MS = 30_000;

/**
 * What shaping transactions needs besides their documents: the labels of the accounts they name
 * and the names of the amendments they enable, fetched in parallel, each in one batched lookup.
 */
export async function enrichTransactions(engine: Engine, docs: readonly Json[]): Promise<TransactionContext> {
  const amendmentIds = docs.filter((d) => d.TransactionType === 'EnableAmendment').map((d) => String(d.Amendment));
  const [labels, amendments] = await Promise.all([
    lookupLabels(engine, docs.flatMap(transactionLabelAddresses)),
    engine.mgetCached<{ name?: string }>('amendments', amendmentIds, AMENDMENT_NAME_TTL_MS),
  ]);
  const amendmentNames = new Map<string, string>();
  for (const [id, amendment] of amendments) if (amendment.name !== undefined) amendmentNames.set(id, amendment.name);
  return { labels, amendmentNames };
}
