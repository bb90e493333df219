/**
 * Human form of an XRPL currency code (https://xrpl.org/docs/references/protocol/data-types/currency-formats):
 * - `XRP` for the native currency;
 * - 3-character standard codes as they are;
 * - 160-bit (40 hex) codes: a standard code stored in hex (zero bytes except bytes 12-14) becomes
 *   those 3 characters; a code whose first byte is 0x03 is an AMM LP token (shown as `LP`, the pool
 *   being identified by the token's issuer, the AMM account); other codes become their text when
 *   they decode to printable UTF-8 (trailing zero bytes dropped), and stay hex otherwise, so the
 *   result is always printable and never garbage.
 */
const HEX40 = /^[0-9A-F]{40}$/i;
const PRINTABLE = /^[\p{L}\p{N}\p{P}\p{S}\p{Zs}]+$/u;

export const LP_TOKEN_CURRENCY = 'LP';

/** Whether a code is a standard one (3 characters, or its 40-hex form: zeros but bytes 12-14) (pure). */
export function isStandardCurrencyCode(code: string): boolean {
  return (
    /^[A-Za-z0-9?!@#$%^&*<>(){}[\]|]{3}$/.test(code) ||
    (/^0{24}[0-9A-F]{6}0{10}$/i.test(code) && code !== '0'.repeat(40))
  );
}

export function isLpTokenCode(code: string): boolean {
  return HEX40.test(code) && code.slice(0, 2) === '03';
}

export function decodeCurrency(code: string): string {
  if (!HEX40.test(code)) return code;
  const bytes = Buffer.from(code, 'hex');
  if (bytes.every((b) => b === 0)) return 'XRP';
  if (bytes[0] === 0x03) return LP_TOKEN_CURRENCY;
  if (bytes[0] === 0x00) {
    const iso = bytes.subarray(12, 15).toString('latin1');
    const restZero = bytes.subarray(0, 12).every((b) => b === 0) && bytes.subarray(15).every((b) => b === 0);
    if (restZero && /^[A-Za-z0-9?!@#$%^&*<>(){}[\]|]{3}$/.test(iso)) return iso;
  }
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end -= 1;
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, end));
  if (!text.includes('\uFFFD') && PRINTABLE.test(text)) return text.trim() === '' ? code.toUpperCase() : text;
  return code.toUpperCase();
}
