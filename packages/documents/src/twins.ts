import type { Json } from './json.js';
import { decodeHexText } from './hex.js';
import { rippleTimeToIso } from './time.js';

/** Hex blobs that get a decoded, full-text searchable `_` twin (the hex stays). */
const HEX_FIELDS = ['Domain', 'URI'] as const;
/** XRPL-epoch times that get an ISO `_` twin. */
const TIME_FIELDS = ['Expiration', 'CancelAfter', 'FinishAfter'] as const;

/** Adds `_Domain`, `_URI` and the ISO time twins to an object this module's caller owns. */
export function addDecodedTwins(fields: Json): void {
  for (const name of HEX_FIELDS) {
    const text = decodeHexText(fields[name]);
    if (text !== undefined) fields[`_${name}`] = text;
  }
  for (const name of TIME_FIELDS) {
    const value = fields[name];
    if (typeof value === 'number') fields[`_${name}`] = rippleTimeToIso(value);
  }
}
