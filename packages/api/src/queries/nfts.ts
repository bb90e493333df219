import type { estypes } from '@elastic/elasticsearch';
import { liveObjects } from './accounts.js';

/** The NFToken pages of one owner: their ids start with the owner's AccountID (XLS-20) (pure). */
export function buildOwnedNftPagesQuery(ownerIdHex: string, fromPage?: string): estypes.SearchRequest {
  const owned: estypes.QueryDslQueryContainer = { prefix: { index: ownerIdHex } };
  return {
    query: liveObjects(
      'NFTokenPage',
      fromPage === undefined ? owned : { bool: { filter: [owned, { range: { index: { gte: fromPage } } }] } },
    ),
    sort: [{ index: { order: 'asc' } }],
    _source: ['index', 'NFTokens'],
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

/** What /nfts lists: an issuer's NFTs, of one taxon or all, burned ones in or out. */
export interface IssuerNftFilter {
  issuer: string;
  taxon?: number;
  burned?: boolean;
}

/**
 * One page of an issuer's NFTs from the nfts index (pure), in mint order: the serial is the
 * issuer's mint counter, unique per issuer; the id breaks ties between issuers never.
 */
export function buildIssuerNftsQuery(
  filter: IssuerNftFilter,
  limit: number,
  after?: estypes.FieldValue[],
): estypes.SearchRequest {
  const clauses: estypes.QueryDslQueryContainer[] = [{ term: { Issuer: filter.issuer } }];
  if (filter.taxon !== undefined) clauses.push({ term: { NFTokenTaxon: filter.taxon } });
  if (filter.burned !== undefined) clauses.push({ term: { is_burned: filter.burned } });
  return {
    query: { bool: { filter: clauses } },
    sort: [{ nft_serial: { order: 'asc' } }, { NFTokenID: { order: 'asc' } }],
    size: limit + 1,
    track_total_hits: false,
    ...(after === undefined ? {} : { search_after: after }),
  };
}
