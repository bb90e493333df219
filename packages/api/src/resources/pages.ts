import type { estypes } from '@elastic/elasticsearch';
import type { IndexKind } from '@xle/core';
import type { Engine } from '../engine.js';
import { decodePageMarker, encodePageMarker } from '../queries/markers.js';

/** What a paged route asks: how many, and from where. */
export interface PageRequest {
  limit: number;
  marker?: string | undefined;
}

/** Where a page is searched: an index kind, or one key's documents of the activity index (one shard). */
export type PageSource = IndexKind | { activity: string };

/**
 * One page of a walk in a unique sort order whose markers belong to `scope`: the marker is checked
 * (another walk's is a 400), `request(after)` asks for `limit` + 1 hits after it (the extra one
 * says whether a next page exists), and the marker of the next page comes from the page's last hit.
 */
export async function markedPage<T>(
  engine: Engine,
  source: PageSource,
  scope: string,
  { limit, marker }: PageRequest,
  request: (after: estypes.FieldValue[] | undefined) => estypes.SearchRequest,
): Promise<{ hits: estypes.SearchHit<T>[]; next?: string }> {
  const after = marker === undefined ? undefined : decodePageMarker(marker, scope);
  const body = request(after);
  const answer =
    typeof source === 'string'
      ? await engine.search<T>(source, body)
      : await engine.searchActivity<T>(source.activity, body);
  const found = answer.hits.hits;
  const hits = found.slice(0, limit);
  const last = hits[hits.length - 1];
  return found.length > limit && last?.sort !== undefined
    ? { hits, next: encodePageMarker(scope, last.sort) }
    : { hits };
}
