import BigNumber from 'bignumber.js';
import t from 'tap';
import { indexName } from '@xle/core';
import { createTestIndices, readAllDocuments, syntheticLedgers } from '@xle/test-helpers';
import { formatChange } from '../../src/model/format.js';
import { fixtureLedgers, getJson, ingest, loadedIndices, serveSite } from '../fixtures/serve.js';

/**
 * The account page's balance column and balance chart, as the REST balance routes answer for the
 * same account: on the real fixture ledgers (the column) and on synthetic consecutive ledgers (a
 * history without gaps, so the chart has every day it draws).
 */

type Change = {
  account: string;
  hash?: string;
  currency: string;
  currency_hex: string;
  issuer: string | null;
  value: string;
};

t.test('the account page shows each transaction’s balance change as the REST changes say it', async (t) => {
  const target = await loadedIndices(t);
  const site = await serveSite(t, target);
  const docs = (await readAllDocuments<Change>(target.client, indexName(target.naming, 'balance-changes'))).filter(
    (d) => typeof d.account === 'string',
  );
  // The account with the most changes in the fixtures.
  const [account] = [
    ...docs.reduce((m, d) => m.set(d.account, (m.get(d.account) ?? 0) + 1), new Map<string, number>()),
  ].sort((a, b) => b[1] - a[1])[0] as [string, number];
  const page = await fetch(`${site}/account/${account}?limit=200`);
  t.equal(page.status, 200);
  const html = await page.text();
  const shown = new Map<string, string[]>();
  for (const row of html.split('<tr').slice(1)) {
    const hash = /\/tx\/([0-9A-F]{64})/.exec(row)?.[1];
    if (hash === undefined) continue;
    // An effect's text, a token's rounded value inside its own span (the exact value in its title).
    const effects = [
      ...row.matchAll(/<span class="effect [a-z]+"[^>]*>((?:[^<]|<span[^>]*>[^<]*<\/span>)*)<\/span>/g),
    ].map((m) => (m[1] as string).replace(/<[^>]+>/g, '').replace(/&#x2B;|&#43;/g, '+'));
    shown.set(hash, effects);
  }
  t.ok(shown.size >= 10, `${shown.size} transactions on the page`);
  const rest = (await getJson(`${site}/api/v1/account/${account}/balance_changes?limit=1000`)).body as {
    changes: Change[];
  };
  let compared = 0;
  for (const [hash, effects] of shown) {
    const net = new Map<string, { currency: string; token: boolean; value: BigNumber }>();
    for (const c of rest.changes.filter((c) => c.hash === hash)) {
      const key = `${c.currency_hex} ${c.issuer}`;
      const value = (net.get(key)?.value ?? new BigNumber(0)).plus(c.value);
      net.set(key, { currency: c.currency, token: c.issuer !== null && c.issuer !== undefined, value });
    }
    const expected = [...net.values()]
      .filter((n) => !n.value.isZero())
      .map((n) => `${formatChange(n.value.toFixed(), n.token)} ${n.currency}`);
    t.same(effects, expected, hash);
    compared += 1;
  }
  t.comment(`${compared} transactions: the page's balance column equals the REST balance changes`);
});

t.test('the account page draws the balance chart; a bad asset is a 400', async (t) => {
  const target = await createTestIndices(t);
  await ingest(target, [...syntheticLedgers(fixtureLedgers(), { transactions: 3000, seed: 'balances' })]);
  const site = await serveSite(t, target);
  const docs = await readAllDocuments<{ account?: string; history_start?: boolean }>(
    target.client,
    indexName(target.naming, 'balance-changes'),
  );
  const account = docs.find((d) => typeof d.account === 'string' && d.history_start === true)?.account as string;
  const page = await fetch(`${site}/account/${account}`);
  t.equal(page.status, 200);
  const html = await page.text();
  t.match(html, /id="balance-h"/, 'the balance section');
  t.match(html, /<svg[^>]*>[\s\S]*XRP balance, end of each day/, 'an XRP balance chart');
  t.notMatch(html, /Not drawn:/);
  const bad = await fetch(`${site}/account/${account}?chart=not-an-asset`);
  t.equal(bad.status, 400);
});
