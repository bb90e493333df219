import Koa from 'koa';
import Router from '@koa/router';
import { paymentClaims, planLimits, SEARCH_PATHS, UNMETERED_PATHS } from '@xle/access';
import {
  AppError,
  errorHandler,
  ErrorCode,
  namingOf,
  requestContext,
  type Client,
  type Config,
  type Logger,
} from '@xle/core';
import { createSearchRouter, searchOpenApiPaths } from '@xle/search';
import { Engine } from './engine.js';
import { renderDocsPage } from './docs-page.js';
import { buildOpenApi } from './openapi.js';
import { mountRoute, type AnyRoute } from './route.js';
import { accountRoutes } from './routes/accounts.js';
import { ammRoutes } from './routes/amm.js';
import { dataSetRoutes } from './routes/data-sets.js';
import { nameRoutes } from './routes/names.js';
import { nftRoutes } from './routes/nfts.js';
import { objectRoutes } from './routes/objects.js';
import { tokenRoutes } from './routes/tokens.js';
import { pingRoutes } from './routes/ping.js';
import { transactionRoutes } from './routes/transactions.js';
import { validatorRoutes } from './routes/validators.js';

export interface AppDeps {
  config: Config;
  client: Client;
  logger: Logger;
}

/** GET-only API: any request body beyond this is refused before it is read. */
const MAX_BODY_BYTES = 1024 * 1024;

export function apiRoutes(engine: Engine): AnyRoute[] {
  return [
    ...accountRoutes(engine),
    ...nftRoutes(engine),
    ...ammRoutes(engine),
    ...dataSetRoutes(engine),
    ...transactionRoutes(engine),
    ...objectRoutes(engine),
    ...nameRoutes(engine),
    ...validatorRoutes(engine),
    ...tokenRoutes(engine),
  ];
}

/** Builds the REST API; no I/O happens until a request arrives. */
export function createApp({ config, client, logger }: AppDeps): Koa {
  const app = new Koa({ proxy: false });
  // Errors are answered by errorHandler; Koa's default stderr printing would duplicate them.
  app.silent = true;
  app.use(requestContext(logger));
  app.use(errorHandler(logger));
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
    if (Number(ctx.get('Content-Length') || 0) > MAX_BODY_BYTES) {
      throw new AppError(413, ErrorCode.PayloadTooLarge, `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`);
    }
    await next();
  });
  // Access plans (issue 8): API keys, daily quotas and per-second bursts; see @xle/access.
  if (config.access.mode === 'plans') app.use(planLimits({ config, client, logger }));
  // Pay as you go (issue 8): every request pays with a verified Payment-Claim; see @xle/access payg.
  // Health, the OpenAPI document and docs stay open; mounted search keeps its own door (SEARCH_ACCESS).
  if (config.access.mode === 'payg')
    app.use(
      paymentClaims({
        config,
        client,
        logger,
        skip: (ctx) => UNMETERED_PATHS.has(ctx.path) || (config.search.mount && SEARCH_PATHS.test(ctx.path)),
      }),
    );

  const engine = new Engine(client, namingOf(config));
  const routes = apiRoutes(engine);
  const openapi = buildOpenApi(routes, {
    title: 'XRPL Ledger Explorer API',
    version: '1.0.0',
    description: `Read-only REST API over the XRP Ledger (${config.network}), answered from Elasticsearch.`,
  });
  // Search mounted beside the REST API: its routes are part of this address's description too.
  if (config.search.mount) Object.assign(openapi.paths as object, searchOpenApiPaths());
  const docsPage = renderDocsPage(openapi);

  if (config.search.mount) {
    const search = createSearchRouter({ config, client, logger });
    app.use(search.routes());
    app.use(search.allowedMethods({ throw: true }));
  }
  const api = new Router({ prefix: '/api/v1' });
  const ping = pingRoutes(client, config.es.pingTimeoutMs);
  api.use(ping.routes(), ping.allowedMethods({ throw: true }));
  for (const route of routes) mountRoute(api, route, engine);
  api.get('/openapi.json', (ctx) => {
    ctx.body = openapi;
  });
  api.get('/docs', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = docsPage;
  });
  app.use(api.routes());
  app.use(api.allowedMethods({ throw: true }));
  return app;
}
