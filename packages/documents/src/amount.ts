import { decodeCurrency } from './currency.js';

/** The one normalised amount shape of every amount-like field (index-templates/components/amount.json). */
export interface AmountDoc {
  /** Exact decimal string: XRP for the native currency (drops / 10^6), the issued value otherwise. */
  value?: string;
  /** Nearest double of `value` (no clamping, so IOU values from 1e-81 to 9.999e95 keep their magnitude). */
  _value?: number;
  /** XRP only: the amount in drops, exact (an integer string; the engine indexes it as a long). */
  _drops?: string;
  currency: string;
  _currency: string;
  issuer?: string;
  mpt_issuance_id?: string;
  native: boolean;
}

/** XRPL amount in JSON: drops string, issued-currency object, MPT object, or an Issue (no value). */
export type RawAmount =
  string | { currency: string; issuer?: string; value?: string } | { mpt_issuance_id: string; value?: string };

const DROPS = /^-?\d+$/;

/** Exact drops → XRP decimal string, without floating point ("1000001" → "1.000001"). */
export function dropsToXrpString(drops: string): string {
  if (!DROPS.test(drops)) throw new RangeError(`not a drops amount: ${drops}`);
  const negative = drops.startsWith('-');
  const digits = (negative ? drops.slice(1) : drops).replace(/^0+(?=\d)/, '').padStart(7, '0');
  const whole = digits.slice(0, -6).replace(/^0+(?=\d)/, '');
  const fraction = digits.slice(-6).replace(/0+$/, '');
  const text = fraction === '' ? whole : `${whole}.${fraction}`;
  return negative && text !== '0' ? `-${text}` : text;
}

/** Normalises one amount; returns undefined for values that are not amounts (e.g. "unavailable"). */
export function normalizeAmount(raw: unknown): AmountDoc | undefined {
  if (typeof raw === 'string') {
    if (!DROPS.test(raw)) return undefined;
    const value = dropsToXrpString(raw);
    return {
      value,
      _value: Number(value),
      _drops: xrpStringToDrops(value),
      currency: 'XRP',
      _currency: 'XRP',
      native: true,
    };
  }
  if (raw === null || typeof raw !== 'object') return undefined;
  const record = raw as Record<string, unknown>;
  if (typeof record.mpt_issuance_id === 'string') {
    const doc: AmountDoc = {
      currency: 'MPT',
      _currency: 'MPT',
      mpt_issuance_id: record.mpt_issuance_id,
      native: false,
    };
    if (typeof record.value === 'string') {
      doc.value = record.value;
      doc._value = Number(record.value);
    }
    return doc;
  }
  if (typeof record.currency !== 'string') return undefined;
  const native = record.currency === 'XRP' && record.issuer === undefined;
  const doc: AmountDoc = {
    currency: record.currency,
    _currency: native ? 'XRP' : decodeCurrency(record.currency),
    native,
  };
  if (typeof record.issuer === 'string') doc.issuer = record.issuer;
  if (typeof record.value === 'string') {
    doc.value = record.value;
    doc._value = Number(record.value);
  }
  return doc;
}

/** Exact XRP decimal string → drops ("1.000001" → "1000001"), the inverse of dropsToXrpString. */
export function xrpStringToDrops(xrp: string): string {
  const match = /^(-?)(\d+)(?:\.(\d{1,6}))?$/.exec(xrp);
  if (match === null) throw new RangeError(`not an XRP amount: ${xrp}`);
  const [, sign, whole, fraction = ''] = match;
  const drops = `${whole}${fraction.padEnd(6, '0')}`.replace(/^0+(?=\d)/, '');
  return drops === '0' ? '0' : `${sign}${drops}`;
}

/** The XRPL JSON form of a normalised amount: the exact inverse of normalizeAmount. */
export function rawAmount(amount: AmountDoc): RawAmount {
  if (amount.mpt_issuance_id !== undefined) {
    return amount.value === undefined
      ? { mpt_issuance_id: amount.mpt_issuance_id }
      : { mpt_issuance_id: amount.mpt_issuance_id, value: amount.value };
  }
  if (amount.native && amount.value !== undefined) return xrpStringToDrops(amount.value);
  const raw: { currency: string; issuer?: string; value?: string } = { currency: amount.currency };
  if (amount.issuer !== undefined) raw.issuer = amount.issuer;
  if (amount.value !== undefined) raw.value = amount.value;
  return raw;
}
