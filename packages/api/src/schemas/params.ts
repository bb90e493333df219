import Type from 'typebox';
import Format from 'typebox/format';
import { isValidClassicAddress } from 'xrpl';
import { MAINNET_FIRST_LEDGER } from '@xle/core';
import { FIXED_SPACES } from '@xle/documents';

/**
 * Path and query parameter formats, exactly as the spec's Input formats table says. Formats
 * registered here are checked by every compiled validator (and named in the OpenAPI document).
 */
Format.Set('xrpl-address', (value) => /^r[1-9A-HJ-NP-Za-km-z]{24,34}$/.test(value) && isValidClassicAddress(value));

const HEX64 = '^[0-9A-Fa-f]{64}$';

export const AccountParam = Type.String({
  format: 'xrpl-address',
  pattern: '^r[1-9A-HJ-NP-Za-km-z]{24,34}$',
  description: 'Classic address: base58, 25 to 35 characters, starts with r, with a valid checksum.',
  examples: ['rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw'],
});

export const HashParam = Type.String({
  pattern: HEX64,
  description: '64 hex characters, case-insensitive.',
});

/** A transaction hash, or its compact identifier (XLS-37 ctid: C + 15 hex digits). */
export const TxIdParam = Type.String({
  pattern: '^(?:[0-9A-Fa-f]{64}|[Cc][0-9A-Fa-f]{15})$',
  description: 'A 64-hex transaction hash (case-insensitive) or a 16-hex ctid (XLS-37).',
});

export const LEDGER_INDEX_MIN = MAINNET_FIRST_LEDGER;
export const LEDGER_INDEX_MAX = 4294967295;

/** A ledger index (32570..4294967295) or a 64-hex ledger hash. */
export const LedgerIdParam = Type.Refine(
  Type.String({
    pattern: `^(?:\\d{1,10}|[0-9A-Fa-f]{64})$`,
    description: `A ledger index (${LEDGER_INDEX_MIN} to ${LEDGER_INDEX_MAX}) or a 64-hex ledger hash.`,
  }),
  (id) => id.length === 64 || (Number(id) >= LEDGER_INDEX_MIN && Number(id) <= LEDGER_INDEX_MAX),
  () => `must be between ${LEDGER_INDEX_MIN} and ${LEDGER_INDEX_MAX}`,
);

export { FIXED_OBJECT_IDS, type FixedObjectName } from '@xle/documents';

export const ObjectIdParam = Type.String({
  pattern: `^(?:[0-9A-Fa-f]{64}|${Object.keys(FIXED_SPACES).join('|')})$`,
  description: `A 64-hex ledger object id, or one of ${Object.keys(FIXED_SPACES).join(', ')}.`,
});

export const PublicKeyParam = Type.String({
  pattern: '^n[1-9A-HJ-NP-Za-km-z]{1,52}$',
  description: 'Base58 public key, up to 53 characters, starts with n.',
});

/**
 * TOKEN_CODE.TOKEN_ISSUER: ISO or 3-char code, 40-hex code, or a 4-40 character decoded code. A
 * decoded code is any printable text (the ingester's `_currency`), dots and spaces included: the
 * issuer is what follows the last dot, since an address has none.
 */
export const TokenParam = Type.String({
  pattern: '^(?:[0-9A-Fa-f]{40}|[^\\u0000-\\u001F\\u007F]{3,40})\\.r[1-9A-HJ-NP-Za-km-z]{24,34}$',
  description: 'TOKEN_CODE.TOKEN_ISSUER',
});

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * An ISO 8601 instant in seconds since the Unix epoch (fractions kept), or undefined when the
 * text is not one or names an impossible day or time: a date (`2024-05-01`, its 00:00 UTC), or a
 * date and time with optional seconds, fraction and zone (`Z` or `±hh:mm`; none means UTC). Pure.
 */
export function parseInstant(text: string): number | undefined {
  const m = INSTANT.exec(text);
  if (m === null) return undefined;
  const [year, month, day, hour = 0, minute = 0, second = 0] = m.slice(1, 7).map((part) => Number(part ?? 0));
  // setUTCFullYear, not Date.UTC, which reads the years 0 to 99 as 1900 to 1999.
  const d = new Date(0);
  d.setUTCFullYear(year as number, (month as number) - 1, day);
  d.setUTCHours(hour as number, minute, second);
  const utc = d.getTime();
  // 2024-02-30 rolls over to March: an impossible date does not come back as written.
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== (month as number) - 1 || d.getUTCDate() !== day)
    return undefined;
  if ((hour as number) > 23 || (minute as number) > 59 || (second as number) > 59) return undefined;
  const zone = m[8];
  let offsetMinutes = 0;
  if (zone !== undefined && zone !== 'Z') {
    const [h, min] = zone.slice(1).split(':').map(Number) as [number, number];
    if (h > 23 || min > 59) return undefined;
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (h * 60 + min);
  }
  return utc / 1000 + Number(m[7] ?? 0) - offsetMinutes * 60;
}

/** An instant for /ledger/at/{DATE}. */
export const InstantParam = Type.Refine(
  Type.String({
    maxLength: 40,
    pattern: INSTANT.source,
    description:
      'An ISO 8601 instant: a date (`2024-05-01`, meaning 00:00 UTC) or a date and time with optional seconds, fraction and zone (`2024-05-01T12:30:00Z`, `2024-05-01T14:30+02:00`); without a zone, UTC.',
    examples: ['2025-04-19T12:00:00Z'],
  }),
  (text) => parseInstant(text) !== undefined,
  () => 'is not a real date and time',
);
