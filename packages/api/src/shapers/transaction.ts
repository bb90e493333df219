import { deriveAddress } from 'xrpl';
import { boundedMemo, isAmountField, rawAmount, type AmountDoc, type Json } from '@xle/documents';
import { labelOf, type Labels } from './labels.js';

/** What shaping transactions needs besides their documents (see enrich/transactions.ts). */
export interface TransactionContext {
  labels: Labels;
  /** Amendment id to name, for EnableAmendment pseudo-transactions. */
  amendmentNames: ReadonlyMap<string, string>;
}

/**
 * The account of a signing public key, null when it is not a valid key (memoised for the signing
 * keys seen recently: deriving one hashes twice and base58-encodes).
 */
const signerAccount = boundedMemo(10_000, (publicKey): string | null => {
  try {
    return deriveAddress(publicKey);
  } catch {
    return null;
  }
});

function isAmountDoc(value: unknown): value is AmountDoc {
  return typeof value === 'object' && value !== null && 'native' in value && '_currency' in value;
}

/** Addresses a transaction response labels. */
export function transactionLabelAddresses(doc: Json): (string | undefined)[] {
  return [doc.Account as string | undefined, doc.Destination as string | undefined];
}

/**
 * The spec's Transaction object from a transactions-index document: XRPL field names and forms
 * (amounts back to drops strings or {currency, issuer, value}), `date` as ISO 8601, the metadata's
 * delivered amount (or "unavailable"), labels, AmendmentName and SigningPubKeyAccount. Pure.
 */
export function shapeTransaction(
  doc: Json,
  labels: Labels,
  amendmentNames: ReadonlyMap<string, string> = new Map(),
): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(doc)) {
    if (key.startsWith('_') || key === 'meta' || key === 'date') continue;
    out[key] = isAmountField(key) && isAmountDoc(value) ? rawAmount(value) : value;
  }
  if (Array.isArray(doc.Memos)) {
    out.Memos = (doc.Memos as Json[]).map((entry) => {
      const memo = entry.Memo as Json | undefined;
      if (memo === undefined) return entry;
      return { Memo: Object.fromEntries(Object.entries(memo).filter(([k]) => !k.startsWith('_'))) };
    });
  }
  out.date = doc._date;
  const meta: Json = {};
  for (const [key, value] of Object.entries((doc.meta as Json | undefined) ?? {})) {
    if (key.startsWith('_')) continue;
    meta[key] = isAmountDoc(value) ? rawAmount(value) : value;
  }
  if ((doc.meta as Json | undefined)?._delivered_amount_status === 'unavailable') meta.delivered_amount = 'unavailable';
  out.meta = meta;
  out.AccountName = labelOf(labels, doc.Account);
  out.DestinationName = labelOf(labels, doc.Destination);
  if (doc.TransactionType === 'EnableAmendment') out.AmendmentName = amendmentNames.get(String(doc.Amendment)) ?? null;
  // Null where there is no single signing key (multi-signed, pseudo-transactions) or it is not valid.
  out.SigningPubKeyAccount =
    typeof doc.SigningPubKey === 'string' && doc.SigningPubKey !== '' ? signerAccount(doc.SigningPubKey) : null;
  return out;
}

/** Transaction documents shaped with what the enrichment step fetched (pure). */
export function shapeTransactions(docs: readonly Json[], context: TransactionContext): Json[] {
  return docs.map((doc) => shapeTransaction(doc, context.labels, context.amendmentNames));
}
