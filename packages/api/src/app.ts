import { readFileSync } from 'node:fs';
import type Koa from 'koa';
import Router from '@koa/router';
import { isUnmetered, paymentClaims, planLimits, SEARCH_PATHS } from '@xle/access';
import {
  type AnswerCacheOptions,
  buildOpenApi,
  type CachedAnswer,
  TtlCache,
  readEngineFor,
  CACHE_CONTROL,
  type AccessRequirement,
  type ParameterExamples,
  createHttpApp,
  mountRoutes,
  namingOf,
  type AnyRoute,
  type AppDeps,
  type Config,
  type Logger,
} from '@xle/core';
import { createSearchRouter } from '@xle/search';
import { requireDataSet } from './data-set-gate.js';
import { registerServiceGauges } from './resources/service-metrics.js';
import { docsAssets } from './docs-page.js';
import { Engine } from './engine.js';
import { accountRoutes } from './routes/accounts.js';
import { dataSetRoutes } from './routes/data-sets.js';
import { objectRoutes } from './routes/objects.js';
import { exportRoutes } from './routes/export.js';
import { pingRoutes } from './routes/ping.js';
import { statusRoutes } from './routes/status.js';
import { tokenRoutes } from './routes/tokens.js';
import { transactionRoutes } from './routes/transactions.js';
import { validatorRoutes } from './routes/validators.js';

/** GET-only API: any request body beyond this is refused before it is read. */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * How long an answer of a route with an answer cache is kept. Its document never changes; the
 * labels and amendment names shaped into it do (a names import), and show within this plus their
 * own cache's time.
 */
export const ANSWER_TTL_MS = 60_000;

/** The process's answer cache (`api.answerCacheMb`, weighed in bytes), or none when it is 0. */
function answerCache(config: Config, metrics: AppDeps['metrics']): AnswerCacheOptions | undefined {
  if (config.api.answerCacheMb === 0) return undefined;
  return {
    cache: new TtlCache<string, CachedAnswer>({
      ttlMs: ANSWER_TTL_MS,
      // Bounded by bytes alone.
      maxEntries: Infinity,
      maxWeight: config.api.answerCacheMb * 1024 * 1024,
      // The key (route and input) is small next to the answer, and Map overhead is about 100 bytes.
      weigh: (answer) => answer.bytes.length + answer.etag.length + 200,
    }),
    counted: metrics?.answerCacheResult,
  };
}

/** What every REST route may answer besides 200, by status. */
const REST_ERRORS: Readonly<Record<string, string>> = {
  '400': 'Bad input: INVALID_PARAMETER or UNKNOWN_PARAMETER, with the offending parameter in details',
  '401': 'INVALID_API_KEY: the X-API-Key header names no active key (plans mode)',
  '402': 'PAYMENT_REQUIRED or a refused Payment-Claim (payg mode)',
  '404': 'NOT_FOUND: the resource is not in the indexed ledgers',
  '429': 'QUOTA_EXCEEDED or RATE_LIMITED, with Retry-After (plans mode)',
  '503':
    'ENGINE_UNAVAILABLE (with Retry-After), DATA_NOT_READY, INDEX_NOT_FOUND (with Retry-After: an index the ' +
    'request reads is not in the engine right now, deleted or being recreated), or LEDGER_NOT_READY (with ' +
    "Retry-After: a ledger's transactions are still being indexed)",
  '504': 'ENGINE_TIMEOUT',
};

/**
 * Real ids of the demo data set (the shared mainnet fixtures), published as the path parameters'
 * examples: a reader of the reference, a generated client's tests and a schema-driven fuzzer
 * (schemathesis, the fuzz test) reach existing resources with them.
 */
const PATH_EXAMPLES: ParameterExamples = {
  ACCOUNT: ['rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw', 'rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y'],
  HASH: ['B0DAF34D43E286943C5BBE79BA2CBDAC9C385E194FE2959DEAAFA4B4C71E505E'],
  LEDGER_INDEX: ['94084608', '83258110'],
  NFTOKEN_ID: [
    '000827102D192F0A3AAA1EDE5AC7F33892E95FBA16D2221497299CA200000B08',
    '000827102D192F0A3AAA1EDE5AC7F33892E95FBA16D2221472E88A1A00000080',
  ],
  AMM_ACCOUNT: ['rP5J7x4HyHKQUUfrfzvuq28iLwiKPf7yv5'],
  OBJECT_ID: ['DBA5231FDE231A51F94640F890BF8FFDA45586EDBBD0ECCEAF532ADB8AC01A6F'],
  AMENDMENT_ID: ['8CC0774A3BF66D1D22E76BBDA8E8A232E6B6313834301B3B23E8601196AE6455'],
  NAMESPACE_ID: ['XRP'],
  FACT_ID: ['total_supply'],
  METRIC_ID: ['metric'],
  NODE_PUBLIC_KEY: ['n9JySgyBVcQKvyDoeRKg7s2Mm6ZcFHk22vUZb3o1HSosWxcj9xPt'],
  VALIDATOR_PUBLIC_KEY: ['nHB5kpvUaEpvCtwu31fMf6dTuuCNnWRctWrV3UEZ9rbtPdpvbUvJ'],
  PUBLIC_KEY: ['nHB5kpvUaEpvCtwu31fMf6dTuuCNnWRctWrV3UEZ9rbtPdpvbUvJ'],
  TOKEN: ['CNY.rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y'],
  TOKEN_ID: ['CNY'],
  DATE: ['2025-02-12T00:16:10Z', '2023-10-16T13:05:41Z'],
  '?issuer': ['rnfT2RATvTDqFTeBbJuERK21r4NWYdrops'],
  KIND: ['transactions', 'ledgers', 'accounts', 'objects'],
};

/**
 * One real answer per GET operation, from the fixture data (arrays cut to their first items), shown
 * beside each response schema. Written by `UPDATE_OPENAPI_EXAMPLES=1` on the contract test, which
 * otherwise checks each still matches its route's schema.
 */
const RESPONSE_EXAMPLES = JSON.parse(
  readFileSync(new URL('../../openapi-examples.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;

/** What a REST caller shows, per access mode (the OpenAPI security of every REST operation). */
const REST_ACCESS: Readonly<Record<Config['access']['mode'], AccessRequirement>> = {
  plans: 'key-optional',
  payg: 'payg',
  open: 'open',
};

/** The jobs whose data sets some route serves. */
export function dataSetJobs(routes: readonly AnyRoute[]): string[] {
  return [...new Set(routes.flatMap((route) => (route.dataSet === undefined ? [] : [route.dataSet.job])))];
}

/** Every REST route of the spec, as declared route tables, and the completeness report over them. */
export function apiRoutes(engine: Engine, config: Config): AnyRoute[] {
  const routes = [
    ...pingRoutes(engine, config.es.pingTimeoutMs),
    ...accountRoutes(engine),
    ...objectRoutes(engine),
    ...dataSetRoutes(engine),
    ...transactionRoutes(engine),
    ...validatorRoutes(engine),
    ...tokenRoutes(engine),
    ...exportRoutes(engine, config.api.validateResponses),
  ];
  return [...routes, ...statusRoutes(engine, dataSetJobs(routes))];
}

/** What the API process hands a website it mounts: its one read engine, and the access plans' limiter. */
export interface SiteParts {
  config: Config;
  engine: Engine;
  logger: Logger;
  /**
   * The access plans' middleware pages are counted by (the API's own, so a client's burst and
   * daily quota are one); none on an open address.
   */
  limiter?: Koa.Middleware | undefined;
}

/** A website mounted in front of the API: it answers the paths it owns and passes the rest on. */
export type SiteMount = (parts: SiteParts) => Koa.Middleware;

export interface AppOptions {
  /** The website (`@xle/site`), mounted when given and `site.enabled` is on. */
  site?: SiteMount | undefined;
}

/**
 * Builds the REST API (and the search API beside it unless `search.mount` is off, the website in
 * front of it when one is given); no I/O until a request arrives.
 */
export function createApp(deps: AppDeps, options: AppOptions = {}): Koa {
  const { config, logger } = deps;
  const app = createHttpApp({ logger, maxBodyBytes: MAX_BODY_BYTES, metrics: deps.metrics });
  // The process's one read engine, for the REST routes and the search routes mounted beside them.
  const read = readEngineFor(deps);
  const engine = new Engine(read, namingOf(config));
  // Access plans (issue 8): API keys, daily quotas and per-second bursts; see @xle/access.
  const plans = config.access.mode === 'plans' ? planLimits(deps) : undefined;
  // The website (issue 22) answers every path outside /api/ before the API's access middleware,
  // so that its errors are pages. A browser carries no key and cannot sign a claim: its pages are
  // counted as free-plan requests of the client's address by the same plan middleware (so the
  // burst and the daily quota are one with the API's), on a pay-as-you-go address too; see the README.
  if (options.site !== undefined && config.site.enabled)
    app.use(
      options.site({
        config,
        engine,
        logger,
        limiter: config.access.mode === 'open' ? undefined : (plans ?? planLimits(deps)),
      }),
    );
  if (plans !== undefined) app.use(plans);
  // Pay as you go (issue 8): every request pays with a verified Payment-Claim; see @xle/access payg.
  // Health, the OpenAPI document and docs stay open; mounted search keeps its own door (SEARCH_ACCESS).
  if (config.access.mode === 'payg')
    app.use(
      paymentClaims({
        config,
        client: deps.client,
        logger,
        skip: (ctx) => isUnmetered(ctx.path) || (config.search.mount && SEARCH_PATHS.test(ctx.path)),
      }),
    );

  const routes = apiRoutes(engine, config);
  const openapi = buildOpenApi(routes, {
    info: {
      title: 'XRPL Ledger Explorer API',
      version: '1.0.0',
      description: `Read-only REST API over the XRP Ledger (${config.network}), answered from Elasticsearch.`,
    },
    prefix: '/api/v1',
    errors: REST_ERRORS,
    access: REST_ACCESS[config.access.mode],
    examples: PATH_EXAMPLES,
    responseExamples: RESPONSE_EXAMPLES,
  });
  if (config.search.mount) {
    const search = createSearchRouter({ ...deps, read });
    // Search mounted beside the REST API: its routes are part of this address's description too.
    Object.assign(openapi.paths as object, search.openApiPaths);
    // Only search paths go through the search router: every other request would otherwise pay for
    // its matching (and its allowedMethods pass) on the way to the REST routes.
    const searchRoutes = search.router.routes() as Koa.Middleware;
    const searchMethods = search.router.allowedMethods() as Koa.Middleware;
    app.use((ctx, next) => (SEARCH_PATHS.test(ctx.path) ? searchRoutes(ctx, () => searchMethods(ctx, next)) : next()));
  }
  const docs = docsAssets(String((openapi.info as { title: string }).title));
  const api = new Router({ prefix: '/api/v1' });
  mountRoutes(api, routes, {
    requireDataSet: (gate, path) => requireDataSet(engine, gate, path),
    validateResponses: config.api.validateResponses,
    answers: answerCache(config, deps.metrics),
  });
  if (deps.metrics !== undefined) registerServiceGauges(deps.metrics, engine, dataSetJobs(routes));
  api.get('/openapi.json', (ctx) => {
    ctx.body = openapi;
  });
  api.get('/docs', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = docs.page;
  });
  api.get(docs.script.path.replace('/api/v1', ''), (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.set('Cache-Control', CACHE_CONTROL.immutable);
    ctx.body = docs.script.body();
  });
  app.use(api.routes());
  app.use(api.allowedMethods());
  return app;
}
