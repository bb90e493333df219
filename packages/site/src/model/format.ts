import BigNumber from 'bignumber.js';
import { decodeCurrency, dropsToXrpString, tokenId } from '@xle/documents';

/** An amount as the site shows it: exact value, readable code, and what identifies the asset. */
export interface AmountView {
  /** Exact decimal text ('' for an asset without an amount, such as an AMM pool's Asset). */
  value: string;
  /** Readable currency code (XRP, USD, SOLO, or the hex when it reads as nothing). */
  code: string;
  /** The currency as the ledger writes it (XRP, 3-char or 40-hex). */
  currency: string;
  issuer?: string;
  native: boolean;
  /** `<currency_hex>.<issuer>`: the id of the token's page, for issued currencies. */
  token?: string;
  /** An MPT amount's issuance id. */
  mpt?: string;
}

const DROPS = /^-?\d+$/;
const DECIMAL = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?$/i;

/** A decimal text as a BigNumber, or undefined when it is none (BigNumber throws on such text) (pure). */
export function decimal(text: unknown): BigNumber | undefined {
  if (typeof text === 'number') return Number.isFinite(text) ? new BigNumber(text) : undefined;
  return typeof text === 'string' && DECIMAL.test(text.trim()) ? new BigNumber(text.trim()) : undefined;
}

/**
 * An XRPL amount in any JSON form (drops string, issued-currency object, MPT object, or an Issue
 * without value) as an AmountView; undefined for what is not an amount (pure).
 */
export function amountView(raw: unknown): AmountView | undefined {
  if (typeof raw === 'string') {
    return DROPS.test(raw) ? { value: dropsToXrpString(raw), code: 'XRP', currency: 'XRP', native: true } : undefined;
  }
  if (typeof raw !== 'object' || raw === null) return undefined;
  const record = raw as Record<string, unknown>;
  const value = typeof record.value === 'string' || typeof record.value === 'number' ? String(record.value) : '';
  if (typeof record.mpt_issuance_id === 'string')
    return { value, code: 'MPT', currency: 'MPT', native: false, mpt: record.mpt_issuance_id };
  if (typeof record.currency !== 'string') return undefined;
  if (record.currency === 'XRP' && record.issuer === undefined)
    return { value, code: 'XRP', currency: 'XRP', native: true };
  const view: AmountView = { value, code: decodeCurrency(record.currency), currency: record.currency, native: false };
  if (typeof record.issuer === 'string') {
    view.issuer = record.issuer;
    const id = tokenId(record.currency, record.issuer);
    if (id !== undefined) view.token = id;
  }
  return view;
}

/** Whether two amounts are the same value of the same asset (exact decimals) (pure). */
export function sameAmount(a: AmountView, b: AmountView): boolean {
  const x = decimal(a.value);
  const y = decimal(b.value);
  return (
    a.currency === b.currency &&
    a.issuer === b.issuer &&
    a.mpt === b.mpt &&
    x !== undefined &&
    y !== undefined &&
    x.eq(y)
  );
}

/** XRP from drops, exact: "12677660" → "12.67766" (pure). */
export function xrpOfDrops(drops: string | number): string {
  return dropsToXrpString(String(drops));
}

/** A transaction's Fee (drops, as text or number) in XRP; '' when it is not a drops amount (pure). */
export function feeText(fee: unknown): string {
  return (typeof fee === 'string' || typeof fee === 'number') && DROPS.test(String(fee)) ? xrpOfDrops(String(fee)) : '';
}

/**
 * A decimal for reading: thousands grouped, every digit kept ("-1234567.891" → "-1,234,567.891");
 * numbers rippled writes with an exponent are written out when that stays short (pure).
 */
export function formatValue(value: string | number): string {
  const text = String(value);
  const number = decimal(text);
  if (number === undefined) return text;
  const exponent = number.e ?? 0;
  if (exponent < -20 || exponent > 30) return number.toExponential();
  return number.toFormat({ decimalSeparator: '.', groupSeparator: ',', groupSize: 3 });
}

/**
 * Significant digits a token amount is shown with. The ledger keeps 16 (an issued amount's mantissa
 * lies in [10^15, 10^16), rippled's STAmount.h cMinValue / cMaxValue), and its own arithmetic rounds
 * in the 16th (an offer of 4000.000000000001 CNY, a change of -9999.999999999998), so 15 are shown
 * and the exact value goes in the element's title. A sum of many lines (what an issuer owes) has
 * more digits than any one amount; it is shown the same way.
 */
export const TOKEN_DIGITS = 15;

/** The last digits of binary or decimal rounding: six 9s or seven 0s before a last digit. */
const ROUNDING_TAIL = /\.\d*(?:9{6}|0{7})\d$/;

/**
 * A token amount for reading: at most 15 significant digits, grouped, and fewer where the ledger's
 * own rounding left a tail ("3999.999999999999" → "4,000", "0.0000999999999999999" → "0.0001",
 * "4150.00000000001" → "4,150") (pure).
 */
export function formatTokenValue(value: string | number): string {
  const number = decimal(value);
  if (number === undefined) return String(value);
  let digits = TOKEN_DIGITS;
  let shown = number.precision(digits, BigNumber.ROUND_HALF_UP).toFixed();
  while (ROUNDING_TAIL.test(shown) && digits > 1) {
    digits -= 1;
    shown = number.precision(digits, BigNumber.ROUND_HALF_UP).toFixed();
  }
  return formatValue(shown);
}

/** XRP written with its 6 decimals (drops): "-0.04" → "-0.040000", so a column of XRP lines up (pure). */
export function xrpDecimals(value: string): string {
  const number = decimal(value);
  return number === undefined ? value : number.toFixed(6);
}

/** A signed change: "+1,234.5" or "-0.000012"; a token's rounded as formatTokenValue (pure). */
export function formatChange(value: string, token = false): string {
  const formatted = token ? formatTokenValue(value) : formatValue(value);
  return formatted.startsWith('-') ? formatted : `+${formatted}`;
}

/** "12.5 USD.rIssuer", "12.67766 XRP" (pure): the plain-text form of an amount, its value exact. */
export function amountText(amount: AmountView): string {
  const asset = amount.issuer === undefined ? amount.code : `${amount.code}.${amount.issuer}`;
  return amount.value === '' ? asset : `${formatValue(amount.value)} ${asset}`;
}

/** "B0DAF34D…C71E505E": a long hex id shortened for lists (its full form is on its page) (pure). */
export function shortHash(hash: string): string {
  return hash.length > 20 ? `${hash.slice(0, 8)}…${hash.slice(-8)}` : hash;
}

/** An address or key shortened in the middle for narrow screens: "rpgtb…NSLtf" (pure). */
export function shortAddress(address: string): string {
  return address.length > 14 ? `${address.slice(0, 5)}…${address.slice(-5)}` : address;
}

/** "2023-10-16 13:05:41 UTC" from an ISO 8601 time (pure). */
export function formatTime(iso: string | null | undefined): string {
  if (typeof iso !== 'string' || Number.isNaN(Date.parse(iso))) return '';
  return `${new Date(iso).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** A count with grouped thousands (pure). */
export function formatCount(value: number | string): string {
  return formatValue(value);
}

/** A share as a percentage with `digits` decimals: 0.98765 → "98.77 %" (pure). */
export function formatPercent(share: number, digits = 2): string {
  return `${(share * 100).toFixed(digits)} %`;
}

/** A marker no XRPL string holds (a NUL byte cannot be in one), for BigInt values inside JSON.stringify. */
const BIGINT = '\u0000bigint:';

/**
 * Indented JSON for reading, BigInt values (a ledger's total_coins, above 2^53) written as the
 * exact number literals the API sends (pure).
 */
export function prettyJson(value: unknown): string {
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${BIGINT}${v.toString()}` : v), 2);
  return (text ?? 'null').replace(/"\\u0000bigint:(-?\d+)"/g, '$1');
}

/**
 * A measured figure for reading (a price, a market cap, a supply): `digits` significant digits,
 * never fewer than its whole part, thousands grouped: 10.964912241827428 → "10.9649",
 * 2306877.3547648062 → "2,306,877", 0.000012345678 → "0.0000123457" (pure). The exact value goes
 * in the element's title.
 */
export function formatSignificant(value: string | number, digits = 6): string {
  const number = decimal(value);
  if (number === undefined) return String(value);
  if (number.isZero()) return '0';
  const whole = number.abs().integerValue(BigNumber.ROUND_DOWN).toFixed().length;
  const rounded = number.precision(number.abs().gte(1) ? Math.max(digits, whole) : digits);
  return formatValue(rounded.toFixed());
}

/** A token score (0 to 1) to 3 decimals (pure). */
export function formatScore(value: unknown): string {
  const number = decimal(value);
  return number === undefined ? '' : number.toFixed(3);
}

/**
 * Where a recorded rippled answer's figures come from, for people (pure): the command, the ledger
 * the answer describes and that ledger's time (or that it is not known), e.g. "rippled's
 * server_info of ledger 82,521,701 (2023-09-13 22:08:48 UTC)". Undefined without a snapshot.
 */
export function answerSource(command: string, snapshot: unknown): string | undefined {
  if (typeof snapshot !== 'object' || snapshot === null) return undefined;
  const { ledger_index: ledger, ledger_time: time } = snapshot as { ledger_index?: unknown; ledger_time?: unknown };
  if (typeof ledger !== 'number') return undefined;
  const when = typeof time === 'string' ? formatTime(time) : 'its time not known';
  return `rippled’s ${command} of ledger ${formatCount(ledger)} (${when})`;
}
