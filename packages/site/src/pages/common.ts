import { DataNotReadyError, NotFoundError } from '@xle/core';
import { tokenId } from '@xle/documents';
import type { Engine } from '@xle/api/engine';
import { knownAccounts } from '@xle/api/resources/accounts';
import { ammAssetsOf } from '@xle/api/resources/amm';
import { knownTokenIds } from '@xle/api/resources/tokens';
import { indexedTransactions } from '@xle/api/resources/transactions';
import { poolName } from '../model/amm.js';
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

/** At most this many addresses of a page are checked for being AMM pools (one terms query). */
const POOL_CHECKS = 1024;

/** Every address an answer names, in any field, up to POOL_CHECKS of them. */
export function addressesIn(...answers: unknown[]): Set<string> {
  const found = new Set<string>();
  for (const answer of answers)
    walk(answer, (record) => {
      for (const value of Object.values(record))
        if (typeof value === 'string' && found.size < POOL_CHECKS && ADDRESS.test(value)) found.add(value);
    });
  return found;
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

/** What a page names besides its answers' amounts and labels, to be checked before it is linked. */
export interface LinkChecks {
  /** Token ids to check beside those in the answers. */
  tokens?: Iterable<string>;
  /** Transactions ledger state names (PreviousTxnID, an activation's hash). */
  txs?: Iterable<string>;
  /** Addresses ledger state names (a regular key, a signer, an escrow's destination, an NFT's issuer). */
  accounts?: Iterable<string>;
}

/**
 * The enrichment step of a page: the labels its answers carry, and which of the tokens,
 * transactions and accounts it names have a page (one batched lookup each, in parallel), so that
 * a link is rendered only where its page answers.
 */
export async function linkContext(
  engine: Engine,
  answers: readonly unknown[],
  checks: LinkChecks = {},
): Promise<LinkContext> {
  const tokens = tokensIn(...answers);
  for (const id of checks.tokens ?? []) tokens.add(id);
  const named = addressesIn(...answers);
  for (const account of checks.accounts ?? []) if (named.size < POOL_CHECKS) named.add(account);
  // Every address the page names, so that a link is rendered only where its page answers (an
  // amount's issuer, say, that no indexed transaction is filed under).
  const accounts = [...named];
  const [knownTokens, txs, known, amms] = await Promise.all([
    knownTokenIds(engine, tokens),
    indexedTransactions(engine, checks.txs ?? []),
    knownAccounts(engine, accounts),
    ammAssetsOf(engine, named),
  ]);
  return {
    names: namesIn(...answers),
    tokens: knownTokens,
    txs,
    unknownAccounts: new Set(accounts.filter((a) => !known.has(a))),
    pools: new Map([...amms].map(([account, amm]) => [account, poolName(amm.Asset, amm.Asset2)])),
  };
}
