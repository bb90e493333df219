import BigNumber from 'bignumber.js';
import { DEFAULT_DEFINITIONS } from 'ripple-binary-codec';
import { isRecord, type Json } from './json.js';

const FIELDS = DEFAULT_DEFINITIONS.field as unknown as Record<string, { type?: { name?: string } } | undefined>;
/** UInt64 fields the codec reads and writes in base 10 (MPT amounts), as rippled's JSON does. */
const BASE10_UINT64 = new Set([
  'MaximumAmount',
  'OutstandingAmount',
  'MPTAmount',
  'LockedAmount',
  'ConfidentialOutstandingAmount',
]);
const ZERO_ACCOUNT = 'rrrrrrrrrrrrrrrrrrrrrhoLvTp';

/**
 * A token amount's value as rippled writes it (STAmount::getText): the 16-digit mantissa and its
 * exponent ("1000000000000000e-1", "9999999999999999e80") when the exponent is below -25 or above
 * -5, a plain decimal otherwise. The codec always writes a plain decimal.
 */
function rippledValue(value: string): string {
  const n = new BigNumber(value);
  if (!n.isFinite() || n.isZero()) return value;
  const exponent = n.abs().e ?? 0; // the decimal exponent of the first digit
  const offset = exponent - 15; // rippled's mantissa has 16 digits
  if (offset >= -25 && offset <= -5) return value;
  const mantissa = n.abs().shiftedBy(-offset);
  if (!mantissa.isInteger()) return value;
  return `${n.isNegative() ? '-' : ''}${mantissa.toFixed(0)}e${offset}`;
}

/**
 * A path step with rippled's `type`: which of account (0x01), currency (0x10), issuer (0x20) it
 * has. Rippled before 2016 also wrote it as `type_hex`.
 */
function pathStep(raw: unknown): unknown {
  if (!isRecord(raw)) return raw;
  const { type_hex: _hex, ...step } = raw;
  const type =
    (step.account === undefined ? 0 : 0x01) |
    (step.currency === undefined ? 0 : 0x10) |
    (step.issuer === undefined ? 0 : 0x20);
  return { ...step, type };
}

function rewrite(value: unknown, field: string | undefined): unknown {
  if (field === 'Paths' && Array.isArray(value))
    return value.map((path) => (Array.isArray(path) ? path.map(pathStep) : path));
  if (Array.isArray(value)) return value.map((v) => rewrite(v, undefined));
  if (isRecord(value)) {
    const out: Json = {};
    for (const [name, inner] of Object.entries(value)) out[name] = rewrite(inner, name);
    if (typeof out.value === 'string' && typeof out.currency === 'string' && typeof out.issuer === 'string')
      out.value = rippledValue(out.value);
    return out;
  }
  if (
    typeof value === 'string' &&
    field !== undefined &&
    FIELDS[field]?.type?.name === 'UInt64' &&
    !BASE10_UINT64.has(field) &&
    /^[0-9A-F]{16}$/.test(value)
  )
    return value.replace(/^0+(?=.)/, '').toLowerCase();
  return value;
}

/**
 * A transaction (or its metadata) decoded from binary, written as a current rippled writes it in
 * JSON, so that a ledger fetched from rippled in binary indexes the same documents as its JSON
 * answer did (ledger files are indexed as they are written):
 * UInt64 fields (OwnerNode, BookNode, ExchangeRate, ...) in lower case without leading zeros ("0",
 * "c80") where the codec writes 16 upper-case digits; token values in rippled's text; each path
 * step's `type`, which the codec leaves out (and no `type_hex`); the zero
 * account of a pseudo-transaction (UNLModify, EnableAmendment, SetFee) as "". Rippled before 2016
 * wrote UInt64 fields with 16 digits; a current server writes every ledger as here.
 */
export function asRippledJson(decoded: Json, { transaction }: { transaction: boolean }): Json {
  const out = rewrite(decoded, undefined) as Json;
  if (transaction && out.Account === ZERO_ACCOUNT) out.Account = '';
  return out;
}
