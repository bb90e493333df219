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

export function encodePageMarker(scope: string, after: readonly unknown[]): string {
  return Buffer.from(JSON.stringify({ v: 1, scope, after })).toString('base64url');
}

const SORT_VALUE = (value: unknown): boolean =>
  typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

/** The marker in a query parameter, or undefined when it is not one this API issued (pure). */
export function parsePageMarker(text: string): PageMarker | undefined {
  let marker: PageMarker;
  try {
    marker = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as PageMarker;
  } catch {
    return undefined;
  }
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
