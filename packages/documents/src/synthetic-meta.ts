import { decodeAccountID } from 'xrpl';
import { deliveredAmount } from './delivered-amount.js';
import { nftPageChanges } from './nft.js';
import { isRecord, type Json } from './json.js';

/** The nodes of one kind and entry type in a transaction's metadata (pure). */
function nodesOf(meta: Json, kind: 'CreatedNode' | 'ModifiedNode' | 'DeletedNode', type: string): Json[] {
  const found: Json[] = [];
  for (const wrapper of Array.isArray(meta.AffectedNodes) ? (meta.AffectedNodes as unknown[]) : []) {
    if (!isRecord(wrapper)) continue;
    const node = wrapper[kind];
    if (isRecord(node) && node.LedgerEntryType === type) found.push(node);
  }
  return found;
}

/**
 * The MPTokenIssuance id rippled derives for an issuance: the issuer's sequence (32 bits, big
 * endian) followed by its account id (XLS-33).
 */
export function mptIssuanceId(sequence: number, account: string): string {
  const id = Buffer.alloc(24);
  id.writeUInt32BE(sequence, 0);
  Buffer.from(decodeAccountID(account)).copy(id, 4);
  return id.toString('hex').toUpperCase();
}

/**
 * The tokens of the NFTokenOffers a transaction deleted, as rippled's getNFTokenIDFromDeletedOffer
 * lists them: sorted (hex of one length, so as the 256-bit numbers) and each once.
 */
function deletedOfferTokens(meta: Json): string[] {
  const ids = nodesOf(meta, 'DeletedNode', 'NFTokenOffer')
    .map((node) => (node.FinalFields as Json | undefined)?.NFTokenID)
    .filter((id): id is string => typeof id === 'string')
    .map((id) => id.toUpperCase());
  return [...new Set(ids)].sort();
}

/**
 * The fields rippled adds to a transaction's metadata in its JSON answers, which binary metadata
 * never holds (RPC::insertDeliveredAmount, insertNFTSyntheticInJson, insertMPTokenIssuanceID), for
 * successful transactions only:
 * - `delivered_amount`: see deliveredAmount;
 * - `nftoken_id`: the NFT an NFTokenMint minted, or the NFT of the offer an NFTokenAcceptOffer
 *   accepted;
 * - `nftoken_ids`: the NFTs of the offers an NFTokenCancelOffer cancelled;
 * - `offer_id`: the NFTokenOffer an NFTokenCreateOffer created;
 * - `mpt_issuance_id`: the issuance an MPTokenIssuanceCreate created.
 * Pure: answers only the fields that apply; a field the answer already carries is left as it is.
 */
export function syntheticMetaFields(tx: Json, meta: Json, ledgerIndex: number, closeTime: number): Json {
  const fields: Json = {};
  const delivered = deliveredAmount(tx, meta, ledgerIndex, closeTime);
  if (delivered !== undefined) fields.delivered_amount = delivered;
  if (meta.TransactionResult !== 'tesSUCCESS') return fields;
  switch (tx.TransactionType) {
    case 'NFTokenMint': {
      const [minted] = nftPageChanges(meta).added;
      if (minted !== undefined) fields.nftoken_id = minted;
      break;
    }
    case 'NFTokenAcceptOffer': {
      // rippled takes the first of the deleted offers' tokens, sorted (getNFTokenIDFromDeletedOffer).
      const [offer] = deletedOfferTokens(meta);
      if (offer !== undefined) fields.nftoken_id = offer;
      break;
    }
    case 'NFTokenCancelOffer': {
      fields.nftoken_ids = deletedOfferTokens(meta);
      break;
    }
    case 'NFTokenCreateOffer': {
      const [created] = nodesOf(meta, 'CreatedNode', 'NFTokenOffer');
      if (typeof created?.LedgerIndex === 'string') fields.offer_id = created.LedgerIndex;
      break;
    }
    case 'MPTokenIssuanceCreate': {
      const sequence = typeof tx.Sequence === 'number' && tx.Sequence > 0 ? tx.Sequence : tx.TicketSequence;
      if (typeof sequence === 'number' && typeof tx.Account === 'string')
        fields.mpt_issuance_id = mptIssuanceId(sequence, tx.Account);
      break;
    }
  }
  return fields;
}
