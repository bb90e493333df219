import type { TObject } from 'typebox';
import { ERROR_BODY_SCHEMA, errorResponse, openApiParameters, plainSchema } from '@xle/core';
import { FORMATS, MEDIA_TYPES } from './formats/formats.js';
import { SEARCH_SCHEMAS } from './routes.js';

type Json = Record<string, unknown>;

/** Answers every search route may give besides its own, by status. */
const ERRORS: Record<string, string> = {
  '400':
    'INVALID_QUERY (a body or SQL text that does not parse, or names an unknown field), FORBIDDEN_QUERY (scripts, ' +
    'writes, other indices), UNSUPPORTED_SQL, QUERY_LIMIT_EXCEEDED, INVALID_CURSOR, INVALID_PARAMETER or ' +
    'UNKNOWN_PARAMETER; `details` names the offending path or parameter',
  '401': 'API_KEY_REQUIRED or INVALID_API_KEY, where the search address admits subscription keys',
  '402': 'A missing or unusable Payment-Claim, where the search address is pay as you go',
  '413': 'PAYLOAD_TOO_LARGE: bodies are limited to 64 kB',
  '415': 'UNSUPPORTED_MEDIA_TYPE: send the body as application/json',
  '429': 'QUOTA_EXCEEDED or RATE_LIMITED (with Retry-After)',
  '503': 'ENGINE_UNAVAILABLE (with Retry-After)',
  '504': 'ENGINE_TIMEOUT',
};

function operation(
  id: string,
  summary: string,
  extra: { query?: TObject; body?: Json; ok: Json; description?: string },
): Json {
  const responses: Json = { '200': extra.ok };
  for (const [status, description] of Object.entries(ERRORS)) responses[status] = errorResponse(description);
  return {
    operationId: id,
    summary,
    tags: ['Advanced search'],
    ...(extra.description === undefined ? {} : { description: extra.description }),
    parameters: extra.query === undefined ? [] : openApiParameters('query', extra.query),
    ...(extra.body === undefined
      ? {}
      : { requestBody: { required: true, content: { 'application/json': { schema: extra.body } } } }),
    responses,
  };
}

const json = (schema: Json, description = 'OK'): Json => ({
  description,
  content: { 'application/json': { schema } },
});

/**
 * The search routes as OpenAPI 3.1 path items, from the same schemas that validate their requests:
 * served by the search address on its own and merged into the REST API's document when mounted.
 */
export function searchOpenApiPaths(): Record<string, Json> {
  const searchBody: Json = {
    type: 'object',
    description:
      'An Elasticsearch search body (query, sort, size, from, search_after, _source, aggs, highlight, pit…), ' +
      'checked by guard rails: no scripts, no runtime mappings, no other indices, and caps on size, windows, ' +
      'buckets and nesting.',
  };
  const sealed = { type: 'string', description: 'Sealed by this service; opaque to clients.' };
  return {
    '/api/v1/search': {
      post: operation('postSearch', 'Search the indexed documents with a search-engine query body', {
        query: SEARCH_SCHEMAS.searchQuery,
        body: searchBody,
        description:
          'With "pit": {"id", "keep_alive"} in the body, the search reads that point in time (leave out ?index).',
        ok: json({
          type: 'object',
          required: ['took', 'timed_out', '_shards', 'hits'],
          properties: {
            took: { type: 'integer' },
            timed_out: { type: 'boolean' },
            _shards: { type: 'object' },
            hits: { type: 'object' },
            aggregations: { type: 'object' },
            pit_id: sealed,
          },
        }),
      }),
    },
    '/api/v1/search/pit': {
      post: operation('postSearchPit', 'Open a point in time, for consistent deep paging with search_after', {
        query: SEARCH_SCHEMAS.pitQuery,
        ok: json({
          type: 'object',
          required: ['id', 'keep_alive'],
          properties: { id: sealed, keep_alive: { type: 'string' } },
        }),
      }),
      delete: operation('deleteSearchPit', 'Close a point in time', {
        body: plainSchema(SEARCH_SCHEMAS.pitCloseBody),
        ok: json({ type: 'object', properties: { succeeded: { type: 'boolean' } } }),
      }),
    },
    '/api/v1/sql': {
      post: operation('postSql', 'Run limited SQL over the transactions and ledgers tables', {
        query: SEARCH_SCHEMAS.sqlQuery,
        body: plainSchema(SEARCH_SCHEMAS.sqlBody),
        description:
          'Send either "query" or "cursor". The format comes from ?format, then the body\'s "format", then the ' +
          'Accept header, then json. Without fetch_size the whole result streams; with it, a full page carries a ' +
          'cursor (in the body for json, yaml, cbor and smile; in the Cursor header otherwise).',
        ok: {
          description: 'The result in the chosen format',
          content: Object.fromEntries(FORMATS.map((f) => [MEDIA_TYPES[f].split(';')[0], { schema: {} }])),
        },
      }),
    },
    '/api/v1/sql/close': {
      post: operation('postSqlClose', 'Release the engine resources of an SQL cursor before it expires', {
        body: plainSchema(SEARCH_SCHEMAS.sqlCloseBody),
        ok: json({ type: 'object', properties: { succeeded: { type: 'boolean' } } }),
      }),
    },
  };
}

/** The search address's own OpenAPI document. */
export function buildSearchOpenApi(info: { title: string; version: string; description: string }): Json {
  return {
    openapi: '3.1.0',
    info,
    servers: [{ url: '/' }],
    paths: searchOpenApiPaths(),
    components: { schemas: { ErrorBody: ERROR_BODY_SCHEMA } },
  };
}
