import Koa from 'koa';
import bodyParser from 'koa-bodyparser';
import Router from '@koa/router';
import { searchAccess, searchPayments } from '@xle/access';
import {
  AppError,
  BadRequestError,
  errorHandler,
  ErrorCode,
  namingOf,
  requestContext,
  type Client,
  type Config,
  type Logger,
} from '@xle/core';
import { SearchEngine } from './engine.js';
import { buildSearchOpenApi } from './openapi.js';
import { searchRouter } from './routes.js';
import { TokenSealer } from './tokens.js';

/** Search bodies and SQL texts are small; anything larger is refused before it is parsed. */
export const MAX_SEARCH_BODY = '64kb';

export interface SearchAppDeps {
  config: Config;
  client: Client;
  logger: Logger;
}

/** JSON bodies only; a malformed one is a 400 INVALID_QUERY, an oversized one a 413. */
export function jsonBody(): Koa.Middleware {
  const parse = bodyParser({ enableTypes: ['json'], jsonLimit: MAX_SEARCH_BODY, strict: true });
  return async (ctx, next) => {
    if (ctx.method === 'POST' || ctx.method === 'DELETE') {
      if (ctx.get('Content-Length') !== '' && !ctx.is('application/json'))
        throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.');
      try {
        await parse(ctx, async () => undefined);
      } catch (error) {
        const status = (error as { status?: number }).status;
        if (status === 413)
          throw new AppError(413, ErrorCode.PayloadTooLarge, `Search bodies are limited to ${MAX_SEARCH_BODY}.`);
        throw new BadRequestError('The body is not valid JSON.', { in: 'body' }, ErrorCode.InvalidQuery);
      }
    }
    await next();
  };
}

/** The search routes under /api/v1, for mounting beside the REST API or serving alone. */
export function createSearchRouter({ config, client, logger }: SearchAppDeps): Router {
  const engine = new SearchEngine(client, namingOf(config), config.search.timeoutMs);
  const sealer = new TokenSealer(config.search.secret);
  const inner = searchRouter({ engine, sealer, logger });
  // Case-sensitive: the access middleware below runs only on the exact prefix, so a route must
  // not answer any other spelling of it (/API/V1/SEARCH would otherwise skip the door).
  const router = new Router({ prefix: '/api/v1', sensitive: true });
  // Access to search (issue 8): subscription keys per `access.search`; see @xle/access.
  router.use(searchAccess({ config, client, logger }));
  // Pay as you go on search (issue 8), per `access.search`: payg, or keys+payg with a Payment-Claim.
  router.use(searchPayments({ config, client, logger }));
  router.use(jsonBody());
  router.use(inner.routes(), inner.allowedMethods({ throw: true }));
  return router;
}

/** The search API as its own Koa app. */
export function createSearchApp(deps: SearchAppDeps): Koa {
  const app = new Koa({ proxy: false });
  app.silent = true;
  app.use(requestContext(deps.logger));
  app.use(errorHandler(deps.logger));
  app.use(async (ctx, next) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Access-Control-Expose-Headers', 'X-Request-Id, Retry-After, Cursor');
    if (ctx.method === 'OPTIONS') {
      ctx.set('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
      ctx.set(
        'Access-Control-Allow-Headers',
        'Content-Type, Accept, X-Request-Id, Authorization, X-API-Key, Payment-Claim',
      );
      ctx.set('Access-Control-Max-Age', '86400');
      ctx.status = 204;
      return;
    }
    await next();
  });
  // The API description is open to all, outside the access doors of the search routes.
  const openapi = buildSearchOpenApi({
    title: 'XRPL Ledger Explorer advanced search API',
    version: '1.0.0',
    description: `Search-engine query bodies and limited SQL over the XRP Ledger (${deps.config.network}).`,
  });
  app.use(async (ctx, next) => {
    if (ctx.method !== 'GET' || ctx.path !== '/api/v1/openapi.json') return next();
    ctx.body = openapi;
  });
  const router = createSearchRouter(deps);
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: true }));
  return app;
}
