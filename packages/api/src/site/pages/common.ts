import { DataNotReadyError, NotFoundError } from '@xle/core';
import { tokenId } from '@xle/documents';
import type { Engine } from '../../engine.js';
import { knownTokenIds } from '../../resources/tokens.js';
import { indexedTransactions } from '../../resources/transactions.js';
import type { LinkContext } from '../views/parts.js';

/**
 * What a part of a page that may be missing answers: undefined when the resource is not indexed
 * (404) or its data set not computed yet (DATA_NOT_READY), so the page shows the rest and says
 * so; an engine failure still fails the page (503).
 */
export async function optional<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof DataNotReadyError) return undefined;
    throw error;
  }
}

const ADDRESS = /^r[1-9A-HJ-NP-Za-km-z]{24,34}$/;

function walk(value: unknown, visit: (record: Record<string, unknown>) => void, depth = 0): void {
  if (depth > 12 || typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) walk(item, visit, depth + 1);
    return;
  }
  const record = value as Record<string, unknown>;
  visit(record);
  for (const child of Object.values(record)) walk(child, visit, depth + 1);
}

/** The account labels the REST answers carry (`accountName`, `AccountName`, `counterpartyName`…), by address. */
export function namesIn(...answers: unknown[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const answer of answers)
    walk(answer, (record) => {
      const name = record.name ?? record.username;
      if (typeof record.account === 'string' && typeof name === 'string' && name !== '')
        names.set(record.account, name);
    });
  return names;
}

/** Every token id an answer names: amounts (`{currency, issuer}`) and held or issued balances. */
export function tokensIn(...answers: unknown[]): Set<string> {
  const ids = new Set<string>();
  const add = (currency: unknown, issuer: unknown): void => {
    if (typeof currency !== 'string' || typeof issuer !== 'string' || !ADDRESS.test(issuer)) return;
    const id = tokenId(currency, issuer);
    if (id !== undefined) ids.add(id);
  };
  for (const answer of answers)
    walk(answer, (record) => {
      add(record.currency, record.issuer);
      add(record.currency, record.counterparty);
      if (typeof record.token === 'string') ids.add(record.token);
    });
  return ids;
}

/**
 * The enrichment step of a page: the labels its answers carry, which of the tokens it names have a
 * page, and which transactions named by ledger state are indexed (one batched lookup each), so that
 * a link is rendered only where its page answers.
 */
export async function linkContext(
  engine: Engine,
  answers: readonly unknown[],
  extraTokens: Iterable<string> = [],
  stateTxs: Iterable<string> = [],
): Promise<LinkContext> {
  const tokens = tokensIn(...answers);
  for (const id of extraTokens) tokens.add(id);
  const [knownTokens, txs] = await Promise.all([knownTokenIds(engine, tokens), indexedTransactions(engine, stateTxs)]);
  return { names: namesIn(...answers), tokens: knownTokens, txs };
}
