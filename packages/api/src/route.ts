import type { Context } from 'koa';
import type Router from '@koa/router';
import Type, { type Static, type TObject, type TSchema } from 'typebox';
import { compileValidator } from '@xle/core';
import { requireDataSet, type DataSetGate } from './data-set-gate.js';
import type { Engine } from './engine.js';
import type { JobStatus } from '@xle/documents';

/**
 * One route, declared once: its schemas validate requests at the edge (defaults and string to
 * number conversion explicit, unknown query parameters rejected, every error with its path) and
 * produce the OpenAPI document; the handler receives the typed, validated input. A route over a
 * computed data set declares its gate, checked before the handler runs, which then gets the run.
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
  dataSet?: DataSetGate;
  handler: (ctx: Context, input: { params: Static<P>; query: Static<Q>; run?: JobStatus }) => Promise<unknown>;
}

export type AnyRoute = RouteSpec<TObject, TObject>;

export const NoParams = Type.Object({});
export const NoQuery = Type.Object({}, { additionalProperties: false });
/** A response object whose fields follow the spec's tables (documented, not enforced). */
export const AnyObject = Type.Object({}, { additionalProperties: true });

export function defineRoute<P extends TObject, Q extends TObject>(spec: RouteSpec<P, Q>): AnyRoute {
  return spec as unknown as AnyRoute;
}

export function mountRoute(router: Router, route: AnyRoute, engine: Engine): void {
  const params = compileValidator('path', route.params);
  const query = compileValidator('query', route.query);
  const gate = route.dataSet;
  router[route.method](route.path.replace(/\{(\w+)\}/g, ':$1'), async (ctx) => {
    const input: { params: unknown; query: unknown; run?: JobStatus } = {
      params: params(ctx.params as Record<string, unknown>),
      query: query(ctx.query as Record<string, unknown>),
    };
    // Validation first: a malformed request is a 400 whether or not the data is ready.
    if (gate !== undefined) input.run = await requireDataSet(engine, gate, route.path);
    ctx.body = await route.handler(ctx, input as never);
  });
}
