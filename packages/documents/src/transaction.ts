import { normalizeAmount, dropsToXrpString } from './amount.js';
import { syntheticMetaFields } from './synthetic-meta.js';
import { isAmountField } from './amount-fields.js';
import { encodeCtid } from './ctid.js';
import { nftsTouched } from './nft.js';
import { decodeHexText } from './hex.js';
import { rippleTimeToIso } from './time.js';
import { exchangesOf, tokensTouched } from './tokens.js';
import { addDecodedTwins } from './twins.js';
import { DEFAULT_DEFINITIONS } from 'ripple-binary-codec';
import { encodeAccountID } from 'xrpl';
import { isRecord, type Json } from './json.js';

/** The zero AccountID: the issuer of XRP. */
const ZERO_ACCOUNT = 'rrrrrrrrrrrrrrrrrrrrrhoLvTp';

const META_AMOUNT_FIELDS = ['delivered_amount', 'DeliveredAmount'] as const;
const MEMO_FIELDS = ['MemoType', 'MemoData', 'MemoFormat'] as const;

export interface TransactionContext {
  ledgerIndex: number;
  /** Close time of the ledger, seconds since the XRPL epoch. */
  closeTime: number;
  /** The network's id (mainnet 0); a transaction's own NetworkID field wins. */
  networkId: number;
  ledgerHash?: string;
}

export type TransactionDoc = Record<string, unknown> & {
  hash: string;
  ledger_index: number;
  date: number;
  _date: string;
  validated: true;
  meta: Record<string, unknown>;
  _accounts: string[];
};

/**
 * Builds the transactions-index document of one validated transaction: every original field under
 * its XRPL name, plus derived fields (all starting with `_`, and `ctid`). Pure.
 * `tx` is the transaction as rippled's `ledger` (expand) gives it: fields, `hash`, and `metaData`
 * (API v1) or `meta`.
 */
export function transformTransaction(tx: Json, context: TransactionContext): TransactionDoc {
  const { metaData, meta: metaV2, ...given } = tx;
  const fields = ownTransactionFields(given);
  // Shallow copies: every nested value that changes is replaced by a new object below, never
  // mutated, so the input stays untouched without the cost of a deep clone.
  const meta: Json = { ...((metaData ?? metaV2 ?? {}) as Json) };
  const doc: Json = fields;
  const hash = String(doc.hash ?? '').toUpperCase();
  if (!/^[0-9A-F]{64}$/.test(hash))
    throw new TypeError(`transaction without a valid hash in ledger ${context.ledgerIndex}`);

  // Not in binary metadata (rippled adds them to its JSON answers): computed by rippled's rules, so
  // a ledger read in binary or as JSON gives the same document. What an answer carries it keeps.
  for (const [field, value] of Object.entries(syntheticMetaFields(doc, meta, context.ledgerIndex, context.closeTime)))
    meta[field] ??= value;
  // API v2 renamed Payment.Amount to DeliverMax; both are kept so either name can be searched.
  if (doc.TransactionType === 'Payment') {
    if (doc.DeliverMax === undefined && doc.Amount !== undefined) doc.DeliverMax = doc.Amount;
    if (doc.Amount === undefined && doc.DeliverMax !== undefined) doc.Amount = doc.DeliverMax;
  }
  for (const field of Object.keys(doc)) {
    if (!isAmountField(field) || doc[field] === undefined) continue;
    const normalised = normalizeAmount(doc[field]);
    if (normalised === undefined)
      throw new TypeError(`${hash}: ${field} is not an amount: ${JSON.stringify(doc[field])}`);
    doc[field] = normalised;
  }
  for (const field of META_AMOUNT_FIELDS) {
    const raw = meta[field];
    if (raw === undefined) continue;
    if (raw === 'unavailable') {
      // Ledgers before 2014-01-20 did not record it: say so, never invent an amount.
      delete meta[field];
      meta._delivered_amount_status = 'unavailable';
      continue;
    }
    const normalised = normalizeAmount(raw);
    if (normalised === undefined)
      throw new TypeError(`${hash}: meta.${field} is not an amount: ${JSON.stringify(raw)}`);
    meta[field] = normalised;
  }

  addDecodedTwins(doc);
  if (Array.isArray(doc.Memos)) {
    doc.Memos = (doc.Memos as unknown[]).map((entry) => {
      const memo = isRecord(entry) ? entry.Memo : undefined;
      if (!isRecord(memo)) return entry;
      const decoded: Json = { ...memo };
      for (const field of MEMO_FIELDS) {
        const text = decodeHexText(memo[field]);
        if (text !== undefined) decoded[`_${field}`] = text;
      }
      return { ...(entry as Json), Memo: decoded };
    });
  }

  if (typeof doc.Fee === 'string') doc._Fee = Number(dropsToXrpString(doc.Fee));
  const networkId = typeof doc.NetworkID === 'number' ? doc.NetworkID : context.networkId;
  const transactionIndex = typeof meta.TransactionIndex === 'number' ? meta.TransactionIndex : undefined;
  const ctid =
    transactionIndex === undefined
      ? undefined
      : encodeCtid({ ledgerIndex: context.ledgerIndex, transactionIndex, networkId });

  // `doc` is this function's own copy: derived fields are added in place.
  doc._accounts = affectedAccounts(meta);
  const touched = touchedObjects(meta);
  meta._objects = touched.ids;
  meta._types = touched.types;
  const exchanges = exchangesOf(doc, meta, context.ledgerIndex * 65536 + (transactionIndex ?? 0));
  if (exchanges.length > 0) doc._exchanges = exchanges;
  const tokens = tokensTouched(meta);
  if (tokens.length > 0) doc._tokens = tokens;
  const nfts = nftsTouched(doc, meta);
  if (nfts.length > 0) doc._nftokens = nfts;
  doc.hash = hash;
  doc.ledger_index = context.ledgerIndex;
  doc.date = context.closeTime;
  doc._date = rippleTimeToIso(context.closeTime);
  doc.validated = true;
  doc.meta = meta;
  if (context.ledgerHash !== undefined) doc.ledger_hash = context.ledgerHash;
  if (ctid !== undefined) doc.ctid = ctid;
  return doc as TransactionDoc;
}

/**
 * A transaction's own fields, without what its source's answer wrapped around it: rippled's
 * serialized fields are all PascalCase (definitions.json), and what a `tx` or `ledger` answer adds
 * beside them is lowercase (`warnings`, `status`, `validated`, `inLedger`, `date`, `ledger_index`,
 * `ledger_hash`, `ctid`, `close_time_iso`), so those are dropped, `hash` aside (the document sets
 * its own `ledger_index`, `date`, `validated` and `ctid`). A field of an amendment newer than the
 * codec's definitions is PascalCase too, and kept.
 */
export function ownTransactionFields(fields: Json): Json {
  const own: Json = {};
  for (const [name, value] of Object.entries(fields)) if (name === 'hash' || !/^[a-z]/.test(name)) own[name] = value;
  return own;
}

/** Every transaction type rippled defines (ripple-binary-codec's definitions), by name, sorted. */
export const TRANSACTION_TYPE_NAMES: readonly string[] = [
  ...(DEFAULT_DEFINITIONS as unknown as { transactionNames: string[] }).transactionNames,
]
  .filter((name) => name !== 'Invalid')
  .sort((a, b) => a.localeCompare(b));

const FIELDS = DEFAULT_DEFINITIONS.field as unknown as Record<string, { type?: { name?: string } } | undefined>;
/** Whether a field holds an account (its definitions.json type is AccountID). */
export function isAccountIdField(name: string): boolean {
  return FIELDS[name]?.type?.name === 'AccountID';
}

/** The amount fields whose issuer rippled files a transaction under (getAffectedAccounts). */
const ISSUER_FIELDS = new Set(['LowLimit', 'HighLimit', 'TakerPays', 'TakerGets']);

/**
 * The issuer of an MPT issuance id (192 bits: a 32-bit sequence, then the issuer's 160-bit
 * AccountID; rippled's MPTIssue::getIssuer), or undefined when it is not one.
 */
function mptIssuer(id: unknown): string | undefined {
  if (typeof id !== 'string' || !/^[0-9A-Fa-f]{48}$/.test(id)) return undefined;
  const account = Buffer.from(id.slice(8), 'hex');
  return account.every((b) => b === 0) ? undefined : encodeAccountID(account);
}

/**
 * The accounts rippled files a transaction under, for account_tx and account subscriptions:
 * `TxMeta::getAffectedAccounts` (rippled src/libxrpl/protocol/TxMeta.cpp), literally. For each
 * affected node, the fields of its NewFields (a created node) or FinalFields (a modified or
 * deleted one), top level only: every AccountID field (definitions.json type AccountID), the
 * issuer of LowLimit, HighLimit, TakerPays and TakerGets when it is not zero (XRP has none), and
 * the issuer behind an MPTokenIssuanceID. Nothing of the transaction's own fields counts: an
 * account named only there (a destination of a failed payment, the issuer of an offer that
 * never reached the books) is not filed under. Sorted, each once. Pure.
 */
export function affectedAccounts(meta: Json): string[] {
  const found = new Set<string>();
  for (const wrapper of Array.isArray(meta.AffectedNodes) ? (meta.AffectedNodes as unknown[]) : []) {
    if (!isRecord(wrapper)) continue;
    for (const [kind, node] of Object.entries(wrapper)) {
      if (!isRecord(node)) continue;
      const fields = kind === 'CreatedNode' ? node.NewFields : node.FinalFields;
      if (!isRecord(fields)) continue;
      for (const [name, value] of Object.entries(fields)) {
        if (isAccountIdField(name)) {
          if (typeof value === 'string' && value !== '') found.add(value);
        } else if (ISSUER_FIELDS.has(name) && isRecord(value)) {
          const issuer = typeof value.issuer === 'string' ? value.issuer : mptIssuer(value.mpt_issuance_id);
          if (issuer !== undefined && issuer !== ZERO_ACCOUNT) found.add(issuer);
        } else if (name === 'MPTokenIssuanceID') {
          const issuer = mptIssuer(value);
          if (issuer !== undefined) found.add(issuer);
        }
      }
    }
  }
  return [...found].sort();
}

/**
 * The ledger objects a transaction created, modified or deleted (their ids, in metadata order)
 * and their entry types (sorted, once each): the searchable index of meta.AffectedNodes, which is
 * kept in the document but not indexed (pure).
 */
export function touchedObjects(meta: Json): { ids: string[]; types: string[] } {
  const ids: string[] = [];
  const types = new Set<string>();
  for (const wrapper of Array.isArray(meta.AffectedNodes) ? (meta.AffectedNodes as unknown[]) : []) {
    if (!isRecord(wrapper)) continue;
    for (const node of Object.values(wrapper)) {
      if (!isRecord(node)) continue;
      if (typeof node.LedgerIndex === 'string') ids.push(node.LedgerIndex.toUpperCase());
      if (typeof node.LedgerEntryType === 'string') types.add(node.LedgerEntryType);
    }
  }
  return { ids, types: [...types].sort() };
}
