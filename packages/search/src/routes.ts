import Type from 'typebox';
import { defineRoute, NoParams, NoQuery, withRules, type AnyRoute, type Logger } from '@xle/core';
import { FORMATS, MEDIA_TYPES } from './formats/formats.js';
import { abortOnDisconnect, openPointInTime, runSearch, SEARCHABLE, type SearchDeps } from './search.js';
import { closeSqlCursor, MAX_FETCH_SIZE, runSql } from './sql/export.js';

const TAGS = ['Advanced search'];

/** Answers every search route may give besides its own, by status. */
export const SEARCH_ERRORS: Readonly<Record<string, string>> = {
  '400':
    'INVALID_QUERY (a body or SQL text that does not parse, or names an unknown field), FORBIDDEN_QUERY (scripts, ' +
    'writes, other indices), UNSUPPORTED_SQL, QUERY_LIMIT_EXCEEDED, INVALID_CURSOR, INVALID_PARAMETER or ' +
    'UNKNOWN_PARAMETER; `details` names the offending path or parameter',
  '401': 'API_KEY_REQUIRED or INVALID_API_KEY, where the search address admits subscription keys',
  '402': 'A missing or unusable Payment-Claim, where the search address is pay as you go',
  '413': 'PAYLOAD_TOO_LARGE: bodies are limited to 64 kB',
  '415': 'UNSUPPORTED_MEDIA_TYPE: send the body as application/json',
  '429': 'QUOTA_EXCEEDED or RATE_LIMITED (with Retry-After)',
  '503':
    'ENGINE_UNAVAILABLE or INDEX_NOT_FOUND (an index the request reads is not in the engine right now), ' +
    'with Retry-After',
  '504': 'ENGINE_TIMEOUT',
};

const IndexParam = Type.Union(
  Object.keys(SEARCHABLE).map((k) => Type.Literal(k)),
  { description: 'Index to read: transactions (default), ledgers, accounts, objects or balance_changes.' },
);
const FormatParam = Type.Union(
  FORMATS.map((f) => Type.Literal(f)),
  { description: 'csv, json, tsv, txt, text, yaml, cbor or smile.' },
);
const Sealed = Type.String({ description: 'Sealed by this service; opaque to clients.' });
const Succeeded = Type.Object({ succeeded: Type.Boolean() });

/** Request schemas of the search routes: they validate requests and make the OpenAPI document. */
export const SEARCH_SCHEMAS = {
  searchQuery: Type.Object({ index: Type.Optional(IndexParam) }, { additionalProperties: false }),
  searchBody: Type.Object(
    {},
    {
      additionalProperties: true,
      description:
        'An Elasticsearch search body (query, sort, size, from, search_after, _source, aggs, highlight, pit…), ' +
        'checked by guard rails: no scripts, no runtime mappings, no other indices, and caps on size, windows, ' +
        'buckets and nesting.',
    },
  ),
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
  sqlBody: withRules(
    Type.Object(
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
    [
      {
        parameter: 'query',
        message: 'send either "query" or "cursor"',
        check: (b) => b.query !== undefined || b.cursor !== undefined,
      },
      {
        parameter: 'cursor',
        message: 'send "query" or "cursor", not both',
        check: (b) => b.query === undefined || b.cursor === undefined,
      },
    ],
  ),
  sqlCloseBody: Type.Object({ cursor: Type.String() }, { additionalProperties: false }),
};

/** POST /search, /search/pit, DELETE /search/pit, POST /sql and /sql/close. */
/** The JSON answer of POST /sql: as Elasticsearch SQL's, the columns once, then the rows, and a cursor when more follow. */
const SqlJsonAnswer = Type.Object(
  {
    columns: Type.Optional(
      Type.Array(
        Type.Object(
          {
            name: Type.String({ description: 'The column as the query names it.' }),
            type: Type.String({ description: 'Its SQL type (keyword, long, double, datetime, boolean, ...).' }),
          },
          { additionalProperties: false },
        ),
        { description: 'The result’s columns (absent on the pages after the first).' },
      ),
    ),
    rows: Type.Array(Type.Array(Type.Unknown()), { description: 'The rows, each a value per column.' }),
    cursor: Type.Optional(Type.String({ description: 'With fetch_size: resumes the result (POST /sql {"cursor"}).' })),
  },
  { additionalProperties: false, description: 'The result as JSON (format json).' },
);

/** The answers of POST /sql in its other formats, by media type. */
const SQL_TEXT_ANSWERS: Record<string, ReturnType<typeof Type.String>> = {
  'text/csv': Type.String({
    description: 'CSV with a header line (format csv); with fetch_size, the Cursor header resumes it.',
  }),
  'text/tab-separated-values': Type.String({ description: 'Tab-separated values with a header line (format tsv).' }),
  'text/plain': Type.String({ description: 'Elasticsearch SQL’s text table (format txt or text).' }),
  'application/yaml': Type.String({ description: 'YAML: columns, rows and the cursor (format yaml).' }),
  'application/cbor': Type.String({
    format: 'binary',
    description: 'CBOR: columns, rows and the cursor (format cbor).',
  }),
  'application/smile': Type.String({
    format: 'binary',
    description: 'Smile: columns, rows and the cursor (format smile).',
  }),
};

export function searchRoutes(deps: SearchDeps, logger: Logger): AnyRoute[] {
  const common = { tags: TAGS, errors: SEARCH_ERRORS, params: NoParams } as const;
  return [
    defineRoute({
      ...common,
      method: 'post',
      path: '/search',
      summary: 'Search the indexed documents with a search-engine query body',
      description:
        'With "pit": {"id", "keep_alive"} in the body, the search reads that point in time (leave out ?index).',
      query: SEARCH_SCHEMAS.searchQuery,
      body: SEARCH_SCHEMAS.searchBody,
      response: Type.Object(
        {
          took: Type.Integer(),
          timed_out: Type.Boolean(),
          _shards: Type.Object({}, { additionalProperties: true }),
          hits: Type.Object({}, { additionalProperties: true }),
          aggregations: Type.Optional(Type.Object({}, { additionalProperties: true })),
          pit_id: Type.Optional(Sealed),
        },
        { additionalProperties: false },
      ),
      handler: ({ query, body }, ctx) =>
        runSearch(deps, query.index, body as Record<string, unknown>, abortOnDisconnect(ctx).signal),
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: '/search/pit',
      summary: 'Open a point in time, for consistent deep paging with search_after',
      query: SEARCH_SCHEMAS.pitQuery,
      response: Type.Object({ id: Sealed, keep_alive: Type.String() }),
      handler: ({ query }) => openPointInTime(deps, query.index, query.keep_alive),
    }),
    defineRoute({
      ...common,
      method: 'delete',
      path: '/search/pit',
      summary: 'Close a point in time',
      query: NoQuery,
      body: SEARCH_SCHEMAS.pitCloseBody,
      response: Succeeded,
      handler: async ({ body }) => {
        await deps.engine.closePit(deps.sealer.open<string>('pit', body.id, 'id'));
        return { succeeded: true };
      },
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: '/sql',
      summary: 'Run limited SQL over the public tables (SHOW TABLES lists them)',
      description:
        'Send either "query" or "cursor". The format comes from ?format, then the body\'s "format", then the ' +
        'Accept header, then json. Without fetch_size the whole result streams; with it, a full page carries a ' +
        'cursor (in the body for json, yaml, cbor and smile; in the Cursor header otherwise).',
      query: SEARCH_SCHEMAS.sqlQuery,
      body: SEARCH_SCHEMAS.sqlBody,
      response: SqlJsonAnswer,
      produces: FORMATS.map((f) => MEDIA_TYPES[f].split(';')[0] as string),
      formats: SQL_TEXT_ANSWERS,
      handler: ({ query, body }, ctx) => runSql(deps, logger, query.format, body, ctx),
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: '/sql/close',
      summary: 'Release the engine resources of an SQL cursor before it expires',
      query: NoQuery,
      body: SEARCH_SCHEMAS.sqlCloseBody,
      response: Succeeded,
      handler: ({ body }) => closeSqlCursor(deps, body.cursor),
    }),
  ];
}
