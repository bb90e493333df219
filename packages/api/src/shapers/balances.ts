import type { BalanceChangeDoc, Json } from '@xle/documents';

/**
 * Balance answers (pure): a change as the data set holds it without its numeric twins, and a
 * balance as the newest change of its asset says it.
 */

export interface ShapedBalance {
  currency: string;
  currency_hex: string;
  /** The other side of the trust line; null for XRP. */
  issuer: string | null;
  /** The balance, an exact decimal string (XRP in XRP). */
  value: string;
  /** The ledger of the change that set it. */
  ledger_index: number;
}

export function shapeBalance(change: Partial<BalanceChangeDoc>): ShapedBalance {
  return {
    currency: change.currency ?? '',
    currency_hex: change.currency_hex ?? '',
    issuer: change.issuer ?? null,
    value: change.balance ?? '0',
    ledger_index: change.ledger_index ?? 0,
  };
}

/** Fields of a change in the answers, in this order; `issuer` null for XRP, absent ones null. */
const CHANGE_FIELDS = [
  'ledger_index',
  'transaction_index',
  'position',
  'hash',
  'date',
  'transaction_type',
  'result',
  'kind',
  'currency',
  'currency_hex',
  'issuer',
  'value',
  'balance',
  'counterparty',
  'destination_tag',
  'source_tag',
] as const;

export function shapeBalanceChange(change: Partial<BalanceChangeDoc>): Json {
  const out: Json = {};
  for (const field of CHANGE_FIELDS) out[field] = change[field] ?? null;
  return out;
}
