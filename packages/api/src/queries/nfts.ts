import type { estypes } from '@elastic/elasticsearch';
import { liveObjects } from './accounts.js';

/** The NFToken pages of one owner: their ids start with the owner's AccountID (XLS-20) (pure). */
export function buildOwnedNftPagesQuery(ownerIdHex: string): estypes.SearchRequest {
  return {
    query: liveObjects('NFTokenPage', { prefix: { index: ownerIdHex } }),
    sort: [{ index: { order: 'asc' } }],
    size: 10000,
    _source: ['NFTokens'],
  };
}

/** The live NFToken page that holds one NFT (pure). */
export function buildNftPageQuery(id: string): estypes.SearchRequest {
  return { query: liveObjects('NFTokenPage', { term: { 'NFTokens.NFToken.NFTokenID': id } }), size: 1 };
}

/** The newest successful burn of one NFT (pure). */
export function buildNftBurnQuery(id: string): estypes.SearchRequest {
  return {
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
  };
}

/** Most transactions an NFT's history lists. */
export const NFT_HISTORY_LIMIT = 200;

/** Legacy mints of one issuer and taxon read to find the one that minted an NFT. */
export const NFT_MINT_CANDIDATES = 1000;

/**
 * The transactions that name one NFT: offers, accepts, burns and modifications carry it as
 * `NFTokenID`, and rippled 1.11+ metadata names it as `meta.nftoken_id` (mint, accept) or among
 * `meta.nftoken_ids` (offer cancels); newest first (pure).
 */
export function buildNftTransactionsQuery(id: string): estypes.SearchRequest {
  return {
    query: {
      bool: {
        should: [
          { term: { NFTokenID: id } },
          { term: { 'meta.nftoken_id': id } },
          { term: { 'meta.nftoken_ids': id } },
        ],
        minimum_should_match: 1,
      },
    },
    sort: [{ ledger_index: { order: 'desc' } }, { 'meta.TransactionIndex': { order: 'desc' } }],
    size: NFT_HISTORY_LIMIT,
  };
}

/**
 * Successful mints of one issuer and taxon whose metadata does not name the NFT it minted
 * (written before rippled 1.11): the caller finds the one whose NFTokenPage nodes added the NFT.
 * An issuer mints itself (`Account`) or through an authorised minter (`Issuer`). Only the hash
 * and the metadata are read (pure).
 */
export function buildNftMintCandidatesQuery(issuer: string, taxon: number): estypes.SearchRequest {
  return {
    query: {
      bool: {
        filter: [
          { term: { TransactionType: 'NFTokenMint' } },
          { term: { NFTokenTaxon: taxon } },
          { term: { 'meta.TransactionResult': 'tesSUCCESS' } },
          {
            bool: {
              should: [
                { term: { Issuer: issuer } },
                { bool: { filter: [{ term: { Account: issuer } }], must_not: [{ exists: { field: 'Issuer' } }] } },
              ],
              minimum_should_match: 1,
            },
          },
        ],
        must_not: [{ exists: { field: 'meta.nftoken_id' } }],
      },
    },
    sort: [{ ledger_index: { order: 'desc' } }],
    size: NFT_MINT_CANDIDATES,
    _source: ['hash', 'meta.AffectedNodes'],
  };
}
