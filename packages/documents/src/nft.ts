import { encodeAccountID, parseNFTokenID } from 'xrpl';
import { isRecord, type Json } from './json.js';
import { boundedMemo } from './memo.js';
import { changeVersion } from './state.js';

/** NFToken flags (XLS-20), by bit. */
const NFT_FLAGS: [number, string][] = [
  [0x0001, 'tfBurnable'],
  [0x0002, 'tfOnlyXRP'],
  [0x0004, 'tfTrustLine'],
  [0x0008, 'tfTransferable'],
  [0x0010, 'tfMutable'],
];

/** The names of the flags set in an NFToken's flags (pure). */
export function parseNftFlags(flags: number): string[] {
  return NFT_FLAGS.filter(([bit]) => (flags & bit) !== 0).map(([, name]) => name);
}

/** An NFTokenPage's id starts with its owner's 160-bit AccountID (XLS-20). */
export function pageOwner(pageIndex: string): string {
  return encodeAccountID(Buffer.from(pageIndex.slice(0, 40), 'hex'));
}

/** What an NFToken id says of itself (XLS-20): flags, transfer fee, issuer, taxon and serial. */
export interface NftIdentity {
  NFTokenID: string;
  Issuer: string;
  NFTokenTaxon: number;
  nft_serial: number;
  Flags: number;
  TransferFee: number;
}

/**
 * Identities decoded recently. Every change of an NFTokenPage names all the tokens on it (up to
 * 32), so the same ids come back page change after page change while a collection is minted or
 * traded, and decoding one encodes its issuer's address (two SHA-256 and base58) and unscrambles
 * its taxon with big numbers.
 */
const decodeIdentity = boundedMemo(20_000, (id): Readonly<NftIdentity> => {
  const parsed = parseNFTokenID(id);
  return Object.freeze({
    NFTokenID: id,
    Issuer: parsed.Issuer,
    NFTokenTaxon: parsed.Taxon,
    nft_serial: parsed.Sequence,
    Flags: parsed.Flags,
    TransferFee: parsed.TransferFee,
  });
});

/** Decodes a 64-hex NFToken id (pure, memoised; the taxon is unscrambled as XLS-20 says). */
export function nftIdentity(nftId: string): Readonly<NftIdentity> {
  return decodeIdentity(nftId.toUpperCase());
}

/** The nfts-index document of one NFToken: who holds it now (its last owner once burned) and its URI. */
export interface NftDoc extends NftIdentity, Json {
  _flags: string[];
  URI: string | null;
  /** The holder, or the last known holder of a burned token (null when never seen held). */
  Owner: string | null;
  is_burned: boolean;
  /** The ledger and transaction of the change this state comes from (a snapshot has no transaction). */
  ledger_index: number;
  tx_hash: string | null;
  _date: string | null;
}

export interface NftChange {
  id: string;
  version: number;
  doc: NftDoc;
  /**
   * Seen on a page the transaction modified, not changed by it: where the token is as of that
   * transaction, as a state snapshot would say (no transaction: `tx_hash` and `_date` null). Like
   * every write of the nfts index it is versioned by ledger order, so the newest thing known of a
   * token wins in any order of ingestion, and a token whose mint lies in ledgers not indexed is
   * still listed with its owner.
   */
  observed?: true;
}

/** One NFToken as a page holds it: its id and URI. */
interface PageToken {
  id: string;
  uri: string | null;
}

function pageTokens(value: unknown): PageToken[] {
  if (!Array.isArray(value)) return [];
  const tokens: PageToken[] = [];
  for (const wrapper of value) {
    const token = isRecord(wrapper) ? wrapper.NFToken : undefined;
    if (isRecord(token) && typeof token.NFTokenID === 'string')
      tokens.push({ id: token.NFTokenID.toUpperCase(), uri: typeof token.URI === 'string' ? token.URI : null });
  }
  return tokens;
}

/** Where an NFToken sits: its owner and URI. */
interface Holding {
  owner: string;
  uri: string | null;
}

/**
 * The NFTokens a transaction's metadata moved, minted, burned or changed, with where each is
 * after it (pure). NFTokenPage diffs are compared over all pages the transaction touched, so a
 * token that only moved between its owner's pages (a page split or merge) is no change; a token
 * present after and not before was minted or received, one present before and nowhere after was
 * burned (or sent: then it is present after under its new owner).
 */
function pageDiff(meta: Json): Map<string, { before?: Holding; after?: Holding }> {
  return pageHoldings(meta).changed;
}

/**
 * Every NFToken on the pages a transaction touched: those it changed (`changed`, see pageDiff)
 * and those that sat on a page it modified without changing (`unchanged`: where each is, after it).
 */
function pageHoldings(meta: Json): {
  changed: Map<string, { before?: Holding; after?: Holding }>;
  unchanged: Map<string, Holding>;
} {
  const diff = new Map<string, { before?: Holding; after?: Holding }>();
  const place = (side: 'before' | 'after', owner: string, tokens: PageToken[]): void => {
    for (const token of tokens) {
      const entry = diff.get(token.id) ?? {};
      entry[side] = { owner, uri: token.uri };
      diff.set(token.id, entry);
    }
  };
  for (const wrapper of Array.isArray(meta.AffectedNodes) ? (meta.AffectedNodes as unknown[]) : []) {
    if (!isRecord(wrapper)) continue;
    const [kind, node] = Object.entries(wrapper)[0] ?? [];
    if (!isRecord(node) || node.LedgerEntryType !== 'NFTokenPage' || typeof node.LedgerIndex !== 'string') continue;
    const owner = pageOwner(node.LedgerIndex);
    const previous = isRecord(node.PreviousFields) ? node.PreviousFields : {};
    const final = isRecord(node.FinalFields) ? node.FinalFields : {};
    if (kind === 'CreatedNode')
      place('after', owner, pageTokens(isRecord(node.NewFields) ? node.NewFields.NFTokens : []));
    else {
      place('before', owner, pageTokens(previous.NFTokens ?? final.NFTokens));
      if (kind === 'ModifiedNode') place('after', owner, pageTokens(final.NFTokens));
    }
  }
  const unchanged = new Map<string, Holding>();
  for (const [id, { before, after }] of diff)
    if (before !== undefined && after !== undefined && before.owner === after.owner && before.uri === after.uri) {
      diff.delete(id);
      unchanged.set(id, after);
    }
  return { changed: diff, unchanged };
}

/**
 * The NFTs a transaction put on pages (`added`: minted) and took off every page (`removed`:
 * burned), from its NFTokenPage changes (pure). A transfer or a page split moves a token between
 * pages and is neither. rippled 1.11 and later also name a mint's NFT in `meta.nftoken_id`; older
 * metadata only has the pages.
 */
export function nftPageChanges(meta: unknown): { added: string[]; removed: string[] } {
  const changes = isRecord(meta) ? [...pageDiff(meta)] : [];
  return {
    added: changes.filter(([, c]) => c.before === undefined).map(([id]) => id),
    removed: changes.filter(([, c]) => c.after === undefined).map(([id]) => id),
  };
}

/**
 * Every NFToken a transaction names or changes (sorted, once each): its own NFTokenID, rippled's
 * `meta.nftoken_id` / `nftoken_ids`, the tokens of the NFTokenOffers it created, accepted or
 * cancelled, and the tokens its NFTokenPage changes minted, moved, burned or modified. The
 * searchable `_nftokens` of a transaction: an NFT's history is a term query on it. Pure.
 */
export function nftsTouched(doc: Json, meta: Json): string[] {
  const found = new Set<string>();
  const add = (value: unknown): void => {
    if (typeof value === 'string' && /^[0-9A-Fa-f]{64}$/.test(value)) found.add(value.toUpperCase());
  };
  add(doc.NFTokenID);
  add(meta.nftoken_id);
  if (Array.isArray(meta.nftoken_ids)) for (const id of meta.nftoken_ids) add(id);
  for (const wrapper of Array.isArray(meta.AffectedNodes) ? (meta.AffectedNodes as unknown[]) : []) {
    if (!isRecord(wrapper)) continue;
    const node = Object.values(wrapper)[0];
    if (!isRecord(node) || node.LedgerEntryType !== 'NFTokenOffer') continue;
    for (const part of [node.NewFields, node.FinalFields]) if (isRecord(part)) add(part.NFTokenID);
  }
  for (const id of pageDiff(meta).keys()) found.add(id);
  return [...found].sort();
}

function nftDoc(
  id: string,
  holding: Holding | undefined,
  burned: boolean,
  at: { ledgerIndex: number; txHash: string | null; date: string | null },
): NftDoc {
  const identity = nftIdentity(id);
  return {
    ...identity,
    _flags: parseNftFlags(identity.Flags),
    URI: holding?.uri ?? null,
    Owner: holding?.owner ?? null,
    is_burned: burned,
    ledger_index: at.ledgerIndex,
    tx_hash: at.txHash,
    _date: at.date,
  };
}

/**
 * The nfts-index writes of one transaction (pure): one document per NFToken its NFTokenPage
 * changes minted, moved, burned or modified, as it is after the transaction, versioned by ledger
 * order (ledger index, transaction index) so a replay never overwrites newer state; and one
 * observation per token that sat unchanged on a page it modified (see NftChange.observed), so that
 * an owner's tokens minted in ledgers not indexed yet are still listed. `tx` carries `_date` (the
 * close time, ISO). A batch writes only the newest of each token's writes (newestWrites).
 */
export function nftChanges(tx: Json, ledgerIndex: number): NftChange[] {
  const meta = (isRecord(tx.metaData) ? tx.metaData : isRecord(tx.meta) ? tx.meta : {}) as Json;
  const txIndex = typeof meta.TransactionIndex === 'number' ? meta.TransactionIndex : 0;
  const at = {
    ledgerIndex,
    txHash: typeof tx.hash === 'string' ? tx.hash.toUpperCase() : null,
    date: typeof tx._date === 'string' ? tx._date : null,
  };
  const changes: NftChange[] = [];
  const { changed, unchanged } = pageHoldings(meta);
  for (const [id, { before, after }] of changed)
    changes.push({
      id,
      version: changeVersion(ledgerIndex, txIndex),
      doc: nftDoc(id, after ?? before, after === undefined, at),
    });
  // As a snapshot of those pages: no transaction changed these tokens.
  for (const [id, holding] of unchanged)
    changes.push({
      id,
      version: changeVersion(ledgerIndex, txIndex),
      doc: nftDoc(id, holding, false, { ledgerIndex, txHash: null, date: null }),
      observed: true,
    });
  return changes;
}

/** The nfts-index documents of one NFTokenPage of a state snapshot (pure). */
export function snapshotNfts(page: Json, ledgerIndex: number): NftDoc[] {
  if (typeof page.index !== 'string') return [];
  const owner = pageOwner(page.index);
  return pageTokens(page.NFTokens).map((token) =>
    nftDoc(token.id, { owner, uri: token.uri }, false, { ledgerIndex, txHash: null, date: null }),
  );
}
