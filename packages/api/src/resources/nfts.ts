import { parseNFTokenID } from 'xrpl';
import { NotFoundError } from '@xle/core';
import { nftPageChanges, type Json } from '@xle/documents';
import type { Engine } from '../engine.js';
import { enrichTransactions } from '../enrich/transactions.js';
import {
  buildNftBurnQuery,
  buildNftMintCandidatesQuery,
  buildNftPageQuery,
  buildNftTransactionsQuery,
  NFT_HISTORY_LIMIT,
} from '../queries/nfts.js';
import { buildTxByHashesQuery } from '../queries/lookups.js';
import { shapeBurnedNft, shapeHeldNft, type PageToken } from '../shapers/nft.js';
import { shapeTransactions } from '../shapers/transaction.js';

/** GET /nft/{NFTOKEN_ID}: the NFT on its owner's page, else its burn; 404 when neither is indexed. */
export async function nftById(engine: Engine, nftId: string): Promise<Json> {
  const id = nftId.toUpperCase();
  const page = await engine.search<{ index: string; ledger_index: number; NFTokens?: PageToken[] }>(
    'objects',
    buildNftPageQuery(id),
  );
  const held = page.hits.hits[0]?._source;
  if (held !== undefined) return shapeHeldNft(id, held);
  // Not on any page: burned, if a burn of it is indexed.
  const burn = await engine.search<Json>('transactions', buildNftBurnQuery(id));
  const burned = burn.hits.hits[0]?._source;
  if (burned !== undefined) return shapeBurnedNft(id, burned);
  throw new NotFoundError(`NFT ${id} is not in the indexed ledgers.`, { nft_id: id });
}

const byLedgerOrderDesc = (a: Json, b: Json): number =>
  Number(b.ledger_index) - Number(a.ledger_index) ||
  Number((b.meta as Json | undefined)?.TransactionIndex ?? 0) -
    Number((a.meta as Json | undefined)?.TransactionIndex ?? 0);

/**
 * The indexed transactions of one NFT, newest first (at most NFT_HISTORY_LIMIT), shaped like the
 * REST transactions: those that name it, and its mint when the mint's metadata predates
 * `meta.nftoken_id` (found among the issuer's mints of that taxon by the pages it added).
 */
export async function nftTransactions(engine: Engine, nftId: string): Promise<Json[]> {
  const id = nftId.toUpperCase();
  const { Issuer: issuer, Taxon: taxon } = parseNFTokenID(id);
  const [named, candidates] = await Promise.all([
    engine.search<Json>('transactions', buildNftTransactionsQuery(id)),
    engine.search<{ hash: string; meta?: Json }>('transactions', buildNftMintCandidatesQuery(issuer, taxon)),
  ]);
  const docs = named.hits.hits.map((h) => h._source ?? {});
  const seen = new Set(docs.map((d) => String(d.hash)));
  const mints = candidates.hits.hits
    .map((h) => h._source)
    .filter((c) => c !== undefined && !seen.has(c.hash) && nftPageChanges(c.meta).added.includes(id))
    .map((c) => (c as { hash: string }).hash);
  if (mints.length > 0) {
    const found = await engine.search<Json>('transactions', buildTxByHashesQuery(mints));
    docs.push(...found.hits.hits.map((h) => h._source ?? {}));
  }
  const newest = docs.sort(byLedgerOrderDesc).slice(0, NFT_HISTORY_LIMIT);
  return shapeTransactions(newest, await enrichTransactions(engine, newest));
}
