import { request } from 'node:http';
import t from 'tap';
import type { PlanLimitsDeps } from '@xle/access';
import { createLogger, type Config } from '@xle/core';
import { createTestIndices, listenForTest } from '@xle/test-helpers';
import { siteApp } from '../fixtures/serve.js';

/**
 * The website as HTTP (the browser tier drives it on the fixture data): how it is mounted beside
 * the API, its statuses and headers, how access plans count its pages, and its answers on indices
 * with no data yet. Every page is HTML in the site's look, errors included; the API keeps its JSON.
 */
const target = await createTestIndices(t, { access: { mode: 'plans', freePerSecond: 1000, freePerDay: 100000 } });

async function serveWith(
  access: Partial<Config['access']> = {},
  site: Partial<Config['site']> = {},
  now?: () => number,
): Promise<string> {
  const config: Config = {
    ...target.config,
    access: { ...target.config.access, ...access },
    site: { ...target.config.site, ...site },
  };
  // The app hands its deps to the plan middleware whole: `now` is the clock of its bursts and days.
  const deps: PlanLimitsDeps = {
    config,
    client: target.client,
    logger: createLogger('site-test', 'silent'),
    ...(now === undefined ? {} : { now }),
  };
  return listenForTest(t, siteApp(deps).callback());
}

const base = await serveWith();
const ADDRESS = 'rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw';

async function get(url: string, init?: RequestInit): Promise<{ status: number; headers: Headers; body: string }> {
  const response = await fetch(url, { redirect: 'manual', ...init });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

/** A conditional GET as a browser revalidates (fetch() would add Cache-Control: no-cache to it). */
function revalidate(url: string, etag: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { 'If-None-Match': etag } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

t.test('pages are HTML with a CSP, an ETag and their cache policy; If-None-Match answers 304', async (t) => {
  const home = await get(`${base}/`);
  t.equal(home.status, 200);
  t.equal(home.headers.get('content-type'), 'text/html; charset=utf-8');
  t.match(home.headers.get('content-security-policy'), "default-src 'none'; style-src 'self'");
  t.equal(home.headers.get('cache-control'), 'public, max-age=3');
  t.match(home.body, '<h1>The XRP Ledger</h1>');
  t.match(home.body, 'No ledger is indexed yet.');
  t.match(home.body, 'The daily metrics have not been computed yet.');
  t.notMatch(home.body, /<script/i);
  const etag = home.headers.get('etag');
  t.match(etag, /^W\//);
  t.equal(await revalidate(`${base}/`, String(etag)), 304);
  const head = await get(`${base}/`, { method: 'HEAD' });
  t.equal(head.status, 200);
  t.equal(head.body, '');
});

t.test('the stylesheet and icon: content-hashed paths, cached a year, compressed, never counted', async (t) => {
  const home = await get(`${base}/`);
  const css = /<link rel="stylesheet" href="(\/assets\/site\.[0-9a-f]{12}\.css)"\/>/.exec(home.body)?.[1];
  const icon = /<link rel="icon" href="(\/assets\/icon\.[0-9a-f]{12}\.svg)"/.exec(home.body)?.[1];
  t.ok(css !== undefined && icon !== undefined, 'linked from every page');
  const sheet = await get(`${base}${css}`, { headers: { 'Accept-Encoding': 'gzip' } });
  t.equal(sheet.status, 200);
  t.equal(sheet.headers.get('content-type'), 'text/css; charset=utf-8');
  t.equal(sheet.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  t.equal(sheet.headers.get('content-encoding'), 'gzip');
  t.equal(sheet.headers.get('x-ratelimit-remaining'), null, 'not counted against the plan');
  t.match(sheet.body, 'prefers-color-scheme: dark');
  t.ok(Number(sheet.headers.get('content-length') ?? sheet.body.length) < 16 * 1024, 'small');
  t.equal((await get(`${base}${icon}`)).headers.get('content-type'), 'image/svg+xml');
});

t.test('malformed ids are 400 pages naming what is wrong; unknown ids and paths 404 pages', async (t) => {
  const malformed = await get(`${base}/account/not-an-address`);
  t.equal(malformed.status, 400);
  t.match(malformed.body, '<h1>That is not a valid id</h1>');
  t.match(malformed.body, '“not-an-address” is not an XRP Ledger account address.');
  t.match(malformed.body, 'Classic address: base58, 25 to 35 characters');
  t.match((await get(`${base}/ledger/5`)).body, 'must be between 32570 and 4294967295');
  const badHash = await get(`${base}/tx/XYZ`);
  t.equal(badHash.status, 400);
  t.notMatch(badHash.body, /must match pattern|\^\(\?:/, 'no validation pattern shown to people');
  t.notMatch(malformed.body, /must match pattern|\^\(\?:/);
  t.equal((await get(`${base}/account/${ADDRESS}?nope=1`)).status, 400, 'unknown parameters refused, as by the API');
  const unknown = await get(`${base}/account/${ADDRESS}`);
  t.equal(unknown.status, 404);
  t.match(unknown.body, `No account ${ADDRESS} is in the indexed ledgers.`);
  const nowhere = await get(`${base}/no/such/page`);
  t.equal(nowhere.status, 404);
  t.match(nowhere.body, 'There is no page at /no/such/page.');
  t.match(nowhere.headers.get('content-type'), 'text/html');
});

t.test('the API keeps its JSON errors', async (t) => {
  const api = await get(`${base}/api/v1/no-such-thing`);
  t.equal(api.status, 404);
  t.same(JSON.parse(api.body), { error: { code: 'NOT_FOUND', message: 'No route for GET /api/v1/no-such-thing.' } });
  const tx = await get(`${base}/api/v1/tx/XYZ`);
  t.match(JSON.parse(tx.body), { error: { code: 'INVALID_PARAMETER' } });
});

t.test('a data set not computed yet is a 503 page that says so', async (t) => {
  const token = await get(`${base}/token/USD.rvYAfWj5gh67oV6fW32ZzP3Aw4Eubs59B`);
  t.equal(token.status, 503);
  t.equal(token.headers.get('retry-after'), '3600');
  t.match(token.body, '<h1>Not computed yet</h1>');
  t.match(token.body, 'pnpm ingest tokens');
  t.equal((await get(`${base}/validator/nHB5kpvUaEpvCtwu31fMf6dTuuCNnWRctWrV3UEZ9rbtPdpvbUvJ`)).status, 503);
});

t.test('the search box: forms that name their page go there; the rest is a 400 or a 404 page', async (t) => {
  const address = await get(`${base}/search?q=${ADDRESS}`);
  t.equal(address.status, 302);
  t.equal(address.headers.get('location'), `/account/${ADDRESS}`);
  t.equal((await get(`${base}/search?q=94084608`)).headers.get('location'), '/ledger/94084608');
  const hex = await get(`${base}/search?q=${'AB'.repeat(32)}`);
  t.equal(hex.status, 404);
  t.match(hex.body, 'No transaction, ledger, NFT or amendment with the id');
  const bad = await get(`${base}/search?q=rsw3nDRopQQZDrZjzawak7hDz2gLwCPszx`);
  t.equal(bad.status, 400, 'an address whose checksum is wrong');
  t.match(bad.body, 'The search box takes:');
  t.match(bad.body, 'value="rsw3nDRopQQZDrZjzawak7hDz2gLwCPszx"', 'the query stays in the box');
  // Not an id: looked up by name; nothing of that name in these (empty) indices is a 404 page.
  const text = await get(`${base}/search?q=hello`);
  t.equal(text.status, 404);
  t.match(text.body, 'Nothing found');
  t.match(text.body, 'value="hello"', 'the query stays in the box');
  t.equal(text.headers.get('cache-control'), 'no-cache');
});

t.test('site routes are GET and HEAD only', async (t) => {
  const post = await get(`${base}/account/${ADDRESS}`, { method: 'POST' });
  t.equal(post.status, 405);
  t.match(post.headers.get('allow'), 'GET');
  t.match(post.body, '<h1>Method not allowed</h1>');
});

t.test('plans: a page is a free-plan request of the address, with the API in one burst and quota', async (t) => {
  // A clock that stands still: the four requests share one burst second however slow the machine
  // (on the wall clock a second could turn between them).
  const at = Date.now();
  const url = await serveWith({ freePerSecond: 3 }, {}, () => at);
  const page = await get(`${url}/`);
  t.equal(page.status, 200);
  t.match(page.headers.get('x-ratelimit-limit'), '100000');
  const statuses = [(await get(`${url}/api/v1/ping`)).status, (await get(`${url}/`)).status];
  const refused = await get(`${url}/`);
  t.same(statuses, [200, 200]);
  t.equal(refused.status, 429, 'the 4th request of the second, API and pages alike');
  t.equal(refused.headers.get('retry-after'), '1');
  t.match(refused.body, '<h1>Too many requests</h1>');
  t.match(refused.headers.get('content-type'), 'text/html');
});

t.test('pay as you go: a browser cannot sign claims, so pages are counted as the free plan', async (t) => {
  const url = await serveWith({ mode: 'payg', paygDestination: 'rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw' });
  const page = await get(`${url}/`);
  t.equal(page.status, 200);
  t.match(page.headers.get('x-ratelimit-limit'), '100000');
  t.equal((await get(`${url}/api/v1/ledgers`)).status, 402, 'the API still needs a claim');
});

t.test('site.enabled false: no pages, the API as before', async (t) => {
  const url = await serveWith({}, { enabled: false });
  const home = await get(`${url}/`);
  t.equal(home.status, 404);
  t.match(JSON.parse(home.body), { error: { code: 'NOT_FOUND' } });
  t.equal((await get(`${url}/api/v1/ping`)).status, 200);
});
