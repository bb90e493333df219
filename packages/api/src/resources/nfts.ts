import { NotFoundError } from '@xle/core';
import type { Json, NftDoc } from '@xle/documents';
import type { Engine } from '../engine.js';
import { enrichTransactions } from '../enrich/transactions.js';
import { buildNftActivityQuery } from '../queries/activity.js';
import { transactionsOfActivity, type ActivityEntry } from './activity.js';
import { markedPage, type PageRequest } from './pages.js';
import { buildIssuerNftsQuery, buildNftBurnQuery, buildNftPageQuery, type IssuerNftFilter } from '../queries/nfts.js';
import { shapeBurnedNft, shapeHeldNft, shapeNftDoc, type PageToken } from '../shapers/nft.js';
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

/** Whether an NFT is in the indexed ledgers at all: in the NFT index, or on a live NFToken page. */
async function isKnownNft(engine: Engine, id: string): Promise<boolean> {
  if ((await engine.get('nfts', id)) !== undefined) return true;
  return (await engine.search('objects', { ...buildNftPageQuery(id), _source: false })).hits.hits.length > 0;
}

export type { PageRequest };

/**
 * GET /nft/{NFTOKEN_ID}/history: one page of the transactions that named or changed the NFT,
 * oldest first (newest first with `newestFirst`); 404 when the NFT appears nowhere (an NFT on a
 * live page that no indexed transaction touched has an empty history).
 */
export async function nftHistory(
  engine: Engine,
  nftId: string,
  { limit, marker, newestFirst }: PageRequest & { newestFirst: boolean },
): Promise<Json> {
  const id = nftId.toUpperCase();
  const scope = `nft-history:${id}:${newestFirst ? 'desc' : 'asc'}`;
  // The NFT's documents of the activity index (one shard), then its transactions by id.
  const { hits, next } = await markedPage<ActivityEntry>(engine, { activity: id }, scope, { limit, marker }, (after) =>
    buildNftActivityQuery(id, limit, newestFirst, after),
  );
  if (hits.length === 0 && marker === undefined && !(await isKnownNft(engine, id)))
    throw new NotFoundError(`NFT ${id} is not in the indexed ledgers.`, { nft_id: id });
  const docs = await transactionsOfActivity(engine, hits);
  const answer: Json = {
    nft_id: id,
    transactions: shapeTransactions(docs, await enrichTransactions(engine, docs)),
    limit,
  };
  if (next !== undefined) answer.marker = next;
  return answer;
}

/** GET /nfts?issuer=: one page of an issuer's NFTs (of one taxon, burned or not), in mint order. */
export async function issuerNfts(
  engine: Engine,
  filter: IssuerNftFilter,
  { limit, marker }: PageRequest,
): Promise<Json> {
  const scope = `nfts:${filter.issuer}:${filter.taxon ?? '*'}:${filter.burned ?? '*'}`;
  const { hits, next } = await markedPage<NftDoc>(engine, 'nfts', scope, { limit, marker }, (after) =>
    buildIssuerNftsQuery(filter, limit, after),
  );
  const answer: Json = {
    issuer: filter.issuer,
    nfts: hits.flatMap((h) => (h._source === undefined ? [] : [shapeNftDoc(h._source)])),
    limit,
  };
  if (filter.taxon !== undefined) answer.taxon = filter.taxon;
  if (next !== undefined) answer.marker = next;
  return answer;
}
