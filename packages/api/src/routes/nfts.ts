import Type from 'typebox';
import { decodeAccountID, encodeAccountID, parseNFTokenID } from 'xrpl';
import { NotFoundError } from '@xle/core';
import type { Engine } from '../engine.js';
import { AccountParam, HashParam } from '../schemas/params.js';
import { AnyObject, defineRoute, NoQuery, type AnyRoute } from '../route.js';

type Json = Record<string, unknown>;

/** NFToken flags (XLS-20), by bit. */
const NFT_FLAGS: [number, string][] = [
  [0x0001, 'tfBurnable'],
  [0x0002, 'tfOnlyXRP'],
  [0x0004, 'tfTrustLine'],
  [0x0008, 'tfTransferable'],
  [0x0010, 'tfMutable'],
];

export function parseNftFlags(flags: number): string[] {
  return NFT_FLAGS.filter(([bit]) => (flags & bit) !== 0).map(([, name]) => name);
}

/** An NFTokenPage's id starts with its owner's 160-bit AccountID (XLS-20). */
export function pageOwner(pageIndex: string): string {
  return encodeAccountID(Buffer.from(pageIndex.slice(0, 40), 'hex'));
}

interface PageToken {
  NFToken: { NFTokenID: string; URI?: string };
}

/** The spec's "NFT owned by account" entry (pure). */
export function shapeOwnedNft(token: PageToken['NFToken']): Json {
  const parsed = parseNFTokenID(token.NFTokenID);
  const out: Json = {
    Flags: parsed.Flags,
    Issuer: parsed.Issuer,
    NFTokenID: token.NFTokenID,
    NFTokenTaxon: parsed.Taxon,
    TransferFee: parsed.TransferFee,
    nft_serial: parsed.Sequence,
  };
  if (token.URI !== undefined) out.URI = token.URI;
  return out;
}

/** The spec's NFT info (pure). */
export function shapeNftInfo(id: string, owner: string, ledgerIndex: number, burned: boolean, uri?: string): Json {
  const parsed = parseNFTokenID(id);
  return {
    nft_id: id,
    ledger_index: ledgerIndex,
    owner,
    is_burned: burned,
    flags: parsed.Flags,
    flags_parsed: parseNftFlags(parsed.Flags),
    transfer_fee: parsed.TransferFee,
    issuer: parsed.Issuer,
    nft_taxon: parsed.Taxon,
    nft_serial: parsed.Sequence,
    uri: uri ?? '',
    validated: true,
  };
}

export function nftRoutes(engine: Engine): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/account/{ACCOUNT}/nfts',
      summary: 'NFTs the account owns, from its NFToken pages',
      tags: ['Account'],
      params: Type.Object({ ACCOUNT: AccountParam }),
      query: NoQuery,
      response: Type.Array(AnyObject),
      handler: async (_ctx, { params }) => {
        const prefix = Buffer.from(decodeAccountID(params.ACCOUNT)).toString('hex').toUpperCase();
        const found = await engine.search<{ NFTokens?: PageToken[] }>('objects', {
          query: {
            bool: {
              filter: [
                { term: { LedgerEntryType: 'NFTokenPage' } },
                { term: { deleted: false } },
                { prefix: { index: prefix } },
              ],
            },
          },
          sort: [{ index: { order: 'asc' } }],
          size: 10000,
          _source: ['NFTokens'],
        });
        return found.hits.hits.flatMap((h) => (h._source?.NFTokens ?? []).map((t) => shapeOwnedNft(t.NFToken)));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/nft/{NFTOKEN_ID}',
      summary: 'One NFT: owner, flags, issuer, taxon, serial, URI, burned or not',
      tags: ['NFT, AMM, token'],
      params: Type.Object({ NFTOKEN_ID: HashParam }),
      query: NoQuery,
      response: AnyObject,
      handler: async (_ctx, { params }) => {
        const id = params.NFTOKEN_ID.toUpperCase();
        const page = await engine.search<{ index: string; ledger_index: number; NFTokens?: PageToken[] }>('objects', {
          query: {
            bool: {
              filter: [
                { term: { LedgerEntryType: 'NFTokenPage' } },
                { term: { deleted: false } },
                { term: { 'NFTokens.NFToken.NFTokenID': id } },
              ],
            },
          },
          size: 1,
        });
        const held = page.hits.hits[0]?._source;
        if (held !== undefined) {
          const token = held.NFTokens?.find((t) => t.NFToken.NFTokenID === id)?.NFToken;
          return shapeNftInfo(id, pageOwner(held.index), held.ledger_index, false, token?.URI);
        }
        // Not on any page: burned, if a burn of it is indexed.
        const burn = await engine.search<Json>('transactions', {
          query: {
            bool: {
              filter: [
                { term: { TransactionType: 'NFTokenBurn' } },
                { term: { NFTokenID: id } },
                { term: { 'meta.TransactionResult': 'tesSUCCESS' } },
              ],
            },
          },
          sort: [{ ledger_index: { order: 'desc' } }],
          size: 1,
        });
        const burned = burn.hits.hits[0]?._source;
        if (burned !== undefined)
          return shapeNftInfo(id, String(burned.Owner ?? burned.Account), Number(burned.ledger_index), true);
        throw new NotFoundError(`NFT ${id} is not in the indexed ledgers.`, { nft_id: id });
      },
    }),
  ];
}
