import { h } from 'preact';
import { parseNFTokenID } from 'xrpl';
import { NotFoundError } from '@xle/core';
import type { Json } from '@xle/documents';
import type { Engine } from '@xle/api/engine';
import { nftById, nftHistory } from '@xle/api/resources/nfts';
import { HashParam } from '@xle/api/schemas/params';
import { thingPage, type AnyPage } from '../page.js';
import type { SiteChrome } from '../views/layout.js';
import { NftPage, type NftProps } from '../views/nft.js';
import { linkContext, optional } from './common.js';

/** Transactions of an NFT's history the page lists, newest first. */
const HISTORY_SHOWN = 200;

/**
 * One NFT: its state (owner, or its burn) and its indexed history (the REST route's, newest
 * first). An NFT that is on no indexed page and has no indexed burn still has a page while
 * indexed transactions name it.
 */
export async function loadNft(engine: Engine, id: string): Promise<NftProps> {
  const [nft, page] = await Promise.all([
    optional(nftById(engine, id)),
    optional(nftHistory(engine, id, { limit: HISTORY_SHOWN, newestFirst: true })),
  ]);
  const history = (page?.transactions as Json[] | undefined) ?? [];
  if (nft === undefined && history.length === 0)
    throw new NotFoundError(`NFT ${id.toUpperCase()} is not in the indexed ledgers.`, { nft_id: id.toUpperCase() });
  // Its owner (an NFToken page's owner) and its issuer (read from the id) need not be indexed accounts.
  const accounts = [parseNFTokenID(id.toUpperCase()).Issuer, ...(typeof nft?.owner === 'string' ? [nft.owner] : [])];
  return { id: id.toUpperCase(), nft, history, ctx: await linkContext(engine, [nft, history], { accounts }) };
}

/** `/nft/{NFTOKEN_ID}`. */
export function nftPage(engine: Engine, chrome: SiteChrome): AnyPage {
  return thingPage('/nft/:NFTOKEN_ID', { schema: HashParam, name: 'an NFT id', cache: 'latest' }, async (value) =>
    h(NftPage, { chrome, props: await loadNft(engine, value) }),
  );
}
