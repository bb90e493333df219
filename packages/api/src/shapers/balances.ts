import { currencyHex, decodeCurrency, type BalanceChangeDoc, type Json } from '@xle/documents';

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

/** What the balance history of one asset is made of: the span's interval starts and the last change in each. */
export interface BalanceHistoryInput {
  account: string;
  /** The asset's code as asked (XRP, a 3-letter or 40-hex code, or its text). */
  currency: string;
  issuer: string | undefined;
  interval: string;
  fromMs: number;
  toMs: number;
  /** The start of each interval of the span, in order (ms since the epoch). */
  starts: readonly number[];
  /** The asset's last change before the span, when it says what the balance was at its start. */
  before: Partial<BalanceChangeDoc> | undefined;
  /** The last change in each interval that has one, by the interval's start. */
  lastIn: ReadonlyMap<number, Partial<BalanceChangeDoc> | undefined>;
  completeFrom: number | null;
}

/**
 * The balance at the end of each interval (pure): the balance of the last change in it, else the
 * one before (the balance before the span, else 0); the asset named as its changes name it, else
 * from the code asked.
 */
export function shapeBalanceHistory(input: BalanceHistoryInput): Json {
  let balance = input.before?.balance ?? '0';
  const points = input.starts.map((start) => {
    const change = input.lastIn.get(start);
    if (change?.balance !== undefined) balance = change.balance;
    return { date: new Date(start).toISOString(), balance };
  });
  const named = input.before ?? [...input.lastIn.values()].find((c) => c !== undefined);
  const code = input.currency;
  const xrp = code.toUpperCase() === 'XRP';
  return {
    account: input.account,
    currency: named?.currency ?? (xrp ? 'XRP' : decodeCurrency(code)),
    currency_hex: named?.currency_hex ?? (xrp ? 'XRP' : (currencyHex(code) ?? code.toUpperCase())),
    issuer: input.issuer ?? null,
    interval: input.interval,
    from: new Date(input.fromMs).toISOString(),
    to: new Date(input.toMs).toISOString(),
    complete_from_ledger: input.completeFrom,
    points,
  };
}
