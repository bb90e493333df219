import type { Context } from 'koa';
import type Router from '@koa/router';
import Type, { type Static, type TObject, type TSchema } from 'typebox';
import Compile from 'typebox/compile';
import { BadRequestError, ErrorCode } from '@xle/core';

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

interface Checker {
  Default(value: unknown): unknown;
  Convert(value: unknown): unknown;
  Check(value: unknown): boolean;
  Errors(value: unknown): { instancePath: string; message: string; keyword: string; params: unknown }[];
}

function parameterName(
  where: 'path' | 'query',
  error: { instancePath: string; keyword: string; params: unknown },
): string {
  if (error.keyword === 'additionalProperties') {
    const extra = (error.params as { additionalProperties?: string[] }).additionalProperties;
    return extra?.[0] ?? where;
  }
  if (error.keyword === 'required')
    return (error.params as { requiredProperties?: string[] }).requiredProperties?.[0] ?? where;
  return error.instancePath.replace(/^\//, '').split('/')[0] || where;
}

/** Validates one part of the request; throws a 400 naming the offending parameter. */
function check(where: 'path' | 'query', checker: Checker, raw: Record<string, unknown>): unknown {
  const value = checker.Convert(checker.Default({ ...raw }));
  if (checker.Check(value)) return value;
  const errors = checker.Errors(value).filter((e) => e.keyword !== 'boolean');
  const first = errors[0];
  const unknown = errors.find((e) => e.keyword === 'additionalProperties');
  if (unknown !== undefined) {
    const name = parameterName(where, unknown);
    throw new BadRequestError(
      `Unknown ${where} parameter "${name}".`,
      { parameter: name, in: where },
      ErrorCode.UnknownParameter,
    );
  }
  const name = first === undefined ? where : parameterName(where, first);
  throw new BadRequestError(
    `Invalid ${where} parameter "${name}": ${first?.message ?? 'not valid'}.`,
    { parameter: name, in: where, value: raw[name] },
    ErrorCode.InvalidParameter,
  );
}

export function mountRoute(router: Router, route: AnyRoute): void {
  const params = Compile(route.params) as unknown as Checker;
  const query = Compile(route.query) as unknown as Checker;
  router[route.method](route.path.replace(/\{(\w+)\}/g, ':$1'), async (ctx) => {
    const input = {
      params: check('path', params, ctx.params as Record<string, unknown>),
      query: check('query', query, ctx.query as Record<string, unknown>),
    };
    ctx.body = await route.handler(ctx, input as never);
  });
}
