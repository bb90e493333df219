import type { estypes } from '@elastic/elasticsearch';
import type { Context } from 'koa';
import { BadRequestError, ErrorCode, type IndexKind } from '@xle/core';
import { checkFields } from './dsl-fields.js';
import { checkSearchBody, type SearchLimits } from './dsl-guard.js';
import type { SearchEngine } from './engine.js';
import type { TokenSealer } from './tokens.js';
import type { CursorStore } from './engine/cursor-store.js';
import type { SqlCursor } from './sql/execute.js';

/** Indices `/search` may read, by public name. */
export const SEARCHABLE: Readonly<Record<string, IndexKind>> = {
  transactions: 'transactions',
  ledgers: 'ledgers',
  accounts: 'accounts',
  objects: 'objects',
  balance_changes: 'balance-changes',
};

/** What the search routes work with. */
export interface SearchDeps {
  engine: SearchEngine;
  sealer: TokenSealer;
  /** SQL cursors between pages, kept in the engine. */
  cursors: CursorStore<SqlCursor>;
  limits: SearchLimits;
}

/** Aborts engine work when the client goes away before the answer is complete. */
export function abortOnDisconnect(ctx: Context): AbortController {
  const controller = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) controller.abort();
  });
  return controller;
}

/** The search envelope with public index names; point-in-time ids come back sealed (pure). */
export function shapeSearchAnswer(engine: SearchEngine, sealer: TokenSealer, answer: estypes.SearchResponse): unknown {
  const hits = answer.hits.hits.map((h) => {
    const hit: Record<string, unknown> = { _index: engine.publicName(h._index), _id: h._id, _score: h._score ?? null };
    for (const key of ['_source', 'fields', 'highlight', 'sort', 'inner_hits', 'matched_queries'] as const) {
      if (h[key] !== undefined) hit[key] = h[key];
    }
    return hit;
  });
  const out: Record<string, unknown> = {
    took: answer.took,
    timed_out: answer.timed_out,
    _shards: answer._shards,
    hits: { total: answer.hits.total, max_score: answer.hits.max_score ?? null, hits },
  };
  if (answer.aggregations !== undefined) out.aggregations = answer.aggregations;
  if (answer.pit_id !== undefined) out.pit_id = sealer.seal('pit', answer.pit_id);
  return out;
}

/**
 * POST /search: a guarded query body on one public index, or on the point in time its `pit`
 * names (whose index the point in time fixes).
 */
export async function runSearch(
  { engine, sealer, limits }: SearchDeps,
  index: string | undefined,
  rawBody: Record<string, unknown>,
  signal: AbortSignal,
): Promise<unknown> {
  const body = checkSearchBody(rawBody, limits);
  const request = { ...body } as estypes.SearchRequest;
  let kind: IndexKind | undefined = SEARCHABLE[index ?? 'transactions'];
  if (body.pit !== undefined) {
    if (index !== undefined)
      throw new BadRequestError(
        'A search with "pit" reads the point in time\'s index; leave out ?index.',
        { parameter: 'index' },
        ErrorCode.InvalidQuery,
      );
    const pit = body.pit as { id: string; keep_alive?: string };
    request.pit = { id: sealer.open<string>('pit', pit.id, 'pit.id'), keep_alive: pit.keep_alive ?? '1m' };
    kind = undefined;
  }
  // A point in time fixes its index, which its sealed id does not name: its fields are the engine's to check.
  if (kind !== undefined) checkFields(body, index ?? 'transactions', await engine.fields(kind));
  return shapeSearchAnswer(engine, sealer, await engine.search(kind, request, signal));
}

/** POST /search/pit: a sealed point in time on one public index. */
export async function openPointInTime(
  { engine, sealer, limits }: SearchDeps,
  index: string | undefined,
  keepAlive = '1m',
): Promise<{ id: string; keep_alive: string }> {
  const seconds = Number(keepAlive.slice(0, -1)) * (keepAlive.endsWith('m') ? 60 : 1);
  if (seconds > limits.maxKeepAliveSeconds)
    throw new BadRequestError(
      `"keep_alive" may be at most ${limits.maxKeepAliveSeconds}s.`,
      { parameter: 'keep_alive' },
      ErrorCode.QueryLimitExceeded,
    );
  const id = await engine.openPit(SEARCHABLE[index ?? 'transactions'] as IndexKind, keepAlive);
  return { id: sealer.seal('pit', id), keep_alive: keepAlive };
}
