import type Koa from 'koa';
import Router from '@koa/router';
import { paymentClaims, planLimits, SEARCH_PATHS, UNMETERED_PATHS } from '@xle/access';
import {
  buildOpenApi,
  createHttpApp,
  mountRoutes,
  namingOf,
  type AnyRoute,
  type AppDeps,
  type Config,
} from '@xle/core';
import { createSearchRouter } from '@xle/search';
import { requireDataSet } from './data-set-gate.js';
import { registerServiceGauges } from './resources/service-metrics.js';
import { renderDocsPage } from './docs-page.js';
import { Engine } from './engine.js';
import { accountRoutes } from './routes/accounts.js';
import { dataSetRoutes } from './routes/data-sets.js';
import { objectRoutes } from './routes/objects.js';
import { pingRoutes } from './routes/ping.js';
import { tokenRoutes } from './routes/tokens.js';
import { transactionRoutes } from './routes/transactions.js';
import { validatorRoutes } from './routes/validators.js';

/** GET-only API: any request body beyond this is refused before it is read. */
const MAX_BODY_BYTES = 1024 * 1024;

/** What every REST route may answer besides 200, by status. */
const REST_ERRORS: Readonly<Record<string, string>> = {
  '400': 'Bad input: INVALID_PARAMETER or UNKNOWN_PARAMETER, with the offending parameter in details',
  '404': 'NOT_FOUND: the resource is not in the indexed ledgers',
  '503': 'ENGINE_UNAVAILABLE (with Retry-After) or DATA_NOT_READY',
  '504': 'ENGINE_TIMEOUT',
};

/** Every REST route of the spec, as declared route tables. */
export function apiRoutes(engine: Engine, config: Config): AnyRoute[] {
  return [
    ...pingRoutes(engine, config.es.pingTimeoutMs),
    ...accountRoutes(engine),
    ...objectRoutes(engine),
    ...dataSetRoutes(engine),
    ...transactionRoutes(engine),
    ...validatorRoutes(engine),
    ...tokenRoutes(engine),
  ];
}

/** Builds the REST API (and the search API beside it unless `search.mount` is off); no I/O until a request arrives. */
export function createApp(deps: AppDeps): Koa {
  const { config, client, logger } = deps;
  const app = createHttpApp({ logger, maxBodyBytes: MAX_BODY_BYTES, metrics: deps.metrics });
  // Access plans (issue 8): API keys, daily quotas and per-second bursts; see @xle/access.
  if (config.access.mode === 'plans') app.use(planLimits(deps));
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
  const routes = apiRoutes(engine, config);
  const openapi = buildOpenApi(routes, {
    info: {
      title: 'XRPL Ledger Explorer API',
      version: '1.0.0',
      description: `Read-only REST API over the XRP Ledger (${config.network}), answered from Elasticsearch.`,
    },
    prefix: '/api/v1',
    errors: REST_ERRORS,
  });
  if (config.search.mount) {
    const search = createSearchRouter(deps);
    // Search mounted beside the REST API: its routes are part of this address's description too.
    Object.assign(openapi.paths as object, search.openApiPaths);
    app.use(search.router.routes());
    app.use(search.router.allowedMethods({ throw: true }));
  }
  const docsPage = renderDocsPage(openapi);
  const api = new Router({ prefix: '/api/v1' });
  mountRoutes(api, routes, { requireDataSet: (gate, path) => requireDataSet(engine, gate, path) });
  if (deps.metrics !== undefined) {
    const jobs = [...new Set(routes.flatMap((route) => (route.dataSet === undefined ? [] : [route.dataSet.job])))];
    registerServiceGauges(deps.metrics, engine, jobs);
  }
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
