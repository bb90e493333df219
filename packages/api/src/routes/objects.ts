import Type from 'typebox';
import { defineRoute, NoParams, NoQuery, type AnyRoute } from '@xle/core';
import type { Engine } from '../engine.js';
import { ammInfo, ammPools } from '../resources/amm.js';
import { wellKnownNames } from '../resources/data-sets.js';
import { nftById } from '../resources/nfts.js';
import { ledgerObject } from '../resources/objects.js';
import { AccountParam, HashParam, ObjectIdParam } from '../schemas/params.js';
import { LimitOffsetQuery } from '../schemas/queries.js';
import { AmmInfo, AmmPools, LedgerObject, NftInfo, WellKnownAccounts } from '../schemas/responses/objects.js';

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
