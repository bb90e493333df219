import type { Json } from './json.js';

/** Transaction types rippled reports a delivered amount for (RPC::insertDeliveredAmount). */
const DELIVERING_TYPES = new Set(['Payment', 'CheckCash', 'AccountDelete']);

/**
 * The first ledger whose metadata records `DeliveredAmount` for a partial payment: from it on, a
 * successful payment without one delivered exactly its `Amount`.
 */
export const DELIVERED_AMOUNT_LEDGER = 4594095;
/** rippled's second test: a ledger that closed after this time (Feb 2014, XRPL epoch seconds). */
const DELIVERED_AMOUNT_CLOSE_TIME = 446000000;

/**
 * `meta.delivered_amount` as rippled's API writes it (it is not in the binary metadata; rippled
 * adds it to every JSON answer): for a successful Payment, CheckCash or AccountDelete, the
 * metadata's `DeliveredAmount` when present; else the transaction's `Amount` when the ledger is
 * 4594095 or later or closed after 446000000; else `"unavailable"`. Undefined for every other
 * transaction. Pure: `closeTime` in seconds since the XRPL epoch.
 */
export function deliveredAmount(tx: Json, meta: Json, ledgerIndex: number, closeTime: number): unknown {
  if (typeof tx.TransactionType !== 'string' || !DELIVERING_TYPES.has(tx.TransactionType)) return undefined;
  if (meta.TransactionResult !== 'tesSUCCESS') return undefined;
  if (meta.DeliveredAmount !== undefined) return meta.DeliveredAmount;
  const amount = tx.Amount ?? tx.DeliverMax;
  if (amount !== undefined && (ledgerIndex >= DELIVERED_AMOUNT_LEDGER || closeTime > DELIVERED_AMOUNT_CLOSE_TIME))
    return amount;
  return 'unavailable';
}
