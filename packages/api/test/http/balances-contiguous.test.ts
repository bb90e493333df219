import BigNumber from 'bignumber.js';
import t from 'tap';
import { indexName } from '@xle/core';
import { createTestIndices, readAllDocuments, syntheticLedgers } from '@xle/test-helpers';
import { fixtureLedgers, getJson, ingest, serve } from '../fixtures/serve.js';

/**
 * Balances on a history without gaps (synthetic ledgers made from the real fixtures, consecutive
 * from their first): an account created there has every balance known from its creation on, at
 * the newest ledger too (its page's chart: the site's balance-pages test).
 */
const target = await createTestIndices(t);
const ledgers = [...syntheticLedgers(fixtureLedgers(), { transactions: 3000, seed: 'balances' })];
await ingest(target, ledgers);
const base = await serve(t, target);

type Doc = {
  account: string;
  currency_hex: string;
  issuer?: string;
  balance: string;
  ledger_index: number;
  transaction_index: number;
  position: number;
  history_start?: boolean;
};
const docs = (await readAllDocuments<Doc>(target.client, indexName(target.naming, 'balance-changes'))).filter(
  (d) => typeof d.account === 'string',
);
const order = (d: Doc): number => d.ledger_index * 1e7 + d.transaction_index * 100 + d.position;
const created = [...new Set(docs.filter((d) => d.history_start === true).map((d) => d.account))];
const newest = (ledgers.at(-1) as { ledger_index: number }).ledger_index;

t.test('an account created in the history: every balance at the newest ledger, as its last changes say', async (t) => {
  t.ok(created.length >= 20, `${created.length} accounts created in the synthetic history`);
  let compared = 0;
  for (const account of created.slice(0, 40)) {
    const { status, body } = await getJson(`${base}/account/${account}/balances`);
    t.equal(status, 200, account);
    const answer = body as {
      ledger_index: number;
      complete_from_ledger: number;
      balances: Array<{ currency_hex: string; issuer: string | null; value: string }>;
    };
    t.equal(answer.ledger_index, newest);
    const start = docs
      .filter((d) => d.account === account && d.history_start === true)
      .sort((a, b) => order(b) - order(a))[0];
    t.equal(answer.complete_from_ledger, start?.ledger_index, 'complete from its creation');
    // Plain computation: the newest change of each asset.
    const last = new Map<string, Doc>();
    for (const d of docs.filter((d) => d.account === account).sort((a, b) => order(a) - order(b)))
      last.set(`${d.currency_hex} ${d.issuer ?? ''}`, d);
    const expected = [...last.values()]
      .filter((d) => d.currency_hex === 'XRP' || !new BigNumber(d.balance).isZero())
      .map((d) => `${d.currency_hex} ${d.issuer ?? ''} ${d.balance}`)
      .sort();
    t.same(answer.balances.map((b) => `${b.currency_hex} ${b.issuer ?? ''} ${b.value}`).sort(), expected, account);
    compared += 1;
  }
  t.comment(`${compared} accounts: balances at the newest ledger equal their newest changes`);
});

t.test('balance_history from before an account was created: zero until then, its balances after', async (t) => {
  const first = ledgers[0] as { close_time: number };
  const account = created.find((a) => {
    const start = docs.find((d) => d.account === a && d.history_start === true);
    return start !== undefined && start.ledger_index > (ledgers[5] as { ledger_index: number }).ledger_index;
  }) as string;
  t.ok(account, 'an account created after the first ledgers');
  const from = new Date((first.close_time + 946684800) * 1000).toISOString();
  const { status, body } = await getJson(`${base}/account/${account}/balance_history?interval=day&from=${from}`);
  t.equal(status, 200, JSON.stringify(body).slice(0, 300));
  const answer = body as { points: Array<{ date: string; balance: string }>; complete_from_ledger: number };
  const xrp = docs
    .filter((d) => d.account === account && d.currency_hex === 'XRP')
    .sort((a, b) => order(a) - order(b))
    .at(-1) as Doc;
  t.equal(answer.points.at(-1)?.balance, xrp.balance, 'the last point is its newest XRP balance');
  // Synthetic ledgers close 4 s apart: the whole history is within a day or two.
  t.ok(answer.points.length >= 1 && answer.points.length <= 3);
  const balances = await getJson(
    `${base}/account/${account}/balances?ledger=${(ledgers[0] as { ledger_index: number }).ledger_index}`,
  );
  t.equal(
    balances.status,
    422,
    'before its creation, with nothing indexed of it: not known (its history has not started)',
  );
});

t.test(
  'balance_history: by default from where the history starts; from before the first ledger, not known',
  async (t) => {
    const account = created[0] as string;
    const history = await getJson(`${base}/account/${account}/balance_history?interval=day`);
    t.equal(history.status, 200, 'by default from where its history starts (within the year)');
    const early = await getJson(`${base}/account/${account}/balance_history?interval=month&from=2001-01-01T00:00:00Z`);
    t.equal(early.status, 422, 'from before the first indexed ledger: not known');
  },
);
