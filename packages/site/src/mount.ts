import type { Context, Next } from 'koa';
import Router from '@koa/router';
import { CACHE_CONTROL, METRICS_PATH } from '@xle/core';
import type { SiteMount } from '@xle/api';
import { siteAssets } from './assets.js';
import { mountPages, renderErrors } from './page.js';
import { accountPage } from './pages/account.js';
import { amendmentPage } from './pages/amendment.js';
import { ammPage } from './pages/amm.js';
import { amendmentsPage, ammsPage, ledgersPage, tokensPage, validatorsPage } from './pages/lists.js';
import { homePage } from './pages/home.js';
import { ledgerPage } from './pages/ledger.js';
import { nftPage } from './pages/nft.js';
import { mountSearch } from './pages/search.js';
import { tokenPage } from './pages/token.js';
import { transactionPage } from './pages/transaction.js';
import { validatorPage } from './pages/validator.js';
import type { SiteChrome } from './views/layout.js';

/** Paths that belong to the API (its router matches them case-insensitively), not to the site. */
const isApiPath = (path: string): boolean => {
  const lower = path.toLowerCase();
  return lower === '/api' || lower.startsWith('/api/') || path === METRICS_PATH;
};

type Step = (ctx: Context, next: Next) => unknown;

/** Runs middleware in order, the last one's `next` being a no-op (the site answers everything it is given). */
function chain(steps: readonly Step[]): (ctx: Context) => Promise<void> {
  const run = async (ctx: Context, i: number): Promise<void> => {
    const step = steps[i];
    if (step !== undefined) await step(ctx, () => run(ctx, i + 1));
  };
  return (ctx) => run(ctx, 0);
}

/**
 * The website (issue 22): server-rendered pages at the spec's deep links, built with the REST
 * routes' own resource functions (no HTTP to itself), plus `/search` for the search box and the
 * static assets. It answers every GET/HEAD path outside `/api/` and `/metrics`, in its own look
 * for errors too; everything else goes on to the API.
 */
export const siteMiddleware: SiteMount = ({ config, engine, logger, limiter }) => {
  const assets = siteAssets();
  const chrome: SiteChrome = { network: config.network, stylesheet: assets.stylesheet.path, icon: assets.icon.path };
  const router = new Router();
  mountPages(router, [
    homePage(engine, chrome),
    accountPage(engine, chrome),
    transactionPage(engine, chrome),
    ledgerPage(engine, chrome),
    tokenPage(engine, chrome),
    nftPage(engine, chrome),
    validatorPage(engine, chrome),
    amendmentPage(engine, chrome),
    ammPage(engine, chrome),
    ledgersPage(engine, chrome),
    tokensPage(engine, chrome),
    ammsPage(engine, chrome),
    validatorsPage(engine, chrome),
    amendmentsPage(engine, chrome),
  ]);
  mountSearch(router, engine, chrome);
  const serveAsset: Step = async (ctx, next) => {
    const asset = [assets.stylesheet, assets.icon].find((a) => a.path === ctx.path);
    if (asset === undefined || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    ctx.type = asset.type;
    ctx.body = asset.body;
    ctx.set('Cache-Control', CACHE_CONTROL.immutable);
    ctx.set('X-Content-Type-Options', 'nosniff');
  };
  const site = chain([
    renderErrors(chrome, logger),
    serveAsset,
    ...(limiter === undefined ? [] : [limiter]),
    router.routes() as Step,
    router.allowedMethods() as Step,
  ]);
  return (ctx, next) => (isApiPath(ctx.path) ? next() : site(ctx));
};
