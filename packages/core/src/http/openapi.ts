import type { TObject, TSchema } from 'typebox';
import type { AnyRoute } from './route.js';

/** A JSON Schema or OpenAPI object, as written into the document. */
export type OpenApiObject = Record<string, unknown>;

/** A plain JSON Schema copy of a TypeBox schema (its own `~` keys removed), for OpenAPI documents. */
export function plainSchema(schema: TSchema): OpenApiObject {
  return JSON.parse(
    JSON.stringify(schema, (key, value: unknown) => (key.startsWith('~') ? undefined : value)),
  ) as OpenApiObject;
}

/** The one error body every API answers with (see errorHandler). */
export const ERROR_BODY_SCHEMA: OpenApiObject = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' }, details: {} },
    },
  },
};

/** How a client proves access: an API key of a plan, or a pay-as-you-go claim (see @xle/access). */
export const SECURITY_SCHEMES: OpenApiObject = {
  ApiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description:
      'A key of a subscription plan (`pnpm admin keys create --plan pro`). Without one, a REST request counts against the free plan of its address.',
  },
  PaymentClaim: {
    type: 'apiKey',
    in: 'header',
    name: 'Payment-Claim',
    description: 'A signed XRP payment-channel claim covering the request (pay as you go).',
  },
};

/** An operation's security requirements: none, a key optional (`{}` admits anonymous), or required. */
export type AccessRequirement = 'open' | 'key-optional' | 'key' | 'payg' | 'key-or-payg';
const SECURITY: Readonly<Record<AccessRequirement, OpenApiObject[] | undefined>> = {
  open: undefined,
  'key-optional': [{}, { ApiKey: [] }],
  key: [{ ApiKey: [] }],
  payg: [{ PaymentClaim: [] }],
  'key-or-payg': [{ ApiKey: [] }, { PaymentClaim: [] }],
};

/** An OpenAPI response answered with the shared error body (components.schemas.ErrorBody). */
export function errorResponse(description: string): OpenApiObject {
  return { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } };
}

/**
 * Example values of parameters (real ids of a data set), for readers and fuzzers: path parameters
 * by name, query parameters by `?name`.
 */
export type ParameterExamples = Readonly<Record<string, readonly string[]>>;

/** OpenAPI parameter objects for each property of a path or query schema (path ones are required). */
export function openApiParameters(
  where: 'path' | 'query',
  object: TObject,
  examples: ParameterExamples = {},
): OpenApiObject[] {
  const required = new Set((object.required as string[] | undefined) ?? []);
  return Object.entries(object.properties as Record<string, TSchema>).map(([name, schema]) => {
    const { description, ...rest } = plainSchema(schema);
    const known = examples[where === 'path' ? name : `?${name}`];
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(description === undefined ? {} : { description }),
      schema: known === undefined ? rest : { ...rest, examples: known },
    };
  });
}

/** `get` + `/account/{ACCOUNT}/transactions` → `getAccountACCOUNTTransactions`. */
function operationId(method: string, path: string): string {
  return `${method}${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`;
}

export interface OpenApiOptions {
  info: { title: string; version: string; description: string };
  /** The router prefix the routes are mounted under, e.g. `/api/v1`. */
  prefix: string;
  /** Statuses every route may answer besides 200, unless it declares its own. */
  errors: Readonly<Record<string, string>>;
  /** What the operations' callers must show (default open). */
  access?: AccessRequirement;
  /** Example values of parameters: path ones by name, query ones by `?name`. */
  examples?: ParameterExamples;
  /** Example 200 answers by full path (GET operations), shown with each JSON response schema. */
  responseExamples?: Readonly<Record<string, unknown>>;
}

/**
 * The 200 answer's schema in a media type that is not JSON: the route's own for it; for NDJSON
 * the response schema, which each line matches; else text (CSV, TSV, plain text).
 */
function formatSchema(route: AnyRoute, type: string, lineSchema: unknown): unknown {
  const own = route.formats?.[type];
  if (own !== undefined) return plainSchema(own);
  if (type === 'application/x-ndjson') return lineSchema;
  return { type: 'string', description: `The answer as ${type}.` };
}

/** The operation of one route: parameters, body, answers, from the schemas that validate it. */
function operationOf(
  route: AnyRoute,
  errors: Readonly<Record<string, string>>,
  access: AccessRequirement,
  examples: ParameterExamples,
  responseExample: unknown,
): OpenApiObject {
  const parameters = [
    ...(route.params === undefined ? [] : openApiParameters('path', route.params, examples)),
    ...(route.query === undefined ? [] : openApiParameters('query', route.query)),
  ];
  const schema = plainSchema(route.response);
  const produces = route.produces ?? ['application/json'];
  const content = Object.fromEntries(
    produces.map((type) => [
      type,
      type === 'application/json'
        ? { schema, ...(responseExample === undefined ? {} : { example: responseExample }) }
        : { schema: formatSchema(route, type, schema) },
    ]),
  );
  const responses: OpenApiObject = { '200': { description: 'OK', content } };
  for (const [status, description] of Object.entries({ ...errors, ...route.errors }))
    responses[status] = errorResponse(description);
  const notes = [
    route.description,
    route.dataSet === undefined
      ? undefined
      : `Answers 503 DATA_NOT_READY until the ${route.dataSet.name ?? route.dataSet.job} data set is computed.`,
  ].filter((n) => n !== undefined);
  return {
    summary: route.summary,
    ...(notes.length === 0 ? {} : { description: notes.join(' ') }),
    tags: route.tags,
    operationId: operationId(route.method, route.path),
    parameters,
    ...(route.body === undefined
      ? {}
      : { requestBody: { required: true, content: { 'application/json': { schema: plainSchema(route.body) } } } }),
    responses,
    ...(SECURITY[access] === undefined ? {} : { security: SECURITY[access] }),
  };
}

/** The path items of declared routes, keyed by their full path. */
export function openApiPaths(
  routes: readonly AnyRoute[],
  options: Pick<OpenApiOptions, 'prefix' | 'errors' | 'access' | 'examples' | 'responseExamples'>,
): Record<string, OpenApiObject> {
  const paths: Record<string, OpenApiObject> = {};
  for (const route of routes) {
    const path = `${options.prefix}${route.path}`;
    paths[path] = {
      ...(paths[path] ?? {}),
      [route.method]: operationOf(
        route,
        options.errors,
        options.access ?? 'open',
        options.examples ?? {},
        route.method === 'get' ? options.responseExamples?.[path] : undefined,
      ),
    };
  }
  return paths;
}

/** OpenAPI 3.1, generated from the same TypeBox schemas that validate requests. */
export function buildOpenApi(routes: readonly AnyRoute[], options: OpenApiOptions): OpenApiObject {
  return {
    openapi: '3.1.0',
    info: options.info,
    servers: [{ url: '/' }],
    paths: openApiPaths(routes, options),
    components: { schemas: { ErrorBody: ERROR_BODY_SCHEMA }, securitySchemes: SECURITY_SCHEMES },
  };
}
