import { ERROR_BODY_SCHEMA, errorResponse, openApiParameters, plainSchema as plain } from '@xle/core';
import type { AnyRoute } from './route.js';

type Json = Record<string, unknown>;

const ERRORS: Record<string, string> = {
  '400': 'Bad input: INVALID_PARAMETER or UNKNOWN_PARAMETER, with the offending parameter in details',
  '404': 'NOT_FOUND: the resource is not in the indexed ledgers',
  '503': 'ENGINE_UNAVAILABLE (with Retry-After) or DATA_NOT_READY',
  '504': 'ENGINE_TIMEOUT',
};

/** OpenAPI 3.1, generated from the same TypeBox schemas that validate requests. */
export function buildOpenApi(
  routes: readonly AnyRoute[],
  info: { title: string; version: string; description: string },
): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const parameters = [...openApiParameters('path', route.params), ...openApiParameters('query', route.query)];
    const responses: Json = {
      '200': { description: 'OK', content: { 'application/json': { schema: plain(route.response) } } },
    };
    for (const [status, description] of Object.entries(ERRORS)) responses[status] = errorResponse(description);
    const operation: Json = {
      summary: route.summary,
      tags: route.tags,
      operationId: `${route.method}${route.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
      parameters,
      responses,
    };
    if (route.dataSet !== undefined)
      operation.description = `Answers 503 DATA_NOT_READY until the ${route.dataSet.name ?? route.dataSet.job} data set is computed.`;
    paths[`/api/v1${route.path}`] = { ...(paths[`/api/v1${route.path}`] ?? {}), [route.method]: operation };
  }
  return {
    openapi: '3.1.0',
    info,
    servers: [{ url: '/' }],
    paths,
    components: { schemas: { ErrorBody: ERROR_BODY_SCHEMA } },
  };
}
