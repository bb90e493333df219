import Type from 'typebox';
import { defineRoute, NoParams, NoQuery, type AnyRoute } from '@xle/core';
import type { Engine } from '../engine.js';
import { ammInfo, ammPools } from '../resources/amm.js';
import { wellKnownNames } from '../resources/data-sets.js';
import { issuerNfts, nftById, nftHistory } from '../resources/nfts.js';
import { ledgerObject } from '../resources/objects.js';
import { AccountParam, HashParam, ObjectIdParam } from '../schemas/params.js';
import { IssuerNftsQuery, LimitOffsetQuery, NftHistoryQuery } from '../schemas/queries.js';
import {
  AmmInfo,
  AmmPools,
  IssuerNftsPage,
  LedgerObject,
  NftInfo,
  WellKnownAccounts,
} from '../schemas/responses/objects.js';
import { NftHistoryPage } from '../schemas/responses/transactions.js';

/** NFTs, AMMs, ledger objects and labels. */
export function objectRoutes(engine: Engine): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/nft/{NFTOKEN_ID}',
      summary: 'One NFT: owner, flags, issuer, taxon, serial, URI, burned or not',
      tags: ['NFT, AMM, token'],
      params: Type.Object({ NFTOKEN_ID: HashParam }),
      query: NoQuery,
      response: NftInfo,
      cache: 'latest',
      handler: ({ params }) => nftById(engine, params.NFTOKEN_ID),
    }),
    defineRoute({
      method: 'get',
      path: '/nft/{NFTOKEN_ID}/history',
      summary: 'The history of an NFT: mint, offers, accepts, transfers and burn, with marker paging',
      description:
        'Every indexed transaction that named or changed the NFT: by its NFTokenID field, by the offers it created, accepted or cancelled, and by the NFToken pages it changed (so mints and transfers recorded before rippled added `meta.nftoken_id` are found too). Failed attempts are included with their result. 404 when the NFT appears in no indexed transaction or ledger state.',
      tags: ['NFT, AMM, token'],
      params: Type.Object({ NFTOKEN_ID: HashParam }),
      query: NftHistoryQuery,
      response: NftHistoryPage,
      cache: 'latest',
      handler: ({ params, query }) =>
        nftHistory(engine, params.NFTOKEN_ID, {
          limit: query.limit ?? 20,
          marker: query.marker,
          newestFirst: query.forward === false,
        }),
    }),
    defineRoute({
      method: 'get',
      path: '/nfts',
      summary: 'The NFTs an account issued, live and burned, in mint order, with marker paging',
      description:
        'From the NFT index the ingester keeps (every NFT seen in transaction metadata or ledger state): each NFT as /nft/{NFTOKEN_ID} shows it, filtered by taxon and by burned or live.',
      tags: ['NFT, AMM, token'],
      params: NoParams,
      query: IssuerNftsQuery,
      response: IssuerNftsPage,
      cache: 'latest',
      handler: ({ query }) =>
        issuerNfts(
          engine,
          {
            issuer: query.issuer,
            ...(query.taxon === undefined ? {} : { taxon: query.taxon }),
            ...(query.burned === undefined ? {} : { burned: query.burned }),
          },
          { limit: query.limit ?? 100, marker: query.marker },
        ),
    }),
    defineRoute({
      method: 'get',
      path: '/amm/pools',
      summary: 'AMM pools, ordered by AMM account',
      tags: ['AMM'],
      params: NoParams,
      query: LimitOffsetQuery,
      response: AmmPools,
      cache: 'latest',
      handler: ({ query }) => ammPools(engine, query.limit ?? 100, query.offset ?? 0),
    }),
    defineRoute({
      method: 'get',
      path: '/amm/{AMM_ACCOUNT}',
      summary: 'AMM info: pool balances, LP token, auction slot and votes',
      tags: ['AMM'],
      params: Type.Object({ AMM_ACCOUNT: AccountParam }),
      query: NoQuery,
      response: AmmInfo,
      cache: 'latest',
      handler: ({ params }) => ammInfo(engine, params.AMM_ACCOUNT),
    }),
    defineRoute({
      method: 'get',
      path: '/object/{OBJECT_ID}',
      summary: 'A ledger object by id, or by one of the fixed names FeeSettings, Amendments, NegativeUNL, LedgerHashes',
      tags: ['Other resources'],
      params: Type.Object({ OBJECT_ID: ObjectIdParam }),
      query: NoQuery,
      response: LedgerObject,
      cache: 'latest',
      handler: ({ params }) => ledgerObject(engine, params.OBJECT_ID),
    }),
    defineRoute({
      method: 'get',
      path: '/names/well-known',
      summary: 'Labels of well-known accounts',
      tags: ['Other resources'],
      params: NoParams,
      query: NoQuery,
      response: WellKnownAccounts,
      handler: () => wellKnownNames(engine),
    }),
  ];
}
