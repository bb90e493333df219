/**
 * Decodes an XRPL hex blob (Domain, URI, MemoType, MemoData, MemoFormat) to text for full-text
 * search. An empty blob decodes to "" (a present field always has its twin). Returns undefined
 * when the bytes are not valid UTF-8 or hold control characters, so the decoded twin is only ever
 * readable text; the original hex is always kept beside it.
 */
const HEX = /^(?:[0-9A-Fa-f]{2})*$/;
// eslint-disable-next-line no-control-regex -- the point is to reject control characters
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

export function decodeHexText(hex: unknown): string | undefined {
  if (typeof hex !== 'string' || !HEX.test(hex)) return undefined;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(hex, 'hex'));
    return CONTROL.test(text) ? undefined : text;
  } catch {
    return undefined;
  }
}
