import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import BigNumber from 'bignumber.js';
import t, { type Test } from 'tap';
import type { AxeResults } from 'axe-core';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { createEngineClient, createLogger, fixturesDir, indexName, repoRoot, type Config } from '@xle/core';
import { nftPageChanges, type Json } from '@xle/documents';
import {
  importNames,
  loadValidatorList,
  manifestFromStream,
  type ManifestStreamMessage,
  parseValidation,
  readNameRecords,
  runValidatorsJob,
  ValidationStore,
  type ValidationStreamMessage,
  validateNameRecords,
  verifyValidatorList,
} from '@xle/ingester';
import {
  createTestValidator,
  listenForTest,
  manifestMessage,
  readAllDocuments,
  signValidation,
} from '@xle/test-helpers';
import { fixtureLedgers } from '@xle/test-loaded';
import { engineOf, loadedIndices, loadNetworkData, runAllJobs, siteApp } from '../fixtures/serve.js';

/**
 * The website in a real browser: Debian's Chromium driven by playwright-core (no browser is ever
 * downloaded) over every page on the real fixture ledgers with every data set computed. Each page
 * shows the values the REST API answers for the same id, links only to pages that answer 200, logs
 * no console error, loads nothing from elsewhere, has no script, has no serious or critical axe-core
 * violation (light and dark), fits a phone's width, and is saved as a screenshot under
 * .data/test-output/browser. The search box is used with JavaScript off.
 */

const OUT = join(repoRoot, '.data/test-output/browser');
mkdirSync(OUT, { recursive: true });
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(CHROMIUM))
  throw new Error(`No Chromium at ${CHROMIUM}: ./scripts/test.sh installs Debian's chromium, or set CHROMIUM_PATH.`);
/** Headless Chromium as it runs on this machine: no GPU, no QUIC, none of its own network traffic. */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };

// ---- The data: every fixture ledger, every derived data set, a validator that validated them all.
const target = await loadedIndices(t);
await runAllJobs(target);
const engine = engineOf(target);
const alice = createTestValidator('site-browser/alice', { domain: 'alice.example' });
// The network snapshots and the node crawl, from recorded mainnet answers replayed locally.
await loadNetworkData(engine);
// Labels of well-known accounts, as the quick start imports them: the historical gateways list.
const gatewaysFile = join(fixturesDir, 'tokens/gateways.rippled-historical-database.json');
const named = validateNameRecords(readNameRecords(gatewaysFile, readFileSync(gatewaysFile, 'utf8')));
if (named.problems.length > 0) throw new Error(`gateways list: ${JSON.stringify(named.problems[0])}`);
await importNames(engine, 'gateways', named.records);

// The site is served as in production: access plans on (limits raised: one address browses a lot).
const config: Config = {
  ...target.config,
  access: { ...target.config.access, mode: 'plans', freePerSecond: 100_000, freePerDay: 10_000_000 },
};
const base = await listenForTest(
  t,
  siteApp({ config, client: target.client, logger: createLogger('site', 'silent') }).callback(),
);
const api = async <T = Json>(path: string): Promise<T> => {
  const response = await fetch(`${base}/api/v1${path}`);
  if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
  return (await response.json()) as T;
};

// Alice votes for an amendment that is open for voting, and validated every indexed ledger.
const amendments = await api<Json[]>('/amendments');
const voting = amendments.find((a) => a.enabled !== true && a.supported === true && a.obsolete !== true);
if (voting === undefined) throw new Error('no amendment open for voting in the bundled list');
const AMENDMENT = String(voting.amendment_id);
const ledgerDocs = await readAllDocuments<{ ledger_index: number; ledger_hash: string; close_time: number }>(
  target.client,
  indexName(target.naming, 'ledgers'),
);
await new ValidationStore(engine).write(
  ledgerDocs.map((l) =>
    parseValidation(
      signValidation(alice, {
        ledger_index: l.ledger_index,
        ledger_hash: l.ledger_hash,
        signing_time: l.close_time + 1,
        amendments: [AMENDMENT],
      }) as unknown as ValidationStreamMessage,
    ),
  ),
  [
    {
      ...manifestFromStream(manifestMessage(alice) as unknown as ManifestStreamMessage),
      received_at: '2025-02-12T00:00:00.000Z',
    },
  ],
);
const list = verifyValidatorList(await loadValidatorList(join(fixturesDir, 'validators/xrpl-dev-portal/vl.json')), {
  allowExpired: true,
});
await runValidatorsJob({ engine }, { name: 'vl.ripple.com', list });

// ---- The browser.
const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
t.teardown(() => browser.close());

/** Every same-origin link the pages rendered, with the page it was found on. */
const links = new Map<string, string>();

interface Visit {
  page: Page;
  context: BrowserContext;
  /** Console errors, page errors, failed or foreign requests seen so far. */
  problems: string[];
}

async function open(
  path: string,
  options: { javaScript?: boolean; status?: number; origin?: string } = {},
): Promise<Visit> {
  const origin = options.origin ?? base;
  const context = await browser.newContext({ viewport: DESKTOP, javaScriptEnabled: options.javaScript ?? true });
  const page = await context.newPage();
  const problems: string[] = [];
  const expected = options.status ?? 200;
  page.on('console', (m) => {
    // The browser reports a page answered with an error status as such; that one is expected.
    if (m.type() === 'error' && !(expected !== 200 && m.text().includes(`status of ${expected}`)))
      problems.push(`console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  // A request the next navigation cut short (net::ERR_ABORTED) did not fail.
  page.on('requestfailed', (r) => {
    if (r.failure()?.errorText !== 'net::ERR_ABORTED') problems.push(`request failed: ${r.url()}`);
  });
  page.on('request', (r) => {
    if (!r.url().startsWith(origin) && !r.url().startsWith('data:')) problems.push(`request elsewhere: ${r.url()}`);
  });
  const response = await page.goto(`${origin}${path}`);
  t.equal(response?.status(), expected, `GET ${path} answers ${expected}`);
  return { page, context, problems };
}

const text = async (page: Page, selector: string): Promise<string> =>
  (await page.locator(selector).first().innerText()).trim();
/** The value of a fact (a `dt` / `dd` pair) by its label. */
const fact = (page: Page, label: string): Promise<string> => text(page, `.fact:has(dt:text-is("${label}")) dd`);
/** The first number as the page writes it, without its group separators ("1,234.5 XRP" → "1234.5"). */
const number = (shown: string): string => (/[-+]?\d[\d,]*(?:\.\d+)?/.exec(shown)?.[0] ?? '').replace(/,/g, '');

/**
 * What a page's layout gets wrong on the screen it is shown on (run in the page): elements that
 * reach past the viewport's width (a wide table included: on a phone tables become cards), and
 * text drawn below 12 px, chart labels included (an SVG's text at its drawn scale). Hidden
 * elements (visually-hidden captions, the skip link) are left out.
 */
const LAYOUT_PROBLEMS = (): { overflowing: string[]; small: string[] } => {
  const width = document.documentElement.clientWidth;
  const describe = (el: Element): string =>
    `${el.tagName.toLowerCase()}${el.id === '' ? '' : `#${el.id}`}${el.classList.length === 0 ? '' : `.${[...el.classList].join('.')}`}: “${(el.textContent ?? '').trim().slice(0, 40)}”`;
  // Hidden: not displayed, or inside a box clipped to a pixel (visually-hidden captions, a card
  // table's column heads), or the skip link off screen until focused.
  const hidden = (el: Element): boolean => {
    if (el.closest('.skip, details:not([open]) > :not(summary)') !== null) return true;
    for (let at: Element | null = el; at !== null; at = at.parentElement) {
      const style = getComputedStyle(at);
      if (style.display === 'none' || style.visibility === 'hidden') return true;
      const box = at.getBoundingClientRect();
      if ((style.overflow === 'hidden' || style.overflow === 'clip') && (box.width <= 1 || box.height <= 1))
        return true;
    }
    return false;
  };
  const overflowing: string[] = [];
  const small: string[] = [];
  for (const el of document.body.querySelectorAll('*')) {
    if (hidden(el)) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (box.right > width + 1 || box.left < -1)
      overflowing.push(`${describe(el)} (${Math.round(box.left)}–${Math.round(box.right)} px)`);
    const ownText = [...el.childNodes].some((n) => n.nodeType === 3 && (n.textContent ?? '').trim() !== '');
    if (!ownText) continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    const svg = el.closest('svg');
    if (svg !== null) {
      const view = svg.viewBox.baseVal;
      if (view !== null && view.width > 0) size *= svg.getBoundingClientRect().width / view.width;
    }
    if (size < 11.95) small.push(`${describe(el)} (${size.toFixed(1)} px)`);
  }
  return { overflowing: overflowing.slice(0, 10), small: small.slice(0, 10) };
};

/**
 * What every page must be: in the site's look, without script, accessible (axe-core: no serious or
 * critical violation, light and dark), readable on a phone (nothing wider than its screen), with
 * no console error or foreign request; screenshots on a desktop and a phone; its links collected.
 */
async function audit(t: Test, visit: Visit, name: string): Promise<void> {
  const { page } = visit;
  t.equal(await page.locator('script').count(), 0, `${name}: no script`);
  t.equal(
    await page.locator('header.site-header form[role="search"] input[name="q"]').count(),
    1,
    `${name}: the search box`,
  );
  t.equal(
    await page.evaluate(() => getComputedStyle(document.body).margin),
    '0px',
    `${name}: the site's stylesheet is applied`,
  );
  await page.evaluate(AXE);
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    const suffix = viewport === PHONE ? '-phone' : '';
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const results = await page.evaluate(() =>
        (window as unknown as { axe: { run: (c: Document, o: object) => Promise<AxeResults> } }).axe.run(document, {
          resultTypes: ['violations'],
        }),
      );
      const serious = results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map(
          (v) =>
            `${v.id} (${v.impact}): ${v.nodes
              .slice(0, 3)
              .map((n) => n.target.join(' '))
              .join(', ')}`,
        );
      t.same(serious, [], `${name} (${scheme}, ${viewport.width} px): no serious or critical accessibility violation`);
      await page.screenshot({
        path: join(OUT, `${name}${suffix}${scheme === 'dark' ? '-dark' : ''}.png`),
        fullPage: true,
      });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    const layout = await page.evaluate(LAYOUT_PROBLEMS);
    t.same(layout.overflowing, [], `${name} (${viewport.width} px): no element reaches past the screen's width`);
    t.same(layout.small, [], `${name} (${viewport.width} px): no text below 12 px`);
  }
  // Same-origin links, a link within the page (#main) aside.
  const hrefs = await page.$$eval('a[href], link[href]', (els) =>
    els.filter((e) => !String(e.getAttribute('href')).startsWith('#')).map((e) => (e as HTMLAnchorElement).href),
  );
  for (const href of hrefs) if (href.startsWith(base)) links.set(href, name);
  t.same(visit.problems, [], `${name}: no console error, no failed or foreign request`);
  await visit.context.close();
}

t.test('home: the newest ledgers and the network figures as the API answers them', async (t) => {
  const [ledgers, xrp] = await Promise.all([api('/ledgers'), api<Record<string, string>>('/fact/XRP')]);
  const visit = await open('/');
  const rows = visit.page.locator('section[aria-labelledby="ledgers-h"] tbody tr');
  const list = ledgers.ledgers as Json[];
  t.equal(await rows.count(), list.length);
  t.equal(number(await rows.first().locator('td').first().innerText()), String(list[0]?.ledger_index));
  t.equal(number(await rows.first().locator('td').nth(2).innerText()), String(list[0]?.tx_count));
  t.equal(number(await fact(visit.page, 'XRP in existence')), xrp.total_supply);
  t.equal(await visit.page.locator('svg.chart[role="img"]').count(), 4, 'four daily charts');
  // The recorded answers say which ledger and time their figures are of, never the newest indexed one.
  t.equal(await fact(visit.page, 'Fee figures from'), 'rippled’s fee of ledger 26,575,101 (its time not known)');
  t.equal(
    await fact(visit.page, 'Server figures from'),
    'rippled’s server_info of ledger 82,521,701 (2023-09-13 22:08:48 UTC)',
  );
  await audit(t, visit, 'home');
});

const ACCOUNT = 'rHsZHqa5oMQNL5hFm4kfLd47aEMYjPstpg';

t.test('account: balance, holdings, offers and transactions, with paging and filters', async (t) => {
  const [info, orders, lines, assets, page1] = await Promise.all([
    api(`/account/${ACCOUNT}`),
    api<Json[]>(`/account/${ACCOUNT}/orders`),
    api(`/account/${ACCOUNT}/trustlines2`),
    api<Json[]>(`/account/${ACCOUNT}/assets`),
    api(`/account/${ACCOUNT}/transactions`),
  ]);
  const visit = await open(`/account/${ACCOUNT}`);
  const { page } = visit;
  t.equal(number(await fact(page, 'Balance')), String(info.nativeBalance));
  t.equal(await fact(page, 'Owned objects'), String(info.OwnerCount));
  t.equal(await fact(page, 'Sequence'), String(info.Sequence));
  // No FeeSettings entry is indexed: the reserve is the recorded server_info's, named with its ledger and date.
  t.match(
    await fact(page, 'Reserve'),
    /XRP base \+ \d+ × 2 XRP per owned object, from rippled’s server_info of ledger 82,521,701 \(2023-09-13 22:08:48 UTC\)\)$/,
  );
  t.equal(await page.locator('section[aria-labelledby="orders-h"] tbody tr').count(), orders.length);
  t.equal(
    await page.locator('[aria-label="Trust lines"] tbody tr').count(),
    (lines.lines as Json[]).length,
    'trust lines',
  );
  t.equal(await page.locator('[aria-label="Tokens held"] tbody tr').count(), assets.length, 'assets');
  const txRows = page.locator('[aria-label="Transactions of the account"] tbody tr');
  const txs = page1.transactions as Json[];
  t.equal(await txRows.count(), txs.length);
  t.equal(await txRows.first().locator('a[href^="/tx/"]').getAttribute('href'), `/tx/${String(txs[0]?.hash)}`);
  await audit(t, visit, 'account');

  // The next page, as the REST marker gives it.
  const next = await open(`/account/${ACCOUNT}`);
  await next.page.getByRole('link', { name: 'Next page' }).click();
  await next.page.waitForURL(/marker=/);
  const page2 = await api(`/account/${ACCOUNT}/transactions?marker=${encodeURIComponent(String(page1.marker))}`);
  t.equal(
    await next.page
      .locator('[aria-label="Transactions of the account"] tbody tr a[href^="/tx/"]')
      .first()
      .getAttribute('href'),
    `/tx/${String((page2.transactions as Json[])[0]?.hash)}`,
    'page 2 starts where the API says',
  );
  // A filter, through the form.
  // The type is a choice among rippled's transaction types.
  await next.page.selectOption('form.filters select[name="type"]', 'OfferCancel');
  await next.page.getByRole('button', { name: 'Filter' }).click();
  await next.page.waitForURL(/type=OfferCancel/);
  const cancels = (await api(`/account/${ACCOUNT}/transactions?type=OfferCancel`)).transactions as Json[];
  const types = await next.page
    .locator('[aria-label="Transactions of the account"] tbody tr td:nth-child(3)')
    .allInnerTexts();
  t.equal(types.length, cancels.length, 'the API’s count of OfferCancel');
  t.ok(types.length > 0 && types.every((type) => type === 'OfferCancel'), 'only OfferCancel');
  const lower = (await api(`/account/${ACCOUNT}/transactions?type=offercancel`)).transactions as Json[];
  t.same(
    lower.map((tx) => tx.hash),
    cancels.map((tx) => tx.hash),
    'type=offercancel finds the same rows as OfferCancel',
  );
  t.same(next.problems, []);
  await next.context.close();
});

const PAYMENT = 'B0DAF34D43E286943C5BBE79BA2CBDAC9C385E194FE2959DEAAFA4B4C71E505E';

t.test('transaction: summary, result, fee, ledger, delivered amount, balance changes, raw JSON', async (t) => {
  const tx = await api(`/tx/${PAYMENT}`);
  const meta = tx.meta as Json;
  const visit = await open(`/tx/${PAYMENT}`);
  const { page } = visit;
  const summary = await text(page, '.summary');
  const issuer = String((tx.Amount as Json).issuer);
  t.equal(
    summary,
    `${String(tx.Account)} paid ${String(tx.Destination)} 12,136 xSTIK (${issuer.slice(0, 5)}…${issuer.slice(-5)}).`,
    'the token by its code, its issuer in brackets (shortened: it has no label)',
  );
  t.equal(await fact(page, 'Flags'), 'tfFullyCanonicalSig', 'flags by name');
  t.equal(await fact(page, 'Result'), meta.TransactionResult);
  t.equal(number(await fact(page, 'Fee')), String(Number(tx.Fee) / 1e6));
  t.equal(number(await fact(page, 'Ledger')), String(tx.ledger_index));
  // This ledger's binary metadata has no delivered_amount: a full payment delivered its Amount.
  t.equal(number(await fact(page, 'Delivered')), String(((meta.delivered_amount ?? tx.Amount) as Json).value));
  t.equal(await fact(page, 'Compact id (ctid)'), tx.ctid);
  const changes = await page.locator('[aria-label="Balance changes per account"] tbody tr').allInnerTexts();
  t.ok(
    changes.some((row) => row.includes(String(tx.Account)) && row.includes(`-${Number(tx.Fee) / 1e6}`)),
    'the fee',
  );
  t.ok(
    changes.some((row) => row.includes(String(tx.Destination)) && row.includes('+12,136')),
    'the delivery',
  );
  await page.getByText('The raw transaction with its metadata (JSON)').click();
  t.match(await text(page, 'details.raw pre'), `"hash": "${PAYMENT}"`, 'the raw JSON behind its toggle');
  await audit(t, visit, 'transaction');

  // The same page by its ctid.
  const byCtid = await open(`/tx/${String(tx.ctid)}`);
  t.match(await text(byCtid.page, 'h1'), PAYMENT);
  await byCtid.context.close();
  // Decoded memos, from a fixture transaction that has one.
  const memo = '77B72BC3A0F9090D7DC7C22E6A8A0405D8630D00DA39E810A56FE268F9D065B3';
  const memoData = (((await api(`/tx/${memo}`)).Memos as Json[])[0]?.Memo as Json).MemoData as string;
  const withMemo = await open(`/tx/${memo}`);
  t.equal(await fact(withMemo.page, 'Data'), Buffer.from(memoData, 'hex').toString('utf8'));
  await withMemo.context.close();
});

const LEDGER = 94084608;

t.test('ledger: its header and its transactions with types and results', async (t) => {
  const [ledger, txs] = await Promise.all([api(`/ledger/${LEDGER}`), api<Json[]>(`/ledger/${LEDGER}/transactions`)]);
  const visit = await open(`/ledger/${LEDGER}`);
  const { page } = visit;
  t.equal(number(await fact(page, 'Transactions')), String(ledger.tx_count));
  t.equal(await fact(page, 'Ledger hash'), ledger.ledger_hash);
  const rows = page.locator(`[aria-label="Transactions of ledger ${LEDGER}"] tbody tr`);
  t.equal(await rows.count(), txs.length);
  t.equal(await rows.first().locator('td').nth(1).innerText(), txs[0]?.TransactionType);
  t.equal(await rows.first().locator('.result').innerText(), (txs[0]?.meta as Json).TransactionResult);
  await audit(t, visit, 'ledger');
});

t.test('token: metrics, score, XLS-26 status and top holders', async (t) => {
  const [first] = await api<Json[]>('/tokens?limit=1');
  const token = await api(`/token/${String(first?.code)}.${String(first?.issuer)}`);
  const visit = await open(`/token/${String(token.code)}.${String(token.issuer)}`);
  const { page } = visit;
  const metrics = token.metrics as Json;
  t.equal(number(await fact(page, 'Holders')), String(metrics.holders));
  // Figures rounded for reading, the exact value in the title.
  const score = page.locator('.fact:has(dt:text-is("Score")) dd span');
  t.equal(await score.getAttribute('title'), String(token.score));
  t.equal(await score.innerText(), Number(token.score).toFixed(3));
  const supply = page.locator('.fact:has(dt:text-is("Supply")) dd span');
  t.equal(number((await supply.getAttribute('title')) ?? (await supply.innerText())), String(metrics.supply));
  t.ok(
    number(await supply.innerText()).replace('.', '').length <=
      Math.max(6, String(metrics.supply).split('.')[0]!.length),
  );
  const rows = page.locator('[aria-label="Top holders"] tbody tr');
  t.equal(await rows.count(), Math.min(25, Number(metrics.holders)));
  // The largest holder's balance is its trust line's, as the API answers it.
  const holder = String(await rows.first().locator('a.account').getAttribute('href')).replace('/account/', '');
  const line = ((await api(`/account/${holder}/trustlines2`)).lines as Json[]).find(
    (l) => l.account === token.issuer && l.currency === token.code,
  );
  t.equal(number(await rows.first().locator('td').nth(2).innerText()), String(Math.abs(Number(line?.balance))));
  // Each share is of the supply shown beside it: the largest holder's, computed here in decimal.
  const topShare = new BigNumber(String(Math.abs(Number(line?.balance)))).div(String(metrics.supply)).times(100);
  t.equal(await rows.first().locator('td').nth(3).innerText(), `${topShare.toFixed(2)} %`);
  const shares = (await rows.locator('td:nth-child(4)').allInnerTexts()).map((s) => Number(s.replace(' %', '')));
  t.ok(
    shares.reduce((a, b) => a + b, 0) <= 100 + 0.005 * shares.length,
    `${shares.length} shares, together at most 100 %`,
  );
  const metadata = await text(page, 'section[aria-labelledby="metadata-h"]');
  t.match(metadata, 'xrp-ledger.toml', 'the XLS-26 status in words');
  t.notMatch(metadata, /TOML_DIR|file:|\/work|\.toml in/, 'no server path or operator detail');
  await audit(t, visit, 'token');
});

t.test('NFT: owner, issuer, flags and its history, the mint included', async (t) => {
  // An NFT minted in a fixture ledger: the mint's pages added it.
  const txs = await api<Json[]>('/ledger/83258110/transactions');
  const mint = txs.find((tx) => tx.TransactionType === 'NFTokenMint' && nftPageChanges(tx.meta).added.length === 1);
  const id = nftPageChanges(mint?.meta).added[0] as string;
  const nft = await api(`/nft/${id}`);
  const visit = await open(`/nft/${id}`);
  const { page } = visit;
  t.match(await fact(page, 'Owner'), String(nft.owner));
  t.match(await fact(page, 'Issuer'), String(nft.issuer));
  t.equal(await fact(page, 'Taxon'), String(nft.nft_taxon));
  t.equal(await fact(page, 'Serial'), String(nft.nft_serial));
  t.equal(await fact(page, 'Flags'), (nft.flags_parsed as string[]).join(', ') || 'none');
  const history = await page
    .locator('[aria-label="Transactions of the NFT"] tbody tr a[href^="/tx/"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('href')));
  t.ok(history.includes(`/tx/${String(mint?.hash)}`), 'its mint is in its history');
  await audit(t, visit, 'nft');
});

t.test('validator: agreement over 1 h, 24 h and 30 days, daily reports, votes', async (t) => {
  const [info, reports] = await Promise.all([
    api(`/validator/${alice.master_key}`),
    api(`/validator/${alice.master_key}/reports`),
  ]);
  const visit = await open(`/validator/${alice.master_key}`);
  const { page } = visit;
  const rows = await page
    .locator('[aria-label="Agreement over 1 hour, 24 hours and 30 days"] tbody tr')
    .allInnerTexts();
  const month = info.agreement_30day as Json;
  t.equal(rows.length, 3);
  t.match(rows[2], `${Number(month.total) - Number(month.missed)}\t${Number(month.missed)}\t${Number(month.total)}`);
  t.equal(await page.locator('[aria-label="Daily reports"] tbody tr').count(), (reports.reports as Json[]).length);
  t.ok((reports.reports as Json[]).length > 0, 'reports to show');
  t.equal(await page.locator(`a[href="/amendment/${AMENDMENT}"]`).count(), 1, 'its vote links the amendment');
  t.equal(await page.locator('svg.chart[role="img"]').count(), 1, 'the daily agreement drawn');
  await audit(t, visit, 'validator');
});

t.test('amendment: status and the validators voting for it', async (t) => {
  const amendment = await api(`/amendment/${AMENDMENT}`);
  const visit = await open(`/amendment/${AMENDMENT}`);
  const { page } = visit;
  t.equal(await text(page, 'h1'), `Amendment\n${String(amendment.name)}`);
  t.equal(await fact(page, 'Status'), 'open for voting');
  t.equal(
    await page.locator(`[aria-label="Validators voting for it"] a[href="/validator/${alice.master_key}"]`).count(),
    1,
  );
  await audit(t, visit, 'amendment');
});

t.test('the search box reaches the right page for each kind of id, without JavaScript', async (t) => {
  const [ledgers, tokens, nfts] = await Promise.all([
    api('/ledgers'),
    api<Json[]>('/tokens?limit=1'),
    api<Json[]>('/account/rfx2mVhTZzc6bLXKeYyFKtpha2LHrkNZFT/nfts'),
  ]);
  const newest = (ledgers.ledgers as Json[])[0] as Json;
  const token = tokens[0] as Json;
  const nft = String(nfts[0]?.NFTokenID);
  const tx = await api(`/tx/${PAYMENT}`);
  const cases: [string, string, string][] = [
    ['an address', ACCOUNT, `/account/${ACCOUNT}`],
    ['a transaction hash', PAYMENT.toLowerCase(), `/tx/${PAYMENT}`],
    ['a ctid', String(tx.ctid), `/tx/${String(tx.ctid)}`],
    ['a ledger index', String(newest.ledger_index), `/ledger/${String(newest.ledger_index)}`],
    ['a ledger hash', String(newest.ledger_hash), `/ledger/${String(newest.ledger_hash)}`],
    [
      'a token',
      `${String(token.code)}.${String(token.issuer)}`,
      `/token/${String(token.code)}.${String(token.issuer)}`,
    ],
    ['an NFT id', nft, `/nft/${nft}`],
    ['a validator key', alice.master_key, `/validator/${alice.master_key}`],
    ['an amendment id', AMENDMENT, `/amendment/${AMENDMENT}`],
  ];
  const visit = await open('/', { javaScript: false });
  const { page } = visit;
  for (const [what, query, path] of cases) {
    await page.goto(`${base}/`);
    await page.fill('#q', query);
    const [response] = await Promise.all([page.waitForNavigation(), page.press('#q', 'Enter')]);
    t.equal(new URL(page.url()).pathname, path, `${what} → ${path}`);
    t.equal(response?.status(), 200, `${what}: the page answers`);
  }
  t.same(visit.problems, []);
  await visit.context.close();

  const unknown = await open(`/search?q=${'AB'.repeat(32)}`, { status: 404 });
  t.match(await text(unknown.page, 'main'), 'No transaction, ledger, NFT or amendment with the id');
  await audit(t, unknown, 'search-not-found');
  const refused = await open('/search?q=rsw3nDRopQQZDrZjzawak7hDz2gLwCPszx', { status: 400 });
  t.match(await text(refused.page, 'main'), 'checksum');
  t.match(await text(refused.page, 'main'), 'The search box takes:');
  await audit(t, refused, 'search-refused');
});

t.test('errors are pages in the site’s look: 404, 400 and 503', async (t) => {
  const missing = await open(`/tx/${'0'.repeat(64)}`, { status: 404 });
  t.equal(await text(missing.page, 'h1'), 'Not found');
  await audit(t, missing, '404');
  const malformed = await open('/account/not-an-address', { status: 400 });
  t.match(await text(malformed.page, 'main'), '“not-an-address” is not an XRP Ledger account address.');
  await audit(t, malformed, '400');
  // The same site in front of an engine that cannot be reached.
  const down: Config = { ...target.config, es: { ...target.config.es, url: 'http://127.0.0.1:9' } };
  const client = createEngineClient(down);
  t.teardown(() => client.close());
  const downBase = await listenForTest(
    t,
    siteApp({ config: down, client, logger: createLogger('site', 'silent') }).callback(),
  );
  const unavailable = await open(`/ledger/${LEDGER}`, { origin: downBase, status: 503 });
  t.equal(await text(unavailable.page, 'h1'), 'Temporarily unavailable');
  t.ok((await fetch(`${downBase}/ledger/${LEDGER}`)).headers.get('retry-after'), 'with Retry-After');
  await audit(t, unavailable, '503');
});

const POOL = 'rP5J7x4HyHKQUUfrfzvuq28iLwiKPf7yv5';
const ISSUER = 'rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y';

t.test('the menu leads to every list page, each row to its page', async (t) => {
  const visit = await open('/');
  const menu = await visit.page
    .locator('header nav[aria-label="Sections"] a')
    .evaluateAll((els) => els.map((e) => e.getAttribute('href')));
  t.same(menu, ['/ledgers', '/tokens', '/amms', '/validators', '/amendments']);
  await visit.context.close();

  // Ledgers: newest first, a page of 50, then the older ones, every indexed ledger once.
  const all = [...new Set(ledgerDocs.map((l) => l.ledger_index))].sort((a, b) => b - a);
  const ledgers = await open('/ledgers');
  const first = await ledgers.page
    .locator('[aria-label="Ledgers, newest first"] tbody tr td:first-child')
    .allInnerTexts();
  t.equal(first.length, Math.min(50, all.length));
  t.equal(await ledgers.page.locator('nav[aria-label="Sections"] a[aria-current="page"]').innerText(), 'Ledgers');
  await audit(t, ledgers, 'ledgers');
  const older = await open('/ledgers');
  await older.page.getByRole('link', { name: 'Older ledgers' }).click();
  await older.page.waitForURL(/before=/);
  const second = await older.page
    .locator('[aria-label="Ledgers, newest first"] tbody tr td:first-child')
    .allInnerTexts();
  t.same(
    [...first, ...second].map((n) => Number(number(n))),
    all,
    'both pages: every indexed ledger, newest first',
  );
  await older.context.close();

  // Tokens: sorted as the REST list sorts; a column's title sorts by it.
  const byScore = await api<Json[]>('/tokens?limit=50');
  const tokens = await open('/tokens');
  const hrefs = async (p: Page): Promise<(string | null)[]> =>
    p
      .locator('[aria-label="Tokens"] tbody tr td:first-child > a:not(.account)')
      .evaluateAll((els) => els.map((e) => e.getAttribute('href')));
  t.same(
    await hrefs(tokens.page),
    byScore.map((k) => `/token/${encodeURIComponent(String(k.code))}.${String(k.issuer)}`),
    'by score, as /tokens answers',
  );
  await tokens.page.getByRole('link', { name: 'Holders' }).click();
  await tokens.page.waitForURL(/sort=holders/);
  const byHolders = await api<Json[]>('/tokens?sort=holders&direction=desc&limit=50');
  t.same(
    (await hrefs(tokens.page)).map((h) => h?.split('.').at(-1)),
    byHolders.map((k) => String(k.issuer)),
    'by holders, as /tokens?sort=holders answers',
  );
  t.equal(await tokens.page.locator('th[aria-sort="descending"]').innerText(), 'Holders ↓');
  await audit(t, tokens, 'tokens');

  // AMM pools, validators, amendments: one row each, linked.
  const pools = await api<Json[]>('/amm/pools');
  const amms = await open('/amms');
  t.equal(await amms.page.locator('[aria-label="AMM pools"] tbody tr').count(), pools.length);
  t.equal(await amms.page.locator(`a[href="/amm/${POOL}"]`).innerText(), 'XRP/PONGO', 'a pool named by its assets');
  await audit(t, amms, 'amms');
  const registry = await api<Json[]>('/validatorregistry');
  const validators = await open('/validators');
  t.equal(await validators.page.locator('[aria-label="Validators"] tbody tr').count(), registry.length);
  t.equal(await validators.page.locator(`a[href="/validator/${alice.master_key}"]`).count(), 1);
  await audit(t, validators, 'validators');
  const list = await open('/amendments');
  t.equal(await list.page.locator('[aria-label="Amendments"] tbody tr').count(), amendments.length);
  t.equal(await list.page.locator(`a[href="/amendment/${AMENDMENT}"]`).count(), 1);
  await audit(t, list, 'amendments');
});

t.test('an AMM pool: its page, its account said to be one, its LP token named by it', async (t) => {
  const amm = await api(`/amm/${POOL}`);
  const visit = await open(`/amm/${POOL}`);
  const { page } = visit;
  t.equal(await text(page, 'h1'), 'AMM pool\nXRP/PONGO');
  t.match(await fact(page, 'Asset 2'), /^[\d,.]+ PONGO \(/, 'the hex currency decoded');
  t.equal(number(await fact(page, 'Asset 1')), String(Number(amm.amount) / 1e6));
  t.match(await fact(page, 'LP tokens issued'), 'LP XRP/PONGO');
  t.equal(await page.locator('[aria-label="Trading fee votes"] tbody tr').count(), (amm.vote_slots as Json[]).length);
  t.match(await text(page, 'section[aria-labelledby="auction-h"]'), 'LP XRP/PONGO');
  await audit(t, visit, 'amm');
  const account = await open(`/account/${POOL}`);
  t.match(await text(account.page, 'h1'), 'AMM pool account');
  t.equal(await account.page.locator(`main .notice a[href="/amm/${POOL}"]`).count(), 1, 'a link to its pool');
  await account.context.close();
});

t.test('an issuer’s page: its trust lines from the holders’ side, its tokens without its own name', async (t) => {
  const lines = (await api(`/account/${ISSUER}/trustlines2`)).lines as Json[];
  t.ok(
    lines.some((l) => String(l.balance).startsWith('-')),
    'the API answers from the issuer’s side',
  );
  const visit = await open(`/account/${ISSUER}`);
  const balances = await visit.page.locator('[aria-label="Trust lines"] tbody tr td:nth-child(3)').allInnerTexts();
  t.equal(balances.length, lines.length);
  t.ok(
    balances.every((b) => !b.trim().startsWith('-')),
    'every balance positive',
  );
  t.ok(balances.some((b) => b.includes('held by the peer')));
  await audit(t, visit, 'account-issuer');
});

t.test('a partial payment says so, with what it asked for and what it delivered', async (t) => {
  const txs = await api<Json[]>(`/ledger/${LEDGER}/transactions`);
  const partial = txs.find((tx) => String(tx.hash).startsWith('E72A6831') && tx.TransactionType === 'Payment') as Json;
  const visit = await open(`/tx/${String(partial.hash)}`);
  const notice = await text(visit.page, 'main .notice');
  t.match(notice, 'Partial payment');
  t.match(notice, `asked for ${String(Number(partial.DeliverMax ?? partial.Amount) / 1e6)} XRP`);
  t.match(notice, `delivered ${String(Number((partial.meta as Json).delivered_amount) / 1e6)} XRP`);
  t.equal(await fact(visit.page, 'Flags'), 'tfPartialPayment');
  await audit(t, visit, 'transaction-partial');
});

t.test(
  'the search box finds by name, domain, token code, amendment name and grouped numbers, without JavaScript',
  async (t) => {
    const visit = await open('/', { javaScript: false });
    const { page } = visit;
    const search = async (query: string): Promise<number | undefined> => {
      await page.goto(`${base}/`);
      await page.fill('#q', query);
      const [response] = await Promise.all([page.waitForNavigation(), page.press('#q', 'Enter')]);
      return response?.status();
    };
    const hits = (): Promise<(string | null)[]> =>
      page.locator('ul.hits a').evaluateAll((els) => els.map((e) => e.getAttribute('href')));
    // A label several accounts share: a results page, the exact name first.
    t.equal(await search('Ripple Fox'), 200);
    t.equal(new URL(page.url()).pathname, '/search');
    t.equal((await hits())[0], `/account/${ISSUER}`, 'the exact label first');
    t.ok((await hits()).length > 1, 'several matches listed');
    t.equal(await search('ripplefox.com'), 200);
    t.ok((await hits()).includes(`/account/${ISSUER}`), 'a domain');
    t.equal(await search('Bitstamp'), 200);
    t.ok((await hits()).length >= 1, 'another label');
    // One token with that code: straight to its page.
    t.equal(await search('PONGO'), 200);
    t.match(new URL(page.url()).pathname, /^\/token\/PONGO\.r/);
    // An amendment by its name: the amendments whose name holds it, the exact one first.
    t.equal(await search('AMM'), 200);
    t.equal((await hits())[0], '/amendment/8CC0774A3BF66D1D22E76BBDA8E8A232E6B6313834301B3B23E8601196AE6455');
    // A ledger number with separators.
    t.equal(await search('94,084,608'), 200);
    t.equal(new URL(page.url()).pathname, '/ledger/94084608');
    // Nothing: a 404 page with close names and what the box takes.
    t.equal(await search('Bitstamq'), 404);
    t.match(await text(page, 'h1'), 'Nothing found');
    t.ok((await hits()).length >= 1, 'close names suggested');
    t.match(await text(page, 'main'), 'The search box takes');
    // The browser logs the 404 of the search that found nothing: that one is expected.
    t.same(
      visit.problems.filter((p) => !p.includes('status of 404')),
      [],
    );
    await visit.context.close();
    const results = await open('/search?q=Ripple+Fox');
    await audit(t, results, 'search-results');
    const none = await open('/search?q=Bitstamq', { status: 404 });
    await audit(t, none, 'search-nothing');
    // The amendment's page by its name; a validator key with a wrong checksum is a 400.
    const byName = await open('/amendment/AMM');
    t.equal(await text(byName.page, 'h1'), 'Amendment\nAMM');
    t.equal(
      await text(byName.page, 'section[aria-labelledby="votes-h"] p'),
      'Enabled: validators no longer vote on it.',
      'an enabled amendment counts no votes',
    );
    await byName.context.close();
    const badKey = await open(
      `/validator/${alice.master_key.slice(0, -1)}${alice.master_key.endsWith('a') ? 'b' : 'a'}`,
      {
        status: 400,
      },
    );
    t.match(await text(badKey.page, 'main'), 'checksum');
    await badKey.context.close();
  },
);

t.test('an offer cancelled links the transaction that created it', async (t) => {
  const cancel = await api('/tx/EEEF2B2EAE70508920E2E03B5B4533C0526EE494F578583615828C57E8BDF03E');
  const visit = await open(`/tx/${String(cancel.hash)}`);
  const link = visit.page.locator('.fact:has(dt:text-is("Offer cancelled")) dd a[href^="/tx/"]');
  const created = String(await link.getAttribute('href')).replace('/tx/', '');
  const creation = await api(`/tx/${created}`);
  t.equal(creation.TransactionType, 'OfferCreate');
  t.equal(creation.Account, cancel.Account, 'by the same account');
  t.equal(creation.TicketSequence ?? creation.Sequence, cancel.OfferSequence, 'with the sequence it names');
  t.ok(Number(creation.ledger_index) <= Number(cancel.ledger_index), 'before it');
  await visit.context.close();
});

/**
 * What a page's text shows that no reader should see (the raw JSON and attributes left out): a
 * number with more than 16 significant digits (XRP amounts aside: to the drop they reach 17), a
 * run of six 9s or seven 0s before a last digit (binary floating point), a 40-hex currency code.
 */
function readingProblems(html: string): string[] {
  const visible = html
    .replace(/<details class="raw">[\s\S]*?<\/details>/g, ' ')
    .replace(/<(script|style)[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ');
  const problems: string[] = [];
  for (const match of visible.matchAll(/[-+−]?\d[\d,]*\.\d+(?!\s*XRP\b)(?![\d.])/g)) {
    const digits = match[0].replace(/[^\d.]/g, '');
    const significant = digits.replace('.', '').replace(/^0+/, '');
    const fraction = digits.split('.')[1] ?? '';
    if (significant.length > 16 || /9{6}\d$/.test(fraction) || /0{7}\d$/.test(fraction))
      problems.push(`float noise ${match[0]}`);
  }
  for (const match of visible.matchAll(/(?<![0-9A-Fa-f])[0-9A-F]{40}(?![0-9A-Fa-f])/g))
    problems.push(`40-hex code ${match[0]}`);
  return problems;
}

t.test('every link the pages rendered answers 200, and no page shows float noise or a hex code', async (t) => {
  const urls = [...links.keys()];
  t.ok(urls.length > 100, `${urls.length} distinct links`);
  const failures: string[] = [];
  const unreadable: string[] = [];
  for (let i = 0; i < urls.length; i += 8) {
    await Promise.all(
      urls.slice(i, i + 8).map(async (url) => {
        const response = await fetch(url, { redirect: 'manual' });
        const body = await response.text();
        if (response.status !== 200) failures.push(`${response.status} ${url} (on ${links.get(url)})`);
        if ((response.headers.get('content-type') ?? '').startsWith('text/html'))
          unreadable.push(...readingProblems(body).map((p) => `${p} on ${url}`));
      }),
    );
  }
  t.same(failures, []);
  t.same(unreadable.slice(0, 20), [], `${unreadable.length} unreadable figures`);
  t.same(
    readingProblems('<td>4,000.000000000001 CNY</td>'),
    ['float noise 4,000.000000000001'],
    'the check finds noise',
  );
  t.same(readingProblems('<td>99,986,762,447.612345 XRP</td>'), [], 'XRP to the drop is exact');
});

/**
 * Net balance changes of one fixture transaction, straight from its AffectedNodes and not from the
 * code under test: an AccountRoot's Balance after minus before (the sender's fee added back), and
 * a RippleState's Balance, the low account's side (the high account's change is its negation),
 * per account and currency (https://xrpl.org/docs/references/protocol/transactions/metadata).
 */
function netChanges(tx: Json): Map<string, BigNumber> {
  const out = new Map<string, BigNumber>();
  // Each change twice: on its own line (account, currency, counterparty) and in the account's
  // net of that currency over all its lines (what an issuer's obligations did).
  const add = (account: string, currency: string, value: BigNumber, counterparty = ''): void => {
    for (const key of new Set([`${account} ${counterparty} ${currency}`, `${account} * ${currency}`]))
      out.set(key, (out.get(key) ?? new BigNumber(0)).plus(value));
  };
  type Node = { LedgerEntryType?: string; FinalFields?: Json; NewFields?: Json; PreviousFields?: Json };
  const meta = (tx.metaData ?? tx.meta) as { AffectedNodes: Record<string, Node>[] };
  for (const wrapper of meta.AffectedNodes) {
    const [kind, node] = Object.entries(wrapper)[0] as [string, Node];
    const after = node.FinalFields ?? node.NewFields ?? {};
    const before = kind === 'CreatedNode' ? {} : (node.PreviousFields ?? after);
    if (node.LedgerEntryType === 'AccountRoot') {
      const delta = new BigNumber(String(after.Balance ?? 0)).minus(String(before.Balance ?? after.Balance ?? 0));
      add(after.Account as string, 'XRP', delta.shiftedBy(-6), '*');
    } else if (node.LedgerEntryType === 'RippleState') {
      const value = (side: unknown): BigNumber => new BigNumber(String((side as Json | undefined)?.value ?? 0));
      const delta = value(after.Balance).minus(kind === 'CreatedNode' ? 0 : value(before.Balance ?? after.Balance));
      const currency = (after.Balance as Json).currency as string;
      const low = (after.LowLimit as Json).issuer as string;
      const high = (after.HighLimit as Json).issuer as string;
      add(low, currency, delta, high);
      add(high, currency, delta.negated(), low);
    }
  }
  add(tx.Account as string, 'XRP', new BigNumber(String(tx.Fee)).shiftedBy(-6), '*');
  return out;
}

t.test(
  'every transaction page: each amount its headline says moved is a balance change of that transaction',
  async (t) => {
    const context = await browser.newContext({ viewport: DESKTOP, javaScriptEnabled: false });
    t.teardown(() => context.close());
    let pages = 0;
    let checked = 0;
    let payments = 0;
    const wrong: string[] = [];
    const queue = fixtureLedgers().flatMap((ledger) => ledger.transactions as Json[]);
    // Four tabs at once: the site, the engine and the browser share two cores.
    const tab = async (): Promise<void> => {
      const page = await context.newPage();
      for (let tx = queue.shift(); tx !== undefined; tx = queue.shift()) {
        const hash = String(tx.hash);
        const response = await page.goto(`${base}/tx/${hash}`, { waitUntil: 'domcontentloaded' });
        if (response?.status() !== 200) {
          wrong.push(`${hash}: ${response?.status()}`);
          continue;
        }
        pages += 1;
        const moved = await page.$$eval('p.summary data.moved', (elements) =>
          elements.map((e) => [e.getAttribute('value') ?? '', e.getAttribute('data-currency') ?? '']),
        );
        const changes = netChanges(tx);
        for (const [value, currency] of moved) {
          const found = [...changes].some(
            ([key, change]) => key.endsWith(` ${currency}`) && change.abs().eq(value ?? NaN),
          );
          if (!found) wrong.push(`${hash}: the headline says ${value} ${currency} moved; no balance changed by that`);
          checked += 1;
        }
        const succeeded = ((tx.metaData ?? tx.meta) as Json).TransactionResult === 'tesSUCCESS';
        if (succeeded && tx.TransactionType === 'Payment' && tx.Account !== tx.Destination) {
          payments += 1;
          if (moved.length === 0) wrong.push(`${hash}: a payment whose headline states no amount delivered`);
        }
        if (!succeeded && moved.length > 0) wrong.push(`${hash}: failed, yet its headline says ${moved.length} moved`);
      }
    };
    await Promise.all([tab(), tab(), tab(), tab()]);
    t.same(wrong.slice(0, 20), [], `${wrong.length} headlines that are not what moved`);
    t.ok(pages >= 1000, `${pages} transaction pages`);
    t.ok(checked >= 400, `${checked} headline amounts checked against the metadata`);
    t.ok(payments >= 200, `${payments} payments, each stating what it delivered`);
  },
);

t.test('the list pages: every pager link answers 200 with rows; a ledger links its indexed neighbours', async (t) => {
  const lists = ['/ledgers', '/amms', ...['score', 'holders', 'code', 'trustlines'].map((s) => `/tokens?sort=${s}`)];
  const seen = new Set<string>();
  const queue = [...lists];
  while (queue.length > 0) {
    const path = queue.shift() as string;
    if (seen.has(path)) continue;
    seen.add(path);
    const response = await fetch(`${base}${path}`);
    const body = await response.text();
    t.equal(response.status, 200, path);
    t.notMatch(body, /on this page\./, `${path}: a page with rows`);
    const pager = /<nav class="pager"[^>]*>([\s\S]*?)<\/nav>/.exec(body)?.[1] ?? '';
    for (const [, href] of pager.matchAll(/href="([^"]+)"/g)) queue.push((href as string).replace(/&amp;/g, '&'));
  }
  t.ok(seen.size > lists.length, `${seen.size} list pages reached through their pagers`);
  const indexed = [...new Set(ledgerDocs.map((l) => l.ledger_index))].sort((a, b) => a - b);
  const middle = indexed[Math.floor(indexed.length / 2)] as number;
  const ledger = await (await fetch(`${base}/ledger/${middle}`)).text();
  const nav = /aria-label="Neighbouring ledgers">([\s\S]*?)<\/nav>/.exec(ledger)?.[1] ?? '';
  const neighbours = [...nav.matchAll(/href="\/ledger\/(\d+)"/g)].map((m) => Number(m[1]));
  const at = indexed.indexOf(middle);
  t.same(neighbours, [indexed[at - 1], indexed[at + 1]], 'the nearest indexed ledgers either side');
});
