import { NotFoundError } from '@xle/core';
import type { Json } from '@xle/documents';
import type { Engine } from '../engine.js';
import { buildNftBurnQuery, buildNftPageQuery } from '../queries/nfts.js';
import { shapeBurnedNft, shapeHeldNft, type PageToken } from '../shapers/nft.js';

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
