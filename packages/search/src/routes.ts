import { Readable } from 'node:stream';
import type { estypes } from '@elastic/elasticsearch';
import type { Context } from 'koa';
import Router from '@koa/router';
import Type from 'typebox';
import { BadRequestError, compileValidator, ErrorCode, type IndexKind, type Logger } from '@xle/core';
import { checkSearchBody, DEFAULT_LIMITS, type SearchLimits } from './dsl-guard.js';
import type { SearchEngine } from './engine.js';
import { createWriter, FORMATS, formatFromAccept, MEDIA_TYPES, type Format } from './formats/formats.js';
import { initialState, runPlan, type Batch, type RunState } from './sql/execute.js';
import { PUBLIC_TABLES, translateSql, type Plan } from './sql/translate.js';
import type { TableSchema } from './sql/schema.js';
import type { TokenSealer } from './tokens.js';

/** Indices `/search` may read, by public name. */
export const SEARCHABLE: Readonly<Record<string, IndexKind>> = {
  transactions: 'transactions',
  ledgers: 'ledgers',
  accounts: 'accounts',
  objects: 'objects',
};

/** Engine page size of a streamed SQL export; `fetch_size` sets it for cursor pages. */
export const EXPORT_PAGE_SIZE = 1000;
export const MAX_FETCH_SIZE = 10_000;
const CURSOR_IN_BODY = new Set<Format>(['json', 'yaml', 'cbor', 'smile']);

const IndexParam = Type.Union(
  Object.keys(SEARCHABLE).map((k) => Type.Literal(k)),
  { description: 'Index to read: transactions (default), ledgers, accounts or objects.' },
);
const FormatParam = Type.Union(
  FORMATS.map((f) => Type.Literal(f)),
  { description: 'csv, json, tsv, txt, text, yaml, cbor or smile.' },
);

/** Request schemas of the search routes: they validate requests and make the OpenAPI document. */
export const SEARCH_SCHEMAS = {
  searchQuery: Type.Object({ index: Type.Optional(IndexParam) }, { additionalProperties: false }),
  pitQuery: Type.Object(
    {
      index: Type.Optional(IndexParam),
      keep_alive: Type.Optional(
        Type.String({ pattern: '^[0-9]{1,3}(s|m)$', description: 'How long the point in time lives, e.g. 30s or 5m.' }),
      ),
    },
    { additionalProperties: false },
  ),
  pitCloseBody: Type.Object(
    { id: Type.String({ description: 'The id POST /search/pit gave.' }) },
    { additionalProperties: false },
  ),
  sqlQuery: Type.Object({ format: Type.Optional(FormatParam) }, { additionalProperties: false }),
  sqlBody: Type.Object(
    {
      query: Type.Optional(
        Type.String({ minLength: 1, maxLength: 16384, description: 'Limited SQL over the public tables.' }),
      ),
      cursor: Type.Optional(Type.String({ minLength: 1, description: 'The cursor of the previous page.' })),
      format: Type.Optional(FormatParam),
      fetch_size: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: MAX_FETCH_SIZE,
          description: 'Rows per page; a cursor follows a full page.',
        }),
      ),
      time_zone: Type.Optional(Type.Union([Type.Literal('Z'), Type.Literal('UTC'), Type.Literal('+00:00')])),
    },
    { additionalProperties: false },
  ),
  sqlCloseBody: Type.Object({ cursor: Type.String() }, { additionalProperties: false }),
};

const SearchQuery = compileValidator('query', SEARCH_SCHEMAS.searchQuery) as (raw: Record<string, unknown>) => {
  index?: string;
};
const PitQuery = compileValidator('query', SEARCH_SCHEMAS.pitQuery) as (raw: Record<string, unknown>) => {
  index?: string;
  keep_alive?: string;
};
const PitCloseBody = compileValidator('body', SEARCH_SCHEMAS.pitCloseBody) as (raw: Record<string, unknown>) => {
  id: string;
};
const SqlQuery = compileValidator('query', SEARCH_SCHEMAS.sqlQuery) as (raw: Record<string, unknown>) => {
  format?: Format;
};
const SqlBody = compileValidator('body', SEARCH_SCHEMAS.sqlBody) as (raw: Record<string, unknown>) => {
  query?: string;
  cursor?: string;
  format?: Format;
  fetch_size?: number;
};
const CloseBody = compileValidator('body', SEARCH_SCHEMAS.sqlCloseBody) as (raw: Record<string, unknown>) => {
  cursor: string;
};

interface SqlCursor {
  sql: string;
  state: RunState;
  fetchSize: number;
  carry?: unknown;
}

function bodyOf(ctx: Context): Record<string, unknown> {
  const body = (ctx.request as { body?: unknown }).body;
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new BadRequestError('The body must be a JSON object.', { in: 'body' }, ErrorCode.InvalidQuery);
  return body as Record<string, unknown>;
}

/** Aborts engine work when the client goes away before the answer is complete. */
function abortOnDisconnect(ctx: Context): AbortController {
  const controller = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) controller.abort();
  });
  return controller;
}

/** The search envelope with public index names; point-in-time ids come back sealed. */
function shapeSearchAnswer(engine: SearchEngine, sealer: TokenSealer, answer: estypes.SearchResponse): unknown {
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

export interface SearchDeps {
  engine: SearchEngine;
  sealer: TokenSealer;
  logger: Logger;
  limits?: SearchLimits;
}

async function loadSchemas(engine: SearchEngine): Promise<(kind: IndexKind) => TableSchema> {
  const entries = await Promise.all(
    Object.values(PUBLIC_TABLES).map(async (kind) => [kind, await engine.schema(kind)] as const),
  );
  const schemas = new Map(entries);
  return (kind) => schemas.get(kind) ?? new Map();
}

function chooseFormat(ctx: Context, query: { format?: Format }, body: { format?: Format }): Format {
  return query.format ?? body.format ?? formatFromAccept(ctx.get('Accept') || undefined) ?? 'json';
}

/** POST /search, /search/pit, DELETE /search/pit, POST /sql and /sql/close, on a router of their own. */
export function searchRouter({ engine, sealer, logger, limits = DEFAULT_LIMITS }: SearchDeps): Router {
  const router = new Router({ sensitive: true });

  router.post('/search', async (ctx) => {
    const { index } = SearchQuery(ctx.query as Record<string, unknown>);
    const body = checkSearchBody(bodyOf(ctx), limits);
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
    const controller = abortOnDisconnect(ctx);
    const answer = await engine.search(kind, request, controller.signal);
    ctx.body = shapeSearchAnswer(engine, sealer, answer);
  });

  router.post('/search/pit', async (ctx) => {
    const { index, keep_alive } = PitQuery(ctx.query as Record<string, unknown>);
    const keepAlive = keep_alive ?? '1m';
    const seconds = Number(keepAlive.slice(0, -1)) * (keepAlive.endsWith('m') ? 60 : 1);
    if (seconds > limits.maxKeepAliveSeconds)
      throw new BadRequestError(
        `"keep_alive" may be at most ${limits.maxKeepAliveSeconds}s.`,
        { parameter: 'keep_alive' },
        ErrorCode.QueryLimitExceeded,
      );
    const id = await engine.openPit(SEARCHABLE[index ?? 'transactions'] as IndexKind, keepAlive);
    ctx.body = { id: sealer.seal('pit', id), keep_alive: keepAlive };
  });

  router.delete('/search/pit', async (ctx) => {
    const { id } = PitCloseBody(bodyOf(ctx));
    await engine.closePit(sealer.open<string>('pit', id, 'id'));
    ctx.body = { succeeded: true };
  });

  router.post('/sql/close', async (ctx) => {
    const { cursor } = CloseBody(bodyOf(ctx));
    const state = sealer.open<SqlCursor>('sql', cursor, 'cursor').state;
    if (state.pit !== undefined) await engine.closePit(state.pit);
    ctx.body = { succeeded: true };
  });

  router.post('/sql', async (ctx) => {
    const query = SqlQuery(ctx.query as Record<string, unknown>);
    const body = SqlBody(bodyOf(ctx));
    const format = chooseFormat(ctx, query, body);
    if ((body.query === undefined) === (body.cursor === undefined))
      throw new BadRequestError(
        'Send either "query" or "cursor".',
        { parameter: body.query === undefined ? 'query' : 'cursor' },
        ErrorCode.InvalidParameter,
      );
    const cursor = body.cursor === undefined ? undefined : sealer.open<SqlCursor>('sql', body.cursor, 'cursor');
    const sql = cursor?.sql ?? (body.query as string);
    const plan: Plan = translateSql(sql, await loadSchemas(engine));
    const fetchSize = cursor?.fetchSize ?? body.fetch_size;
    const controller = abortOnDisconnect(ctx);
    const state = cursor?.state ?? initialState();
    const run = runPlan(engine, plan, {
      pageSize: fetchSize ?? EXPORT_PAGE_SIZE,
      prefetch: fetchSize === undefined,
      state,
      signal: controller.signal,
    });
    const writer = createWriter(format, cursor !== undefined, cursor?.carry);
    // The first page is fetched before answering, so a failing query is still a clean 4xx / 5xx.
    let first: IteratorResult<Batch, void>;
    try {
      first = await run.next();
    } catch (error) {
      if (state.pit !== undefined) await engine.closePit(state.pit);
      throw error;
    }
    const firstRows = first.done === true ? [] : first.value.rows;
    ctx.type = MEDIA_TYPES[format];
    if (fetchSize !== undefined) {
      // One page; a cursor carries on when the engine has more. Body formats carry it inside the
      // document, the text formats in the Cursor header, as Elasticsearch SQL does.
      const head = writer.start(plan.columns, firstRows);
      const rows = writer.rows(firstRows);
      const next = state.done
        ? undefined
        : sealer.seal('sql', { sql, state, fetchSize, carry: writer.carry() } satisfies SqlCursor);
      if (next !== undefined) ctx.set('Cursor', next);
      else if (state.pit !== undefined) await engine.closePit(state.pit);
      ctx.body = Buffer.concat([head, rows, writer.end(CURSOR_IN_BODY.has(format) ? next : undefined)]);
      return;
    }
    ctx.body = Readable.from(streamAll(), { objectMode: false });

    async function* streamAll(): AsyncGenerator<Buffer> {
      let failed = false;
      try {
        yield Buffer.concat([writer.start(plan.columns, firstRows), writer.rows(firstRows)]);
        for await (const batch of run) yield writer.rows(batch.rows);
        yield writer.end();
      } catch (error) {
        failed = true;
        if (!controller.signal.aborted) logger.error({ err: error, sql }, 'SQL export failed mid-stream');
        throw error;
      } finally {
        if (!failed) controller.abort();
        await run.return(undefined);
        if (state.pit !== undefined) await engine.closePit(state.pit);
      }
    }
  });

  return router;
}
