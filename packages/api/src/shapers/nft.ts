import { parseNFTokenID } from 'xrpl';
import { pageOwner, parseNftFlags, type Json, type NftDoc } from '@xle/documents';

/** An NFToken as an NFTokenPage holds it. */
export interface PageToken {
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

/** Every NFT of an owner's pages, in page order (pure). */
export function shapeOwnedNfts(pages: readonly { NFTokens?: PageToken[] }[]): Json[] {
  return pages.flatMap((page) => (page.NFTokens ?? []).map((t) => shapeOwnedNft(t.NFToken)));
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

/** The NFT info of a token held on a live page (pure). */
export function shapeHeldNft(id: string, page: { index: string; ledger_index: number; NFTokens?: PageToken[] }): Json {
  const token = page.NFTokens?.find((t) => t.NFToken.NFTokenID === id)?.NFToken;
  return shapeNftInfo(id, pageOwner(page.index), page.ledger_index, false, token?.URI);
}

/** The NFT info of a burned token, from its burn transaction (pure). */
export function shapeBurnedNft(id: string, burn: Json): Json {
  return shapeNftInfo(id, String(burn.Owner ?? burn.Account), Number(burn.ledger_index), true);
}

/** An nfts-index document as the spec's NFT info (pure): its last change's ledger, its holder (or last holder). */
export function shapeNftDoc(doc: NftDoc): Json {
  return shapeNftInfo(doc.NFTokenID, doc.Owner ?? doc.Issuer, doc.ledger_index, doc.is_burned, doc.URI ?? undefined);
}
