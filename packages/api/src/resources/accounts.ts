import { decodeAccountID } from 'xrpl';
import { NotFoundError } from '@xle/core';
import { obligationsOf, rawEntry, trustLineOf, type Json, type TrustLine } from '@xle/documents';
import type { Engine } from '../engine.js';
import { lookupLabels } from '../enrich/labels.js';
import {
  buildAccountObjectsQuery,
  buildAccountsNamedQuery,
  buildActivationsQuery,
  buildOwnedObjectsQuery,
} from '../queries/accounts.js';
import { buildOwnedNftPagesQuery } from '../queries/nfts.js';
import {
  accountSettings,
  heldLines,
  shapeAccount,
  shapeActivations,
  shapeAncestry,
  shapeAssets,
  shapeDepositPreauths,
  shapeEscrows,
  shapeObligation,
  shapeOrders,
  shapeTrustLines,
  shapeWalletKyc,
} from '../shapers/account.js';
import { shapeOwnedNfts, type PageToken } from '../shapers/nft.js';
import { latestLedger } from './ledgers.js';

/** The longest activation chain walked (a loop in bad data cannot hold a request). */
const MAX_ANCESTRY = 1000;

/** The live account document; 404 when the account is not in the indexed ledgers. */
async function accountDocument(engine: Engine, account: string): Promise<Json> {
  const doc = await engine.get<Json>('accounts', account);
  if (doc === undefined || doc.deleted === true)
    throw new NotFoundError(`Account ${account} is not found in the indexed ledgers.`, { account });
  return doc;
}

async function search(
  engine: Engine,
  kind: 'objects' | 'accounts',
  request: Parameters<Engine['search']>[1],
): Promise<Json[]> {
  return (await engine.search<Json>(kind, request)).hits.hits.map((h) => h._source ?? {});
}

/** The account's trust lines, as account_lines shows them. */
async function trustLines(engine: Engine, account: string): Promise<TrustLine[]> {
  const entries = await search(engine, 'objects', buildAccountObjectsQuery(account, 'RippleState'));
  return entries.map((e) => trustLineOf(rawEntry(e), account));
}

/** GET /account/{ACCOUNT}: the account root, its settings, activation and labels. */
export async function accountInfo(engine: Engine, account: string): Promise<Json> {
  const doc = await accountDocument(engine, account);
  return shapeAccount(doc, await lookupLabels(engine, [account, doc.parent as string | undefined]));
}

/** GET /account/{ACCOUNT}/settings. */
export async function accountSettingsOf(engine: Engine, account: string): Promise<Json> {
  return accountSettings(await accountDocument(engine, account));
}

/** GET /account/{ACCOUNT}/activations: the accounts it activated, oldest first. */
export async function accountActivations(engine: Engine, account: string): Promise<Json> {
  const docs = await search(engine, 'accounts', buildActivationsQuery(account));
  return shapeActivations(docs, await lookupLabels(engine, [account]));
}

/** GET /account/{ACCOUNT}/ancestry: the chain of activating accounts, read one parent at a time. */
export async function accountAncestry(engine: Engine, account: string): Promise<Json> {
  const chain: Json[] = [];
  const seen = new Set<string>();
  for (let current: string | undefined = account; current !== undefined && !seen.has(current);) {
    if (chain.length >= MAX_ANCESTRY) break;
    seen.add(current);
    const doc: Json | undefined = await engine.get<Json>('accounts', current);
    if (doc === undefined) break;
    chain.push(doc);
    current = typeof doc.parent === 'string' ? doc.parent : undefined;
  }
  if (chain.length === 0)
    throw new NotFoundError(`Account ${account} is not found in the indexed ledgers.`, { account });
  return shapeAncestry(
    account,
    chain,
    await lookupLabels(
      engine,
      chain.map((d) => d.Account as string),
    ),
  );
}

/** GET /account/{ACCOUNT}/escrows: escrows the account created. */
export async function accountEscrows(engine: Engine, account: string): Promise<Json[]> {
  const entries = await search(engine, 'objects', buildOwnedObjectsQuery(account, 'Escrow'));
  return shapeEscrows(entries, await lookupLabels(engine, [account]));
}

/** GET /account/{ACCOUNT}/deposit_preauths. */
export async function accountDepositPreauths(engine: Engine, account: string): Promise<Json[]> {
  return shapeDepositPreauths(await search(engine, 'objects', buildOwnedObjectsQuery(account, 'DepositPreauth')));
}

/** GET /account/{ACCOUNT}/orders: its outstanding DEX offers. */
export async function accountOrders(engine: Engine, account: string): Promise<Json[]> {
  return shapeOrders(await search(engine, 'objects', buildOwnedObjectsQuery(account, 'Offer')));
}

/** GET /account/{ACCOUNT}/trustlines2: its trust lines with the newest indexed ledger. */
export async function accountTrustLines(engine: Engine, account: string): Promise<Json> {
  const [lines, latest] = await Promise.all([trustLines(engine, account), latestLedger(engine)]);
  return shapeTrustLines(account, lines, latest.ledger_index);
}

/** GET /account/{ACCOUNT}/assets: tokens it holds, with their issuers' labels. */
export async function accountAssets(engine: Engine, account: string): Promise<Json[]> {
  const held = heldLines(await trustLines(engine, account));
  return shapeAssets(
    held,
    await lookupLabels(
      engine,
      held.map((l) => l.account),
    ),
  );
}

/** GET /account/{ACCOUNT}/obligations: what it issued, per currency. */
export async function accountObligations(engine: Engine, account: string): Promise<Json[]> {
  return obligationsOf(await trustLines(engine, account));
}

/** GET /account/{ACCOUNT}/obligation/{TOKEN_ID}: the outstanding amount of one token it issued. */
export async function accountObligation(engine: Engine, account: string, code: string): Promise<number> {
  return shapeObligation(await trustLines(engine, account), code);
}

/** GET /account/{ACCOUNT}/nfts: the NFTs on its NFToken pages. */
export async function accountNfts(engine: Engine, account: string): Promise<Json[]> {
  const owner = Buffer.from(decodeAccountID(account)).toString('hex').toUpperCase();
  const found = await engine.search<{ NFTokens?: PageToken[] }>('objects', buildOwnedNftPagesQuery(owner));
  return shapeOwnedNfts(found.hits.hits.map((h) => h._source ?? {}));
}

/** GET /account/{ACCOUNT}/walletkyc: its KYC status (false when no import lists it). */
export async function accountWalletKyc(engine: Engine, account: string): Promise<Json> {
  return shapeWalletKyc(account, await engine.get<{ kycApproved: boolean }>('kyc', account));
}

/**
 * Which of these addresses the indexed data knows: an account document (live or deleted), an
 * indexed transaction that names it, or a live trust line of it. These are the accounts whose
 * page answers; an address a ledger entry merely names (a regular key never used, an NFT issuer
 * outside the indexed ledgers) is not one of them. The account documents are read first, by id:
 * with the history indexed from the network's first ledger every activated account has one, so
 * the transactions (every range's shards) and the trust lines are searched only for the addresses
 * left, those two in parallel.
 */
export async function knownAccounts(engine: Engine, addresses: Iterable<string>): Promise<Set<string>> {
  const wanted = [...new Set(addresses)];
  if (wanted.length === 0) return new Set();
  const known = new Set((await engine.mget<Json>('accounts', wanted)).keys());
  const rest = wanted.filter((a) => !known.has(a));
  if (rest.length === 0) return known;
  const keys = (answer: Awaited<ReturnType<Engine['search']>>): string[] =>
    ((answer.aggregations?.named as { buckets?: { key: string }[] } | undefined)?.buckets ?? []).map((b) => b.key);
  const [transactions, lines] = await Promise.all([
    engine.search('transactions', buildAccountsNamedQuery(rest)),
    engine.search('objects', buildAccountsNamedQuery(rest, true)),
  ]);
  return new Set([...known, ...keys(transactions), ...keys(lines)]);
}
