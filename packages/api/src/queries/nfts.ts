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
