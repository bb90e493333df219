import type { Context } from 'koa';
import type Router from '@koa/router';
import Type, { type Static, type TObject, type TSchema } from 'typebox';
import { compileValidator } from '@xle/core';

/**
 * One route, declared once: its schemas validate requests at the edge (defaults and string to
 * number conversion explicit, unknown query parameters rejected, every error with its path) and
 * produce the OpenAPI document; the handler receives the typed, validated input.
 */
export interface RouteSpec<P extends TObject, Q extends TObject> {
  method: 'get' | 'post';
  path: string;
  summary: string;
  tags: string[];
  params: P;
  query: Q;
  response: TSchema;
  /** Answers 503 DATA_NOT_READY until the data set behind it is computed. */
  dataSet?: string;
  handler: (ctx: Context, input: { params: Static<P>; query: Static<Q> }) => Promise<unknown>;
}

export type AnyRoute = RouteSpec<TObject, TObject>;

export const NoParams = Type.Object({});
export const NoQuery = Type.Object({}, { additionalProperties: false });
/** A response object whose fields follow the spec's tables (documented, not enforced). */
export const AnyObject = Type.Object({}, { additionalProperties: true });

export function defineRoute<P extends TObject, Q extends TObject>(spec: RouteSpec<P, Q>): AnyRoute {
  return spec as unknown as AnyRoute;
}

export function mountRoute(router: Router, route: AnyRoute): void {
  const params = compileValidator('path', route.params);
  const query = compileValidator('query', route.query);
  router[route.method](route.path.replace(/\{(\w+)\}/g, ':$1'), async (ctx) => {
    const input = {
      params: params(ctx.params as Record<string, unknown>),
      query: query(ctx.query as Record<string, unknown>),
    };
    ctx.body = await route.handler(ctx, input as never);
  });
}
