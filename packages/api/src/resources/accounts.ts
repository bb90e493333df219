import { decodeAccountID, hashes } from 'xrpl';
import { BadRequestError, ErrorCode, NotFoundError } from '@xle/core';
import { obligationsOf, rawEntry, trustLineOf, type Json, type TrustLine } from '@xle/documents';
import type { Engine } from '../engine.js';
import { lookupLabels } from '../enrich/labels.js';
import type { Context } from 'koa';
import {
  buildAccountObjectsQuery,
  buildAccountsNamedQuery,
  buildAccountsWithHistoryQuery,
  buildActivationsQuery,
  buildOwnedObjectsQuery,
  pageOf,
} from '../queries/accounts.js';
import { markedPage, type PageRequest } from './pages.js';
import { buildOwnedNftPagesQuery } from '../queries/nfts.js';
import { decodePageMarker, encodePageMarker } from '../queries/markers.js';
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
  const doc = await engine.getThreaded<Json>('accounts', account, hashes.hashAccountRoot(account));
  if (doc === undefined || doc.deleted === true)
    throw new NotFoundError(`Account ${account} is not found in the indexed ledgers.`, { account });
  return doc;
}

/** Trust lines read a page at a time when all of them are summed. */
const LINES_PER_READ = 5000;

/**
 * Every trust line of the account, as account_lines shows them: all of them, however many (an
 * issuer has up to millions), so sums over them are exact.
 */
async function trustLines(engine: Engine, account: string): Promise<TrustLine[]> {
  const lines: TrustLine[] = [];
  const request = buildAccountObjectsQuery(account, 'RippleState');
  for await (const page of engine.hits<Json>('objects', request, { pageSize: LINES_PER_READ }))
    for (const hit of page.hits) lines.push(trustLineOf(rawEntry(hit._source ?? {}), account));
  return lines;
}

/** What a list route asks: how many, and from where. */
export type ListPage = PageRequest;

/**
 * One page of a sorted list (`request` in a unique sort order) whose marker belongs to `scope`:
 * the documents, and the marker of the next page when more exist.
 */
async function listPage(
  engine: Engine,
  kind: 'objects' | 'accounts',
  request: Parameters<Engine['search']>[1],
  scope: string,
  page: ListPage,
): Promise<{ docs: Json[]; next?: string }> {
  const { hits, next } = await markedPage<Json>(engine, kind, scope, page, (after) =>
    pageOf(request, page.limit, after),
  );
  const docs = hits.map((h) => h._source ?? {});
  return next === undefined ? { docs } : { docs, next };
}

/** Says where the next page of an array answer is (RFC 8288 `Link`, rel="next"). */
/** rippled's order of the NFTs in a page: by the low 96 bits of the id, then the whole id (pure). */
function nftOrder(a: string, b: string): number {
  const [x, y] = [a.slice(-24), b.slice(-24)];
  if (x !== y) return x < y ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The NFT a `/nfts` marker names, or a 400 for one this API did not write. */
function nftMarker(after: readonly unknown[]): string {
  const [id] = after;
  if (after.length !== 1 || typeof id !== 'string' || !/^[0-9A-F]{64}$/.test(id))
    throw new BadRequestError(
      'Invalid query parameter "marker": not one this API issued.',
      { parameter: 'marker', in: 'query' },
      ErrorCode.InvalidParameter,
    );
  return id;
}

/** NFToken pages (up to 32 NFTs each) read per engine request while a page of NFTs fills. */
const NFT_PAGES_PER_READ = 64;

function linkNext(ctx: Context | undefined, limit: number, next: string | undefined): void {
  if (ctx === undefined || next === undefined) return;
  ctx.set('Link', `<${ctx.path}?limit=${limit}&marker=${encodeURIComponent(next)}>; rel="next"`);
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

/** GET /account/{ACCOUNT}/activations: a page of the accounts it activated, oldest first. */
export async function accountActivations(engine: Engine, account: string, page: ListPage): Promise<Json> {
  const { docs, next } = await listPage(
    engine,
    'accounts',
    buildActivationsQuery(account),
    `activations:${account}`,
    page,
  );
  const answer = shapeActivations(docs, await lookupLabels(engine, [account]));
  answer.limit = page.limit;
  if (next !== undefined) answer.marker = next;
  return answer;
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

/**
 * One page of the ledger entries of a type the account owns, in id order; the next page's place
 * goes in the `Link` header (the answer is an array).
 */
async function ownedPage(
  engine: Engine,
  account: string,
  type: string,
  page: ListPage,
  ctx: Context | undefined,
): Promise<Json[]> {
  const { docs, next } = await listPage(
    engine,
    'objects',
    buildOwnedObjectsQuery(account, type),
    `${type}:${account}`,
    page,
  );
  linkNext(ctx, page.limit, next);
  return docs;
}

/** GET /account/{ACCOUNT}/escrows: a page of the escrows the account created. */
export async function accountEscrows(engine: Engine, account: string, page: ListPage, ctx?: Context): Promise<Json[]> {
  const entries = await ownedPage(engine, account, 'Escrow', page, ctx);
  return shapeEscrows(entries, await lookupLabels(engine, [account]));
}

/** GET /account/{ACCOUNT}/deposit_preauths: a page of them. */
export async function accountDepositPreauths(
  engine: Engine,
  account: string,
  page: ListPage,
  ctx?: Context,
): Promise<Json[]> {
  return shapeDepositPreauths(await ownedPage(engine, account, 'DepositPreauth', page, ctx));
}

/** GET /account/{ACCOUNT}/orders: a page of its outstanding DEX offers. */
export async function accountOrders(engine: Engine, account: string, page: ListPage, ctx?: Context): Promise<Json[]> {
  return shapeOrders(await ownedPage(engine, account, 'Offer', page, ctx));
}

/** GET /account/{ACCOUNT}/trustlines2: a page of its trust lines, with the newest indexed ledger. */
export async function accountTrustLines(engine: Engine, account: string, page: ListPage): Promise<Json> {
  const [{ docs, next }, latest] = await Promise.all([
    listPage(engine, 'objects', buildAccountObjectsQuery(account, 'RippleState'), `trustlines:${account}`, page),
    latestLedger(engine),
  ]);
  const answer = shapeTrustLines(
    account,
    docs.map((e) => trustLineOf(rawEntry(e), account)),
    latest.ledger_index,
  );
  answer.limit = page.limit;
  if (next !== undefined) answer.marker = next;
  return answer;
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
export async function accountNfts(engine: Engine, account: string, page: ListPage, ctx?: Context): Promise<Json[]> {
  const owner = Buffer.from(decodeAccountID(account)).toString('hex').toUpperCase();
  const scope = `nfts:${account}`;
  // Where the previous page ended: its last NFT. Pages merge and split as NFTs come and go, so
  // the walk starts from the page that would hold that NFT now (a page's key is the owner and the
  // low 96 bits of its last NFT) and keeps only the NFTs after it in rippled's order.
  const after = page.marker === undefined ? undefined : nftMarker(decodePageMarker(page.marker, scope));
  const taken: PageToken[] = [];
  const pages = engine.hits<{ NFTokens?: PageToken[] }>(
    'objects',
    buildOwnedNftPagesQuery(owner, after === undefined ? undefined : `${owner}${after.slice(-24)}`),
    { pageSize: NFT_PAGES_PER_READ },
  );
  for await (const batch of pages) {
    for (const { _source: held = {} } of batch.hits)
      for (const token of held.NFTokens ?? [])
        if (after === undefined || nftOrder(token.NFToken.NFTokenID, after) > 0) taken.push(token);
    if (taken.length > page.limit) break;
  }
  const shown = taken.slice(0, page.limit);
  const last = shown[shown.length - 1];
  if (taken.length > page.limit && last !== undefined)
    linkNext(ctx, page.limit, encodePageMarker(scope, [last.NFToken.NFTokenID]));
  return shapeOwnedNfts([{ NFTokens: shown }]);
}

/** GET /account/{ACCOUNT}/walletkyc: its KYC status (false when no import lists it). */
export async function accountWalletKyc(engine: Engine, account: string): Promise<Json> {
  return shapeWalletKyc(account, await engine.get<{ kycApproved: boolean }>('kyc', account));
}

/**
 * Which of these addresses the indexed data knows: an account document (live or deleted), an
 * indexed transaction filed under it (its activity), or a live trust line of it. These are the
 * accounts whose page answers; an address a ledger entry or a transaction merely names (a regular
 * key never used, the issuer of an offer that never reached the books, an NFT issuer outside the
 * indexed ledgers) is not one of them. The account documents are read first, by id: with the
 * history indexed from the network's first ledger every activated account has one, so the
 * activity index and the trust lines are searched only for the addresses left, in parallel.
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
    engine.search('activity', buildAccountsWithHistoryQuery(rest)),
    engine.search('objects', buildAccountsNamedQuery(rest, true)),
  ]);
  return new Set([...known, ...keys(transactions), ...keys(lines)]);
}
