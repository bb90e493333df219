import type Koa from 'koa';
import bodyParser from 'koa-bodyparser';
import Router from '@koa/router';
import { searchAccess, searchPayments } from '@xle/access';
import {
  AppError,
  BadRequestError,
  buildOpenApi,
  type AccessRequirement,
  createHttpApp,
  ErrorCode,
  mountRoutes,
  namingOf,
  openApiPaths,
  readEngineFor,
  type AppDeps,
  type Config,
  type OpenApiObject,
} from '@xle/core';
import { DEFAULT_LIMITS } from './dsl-guard.js';
import { SearchEngine } from './engine.js';
import { SEARCH_ERRORS, searchRoutes } from './routes.js';
import { TokenSealer } from './tokens.js';
import { CursorStore } from './engine/cursor-store.js';

/** Search bodies and SQL texts are small; anything larger is refused before it is parsed. */
export const MAX_SEARCH_BODY = '64kb';
const MAX_SEARCH_BODY_BYTES = 64 * 1024;

/** JSON object bodies only; a malformed one is a 400 INVALID_QUERY, an oversized one a 413. */
export function jsonBody(): Koa.Middleware {
  const parse = bodyParser({ enableTypes: ['json'], jsonLimit: MAX_SEARCH_BODY, strict: true });
  return async (ctx, next) => {
    if (ctx.method === 'POST' || ctx.method === 'DELETE') {
      if (ctx.get('Content-Length') !== '' && !ctx.is('application/json'))
        throw new AppError(415, ErrorCode.UnsupportedMediaType, 'Send the body as application/json.');
      try {
        await parse(ctx, async () => undefined);
      } catch (error) {
        const status = (error as { status?: number }).status;
        if (status === 413)
          throw new AppError(413, ErrorCode.PayloadTooLarge, `Search bodies are limited to ${MAX_SEARCH_BODY}.`);
        throw new BadRequestError('The body is not valid JSON.', { in: 'body' }, ErrorCode.InvalidQuery);
      }
      const body = (ctx.request as { body?: unknown }).body;
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        throw new BadRequestError('The body must be a JSON object.', { in: 'body' }, ErrorCode.InvalidQuery);
    }
    await next();
  };
}

/** The search routes under /api/v1, with their access doors, and their OpenAPI path items. */
export interface SearchRouter {
  router: Router;
  openApiPaths: Record<string, OpenApiObject>;
}

/** The search routes, for mounting beside the REST API or serving alone. */
export function createSearchRouter(deps: AppDeps): SearchRouter {
  const { config, client, logger } = deps;
  const read = readEngineFor(deps);
  const engine = new SearchEngine(read, namingOf(config), config.search.timeoutMs);
  const routes = searchRoutes(
    {
      engine,
      sealer: new TokenSealer(config.search.secret),
      cursors: new CursorStore(read, namingOf(config), logger),
      limits: DEFAULT_LIMITS,
    },
    logger,
  );
  // Case-sensitive: the access middleware below runs only on the exact prefix, so a route must
  // not answer any other spelling of it (/API/V1/SEARCH would otherwise skip the door).
  const router = new Router({ prefix: '/api/v1', sensitive: true });
  // Access to search (issue 8): subscription keys per `access.search`; see @xle/access.
  router.use(searchAccess(deps));
  // Pay as you go on search (issue 8), per `access.search`: payg, or keys+payg with a Payment-Claim.
  router.use(searchPayments({ config, client, logger }));
  router.use(jsonBody());
  const inner = new Router({ sensitive: true });
  mountRoutes(inner, routes, { validateResponses: config.api.validateResponses });
  router.use(inner.routes(), inner.allowedMethods());
  return {
    router,
    openApiPaths: openApiPaths(routes, {
      prefix: '/api/v1',
      errors: SEARCH_ERRORS,
      access: SEARCH_ACCESS[config.access.search],
    }),
  };
}

/** What a search caller shows, per `access.search` (the OpenAPI security of every search operation). */
const SEARCH_ACCESS: Readonly<Record<Config['access']['search'], AccessRequirement>> = {
  keys: 'key',
  payg: 'payg',
  'keys+payg': 'key-or-payg',
  open: 'open',
};

/** The search API as its own Koa app; its OpenAPI document is open to all, outside the doors. */
export function createSearchApp(deps: AppDeps): Koa {
  const app = createHttpApp({ logger: deps.logger, maxBodyBytes: MAX_SEARCH_BODY_BYTES, metrics: deps.metrics });
  const search = createSearchRouter(deps);
  const openapi = buildOpenApi([], {
    info: {
      title: 'XRPL Ledger Explorer advanced search API',
      version: '1.0.0',
      description: `Search-engine query bodies and limited SQL over the XRP Ledger (${deps.config.network}).`,
    },
    prefix: '/api/v1',
    errors: SEARCH_ERRORS,
  });
  openapi.paths = search.openApiPaths;
  app.use(async (ctx, next) => {
    if (ctx.method !== 'GET' || ctx.path !== '/api/v1/openapi.json') return next();
    ctx.body = openapi;
  });
  app.use(search.router.routes());
  app.use(search.router.allowedMethods());
  return app;
}
