import type { estypes } from '@elastic/elasticsearch';
import { BadRequestError, ErrorCode } from '@xle/core';

/**
 * The marker of a walk in a unique sort order (NFT histories, issuers' NFTs, exports): what the
 * walk is over (`scope`, e.g. the NFT id or the issuer and taxon) and the sort values of the last
 * item returned, resumed with `search_after`. Opaque to clients (base64url JSON); a marker for
 * another walk is a 400, never a silent restart.
 */
export interface PageMarker {
  v: 1;
  scope: string;
  after: estypes.FieldValue[];
}

/** A marker's text: its JSON as base64url (both kinds of marker). */
function encodeJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** A marker's JSON, or undefined when the text is not base64url JSON (both kinds of marker; checked by the caller). */
function decodeJson<T>(text: string): T | undefined {
  try {
    return JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as T;
  } catch {
    return undefined;
  }
}

export function encodePageMarker(scope: string, after: readonly unknown[]): string {
  return encodeJson({ v: 1, scope, after });
}

const SORT_VALUE = (value: unknown): boolean =>
  typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

/** The marker in a query parameter, or undefined when it is not one this API issued (pure). */
export function parsePageMarker(text: string): PageMarker | undefined {
  const marker = decodeJson<PageMarker>(text);
  const valid =
    marker?.v === 1 &&
    typeof marker.scope === 'string' &&
    Array.isArray(marker.after) &&
    marker.after.length > 0 &&
    marker.after.length <= 4 &&
    marker.after.every(SORT_VALUE);
  return valid ? marker : undefined;
}

/** The resume point of a marker issued for `scope` (a 400 INVALID_PARAMETER otherwise). */
export function decodePageMarker(text: string, scope: string, parameter = 'marker'): estypes.FieldValue[] {
  const marker = parsePageMarker(text);
  if (marker === undefined || marker.scope !== scope)
    throw new BadRequestError(
      `Invalid query parameter "${parameter}": ${marker === undefined ? 'not one this API issued' : 'it belongs to another request'}.`,
      { parameter, in: 'query' },
      ErrorCode.InvalidParameter,
    );
  return marker.after;
}

/**
 * The marker pins the ledger range of the first page (so ledgers ingested meanwhile never shift
 * the walk) and the sort values of the last transaction returned; (ledger_index,
 * TransactionIndex) is unique per transaction, so nothing is skipped or repeated.
 */
export interface Marker {
  v: 1;
  account: string;
  max: number;
  after: [number, number];
  forward: boolean;
  /**
   * The close time (`_date`) of the last transaction's ledger. Close times never go back as
   * ledgers go on, so the ledgers left to walk closed at or before it (at or after it, forward):
   * a range on a date field, which the engine checks against each shard's own bounds and answers
   * without searching a range index that lies wholly beyond it (a numeric range is not checked).
   */
  closed?: string;
}

export function encodeMarker(marker: Marker): string {
  return encodeJson(marker);
}

const notIssued = (): BadRequestError =>
  new BadRequestError(
    'Invalid query parameter "marker": not a marker this API issued.',
    { parameter: 'marker', in: 'query' },
    ErrorCode.InvalidParameter,
  );

/** The marker in a `marker` parameter, or undefined when it is not one this API issued (pure). */
export function parseMarker(text: string): Marker | undefined {
  const marker = decodeJson<Marker>(text);
  const valid =
    marker?.v === 1 &&
    Number.isInteger(marker.max) &&
    Array.isArray(marker.after) &&
    marker.after.length === 2 &&
    marker.after.every((n) => Number.isInteger(n)) &&
    (marker.closed === undefined || (typeof marker.closed === 'string' && !Number.isNaN(Date.parse(marker.closed))));
  return valid ? marker : undefined;
}

/** A marker this API issued for the same account and ordering (pure; a 400 otherwise). */
export function decodeMarker(text: string, account: string, forward: boolean): Marker {
  const marker = parseMarker(text);
  if (marker === undefined) throw notIssued();
  if (marker.account !== account || marker.forward !== forward) {
    throw new BadRequestError(
      'Invalid query parameter "marker": it belongs to another account or ordering.',
      { parameter: 'marker', in: 'query' },
      ErrorCode.InvalidParameter,
    );
  }
  return marker;
}
