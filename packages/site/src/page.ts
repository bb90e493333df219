import type { Context, Middleware } from 'koa';
import type Router from '@koa/router';
import Type, { type Static, type TObject, type TSchema } from 'typebox';
import type { ComponentChildren } from 'preact';
import {
  AppError,
  BadRequestError,
  compileValidator,
  ErrorCode,
  isServerFailure,
  mapEngineError,
  NoParams,
  NoQuery,
  sendText,
  toErrorBody,
  type CachePolicy,
  type Logger,
} from '@xle/core';
import { SEARCH_FORMS } from './model/search-query.js';
import { ErrorPage, type ErrorPageProps } from './views/error.js';
import { renderPage, type SiteChrome } from './views/layout.js';

/**
 * Every page, declared once like a REST route: its path, the REST schemas of its parameters (a
 * malformed id is a 400 by the API's own rule), its cache policy, and a render function that
 * runs the chain (resource functions → pure view) and returns the page element.
 */
export interface PageSpec<P extends TObject, Q extends TObject> {
  /** Koa form: `/account/:ACCOUNT`. */
  path: string;
  params?: P;
  query?: Q;
  /** What each path parameter is, for the 400 page: "an account address". */
  names?: Readonly<Record<string, string>>;
  cache: CachePolicy;
  /** Drops a query parameter a form sent empty, or rewrites one, before validation. */
  prepareQuery?: (raw: Record<string, string | string[] | undefined>) => Record<string, unknown>;
  render: (input: { params: Static<P>; query: Static<Q> }, ctx: Context) => Promise<ComponentChildren>;
}

export type AnyPage = PageSpec<TObject, TObject>;

export function definePage<P extends TObject, Q extends TObject = typeof NoQuery>(spec: PageSpec<P, Q>): AnyPage {
  return spec as unknown as AnyPage;
}

/**
 * A page of one thing named by the path's one parameter (`/amm/:AMM_ACCOUNT`): the parameter's
 * REST schema, its words for the 400 page, the cache policy, and the render of its value.
 */
export function thingPage(
  path: `/${string}/:${string}`,
  param: { schema: TSchema; name: string; cache: CachePolicy },
  render: (value: string) => Promise<ComponentChildren>,
): AnyPage {
  const key = path.slice(path.lastIndexOf(':') + 1);
  return definePage({
    path,
    params: Type.Object({ [key]: param.schema }),
    names: { [key]: param.name },
    cache: param.cache,
    render: ({ params }) => render(String((params as Record<string, unknown>)[key])),
  });
}

/**
 * Headers of every HTML answer: nothing may load from elsewhere (no script at all, styles and the
 * icon from this origin only, forms post here), and the page is not framed.
 */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
};

/** Sends a page: HTML, a weak ETag (If-None-Match answers 304, as for the API), its Cache-Control. */
export function sendHtml(ctx: Context, html: string, cache: CachePolicy): void {
  sendText(ctx, html, 'text/html; charset=utf-8', cache);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) ctx.set(name, value);
}

/** A path parameter's refusal in words: what was given, what it should be, and the validator's reason. */
function humanInputError(error: unknown, page: AnyPage): unknown {
  if (!(error instanceof BadRequestError) || error.code !== ErrorCode.InvalidParameter) return error;
  const details = (error.details ?? {}) as { parameter?: string; in?: string; value?: unknown };
  if (details.in !== 'path' || details.parameter === undefined) return error;
  const schema = (page.params?.properties as Record<string, { description?: string }> | undefined)?.[details.parameter];
  const what = page.names?.[details.parameter] ?? details.parameter;
  // The validator's words go under the message when a person can read them ("must be between
  // 32570 and …"); a pattern it quotes is for programs, and the description already says the form.
  const readable = !/must match pattern/i.test(error.message);
  return new BadRequestError(
    `“${String(details.value)}” is not ${what}.${schema?.description === undefined ? '' : ` ${schema.description}`}`,
    { ...details, ...(readable ? { reason: error.message } : {}) },
    ErrorCode.InvalidParameter,
  );
}

/** Mounts pages on a router: validate → render (resources → view) → send. */
export function mountPages(router: Router, pages: readonly AnyPage[]): void {
  for (const page of pages) {
    const params = compileValidator('path', page.params ?? NoParams);
    const query = compileValidator('query', page.query ?? NoQuery);
    router.get(page.path, async (ctx) => {
      let input: { params: Record<string, unknown>; query: Record<string, unknown> };
      try {
        input = {
          params: params(ctx.params) as Record<string, unknown>,
          query: query(page.prepareQuery === undefined ? ctx.query : page.prepareQuery(ctx.query)) as Record<
            string,
            unknown
          >,
        };
      } catch (error) {
        throw humanInputError(error, page);
      }
      sendHtml(ctx, renderPage(await page.render(input as never, ctx)), page.cache);
    });
  }
}

/** The page of a failure: the heading and words for each kind of error. */
export function errorPageProps(error: unknown, requestId: string | undefined, query?: string): ErrorPageProps {
  const { status, body } = toErrorBody(error);
  const { code, message, details } = body.error;
  const detail = (details as { reason?: string } | undefined)?.reason;
  const base = { status, message, detail, query };
  switch (true) {
    case status === 400:
      return { ...base, heading: 'That is not a valid id', forms: query === undefined ? undefined : SEARCH_FORMS };
    case status === 404:
      return { ...base, heading: 'Not found' };
    case status === 405:
      return { ...base, heading: 'Method not allowed', message: 'The pages of this site are read with GET (or HEAD).' };
    case status === 429:
      return { ...base, heading: 'Too many requests', message: `${message} Wait a moment, then reload the page.` };
    case code === ErrorCode.LedgerNotReady:
      return {
        ...base,
        heading: 'Still being indexed',
        message: "This ledger's transactions are still being written to the index. Reload the page in a moment.",
        detail: message,
      };
    case code === ErrorCode.DataNotReady:
      return {
        ...base,
        heading: 'Not computed yet',
        message: 'The data behind this page has not been computed yet. It will be there after the next run of its job.',
        detail: message,
      };
    case code === ErrorCode.EngineUnavailable:
      return {
        ...base,
        heading: 'Temporarily unavailable',
        message: 'The search engine behind this site cannot be reached right now. Try again in a few seconds.',
      };
    case code === ErrorCode.IndexNotFound:
      return {
        ...base,
        heading: 'Temporarily unavailable',
        message: 'The data behind this page is not in the search engine right now. Try again later.',
      };
    case code === ErrorCode.EngineTimeout:
      return { ...base, heading: 'Too slow', message: 'The search engine did not answer in time. Try again shortly.' };
    default:
      return {
        ...base,
        heading: 'Something went wrong',
        message: 'This page could not be made. The fault is ours and it has been logged.',
        requestId,
      };
  }
}

/**
 * The site's error handler: any failure of a page (a malformed or unknown id, the engine down, a
 * refusal of the access plans, a bug) is answered as a page in the site's look with the right
 * status, never the API's JSON. Server faults are logged as the API logs them.
 */
export function renderErrors(chrome: SiteChrome, logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && (ctx.body === undefined || ctx.body === null))
        throw new AppError(404, ErrorCode.NotFound, `There is no page at ${ctx.path}.`);
      if ((ctx.status === 405 || ctx.status === 501) && (ctx.body === undefined || ctx.body === null))
        throw new AppError(405, ErrorCode.MethodNotAllowed, `${ctx.method} is not allowed on ${ctx.path}.`);
    } catch (thrown) {
      const error = mapEngineError(thrown);
      const { status, retryAfter, body } = toErrorBody(error);
      if (isServerFailure(status, body.error.code))
        logger.error(
          { err: thrown, requestId: ctx.state.requestId as string | undefined, path: ctx.path },
          'page failed',
        );
      const query = ctx.path === '/search' && typeof ctx.query.q === 'string' ? ctx.query.q : undefined;
      const props = errorPageProps(error, ctx.state.requestId as string | undefined, query);
      sendHtml(ctx, renderPage(ErrorPage({ chrome, props })), 'none');
      ctx.status = status;
      if (retryAfter !== undefined) ctx.set('Retry-After', String(retryAfter));
    }
  };
}
