import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import BigNumber from 'bignumber.js';
import t from 'tap';
import { createLogger, indexName, repoRoot, type IndexKind } from '@xle/core';
import {
  AMM_TRANSACTION_TYPES,
  ingestLedgers,
  JOB_NAMES,
  normalizeLedger,
  readJobRun,
  runJob,
  XRP_BRACKETS,
  type JobName,
} from '../../src/index.js';
import {
  createTestIndices,
  indexContent,
  listFixtureLedgers,
  readAllDocuments,
  readFixture,
  type TestIndices,
} from '@xle/test-helpers';

type Json = Record<string, unknown>;
const logger = createLogger('jobs-test', 'silent');
const DATA_SETS: IndexKind[] = ['amendments', 'facts', 'metrics', 'balances'];
const ledgers = listFixtureLedgers().map((file) => normalizeLedger(readFixture(file)));

async function loaded(t: Parameters<typeof createTestIndices>[0]): Promise<TestIndices> {
  const target = await createTestIndices(t);
  await ingestLedgers(ledgers, { ...target, logger });
  return target;
}

async function runAll(target: TestIndices): Promise<void> {
  for (const name of JOB_NAMES) await runJob({ ...target, logger }, name);
}

async function contents(target: TestIndices): Promise<Record<string, { count: number; hash: string }>> {
  const out: Record<string, { count: number; hash: string }> = {};
  for (const kind of DATA_SETS) out[kind] = await indexContent(target.client, indexName(target.naming, kind));
  return out;
}

const xrpOf = (amount: unknown): BigNumber => new BigNumber((amount as { value?: string } | undefined)?.value ?? 0);
const drops6 = (n: BigNumber): string => n.decimalPlaces(6).toFixed();

t.test('on the fixture ledgers', async (t) => {
  const target = await loaded(t);
  t.equal(await readJobRun(target.client, target.naming, 'facts'), undefined, 'no run is recorded before the first');
  await runAll(target);
  const first = await contents(target);
  for (const kind of DATA_SETS) t.ok(first[kind]!.count > 0, `${kind} holds documents`);

  t.test('a second run gives the same indices', async (t) => {
    await runAll(target);
    t.same(await contents(target), first);
  });

  const [accounts, objects, transactions, ledgerDocs] = await Promise.all(
    (['accounts', 'objects', 'transactions', 'ledgers'] as const).map((kind) =>
      readAllDocuments<Json>(target.client, indexName(target.naming, kind)),
    ),
  );
  const liveAccounts = accounts!.filter((a) => a.deleted !== true);
  const liveObjects = objects!.filter((o) => o.deleted !== true);
  const facts = new Map(
    (
      await readAllDocuments<{ namespace: string; fact_id: string; value: string }>(
        target.client,
        indexName(target.naming, 'facts'),
      )
    ).map((f) => [`${f.namespace}.${f.fact_id}`, f.value]),
  );

  t.test('facts equal the same numbers computed from the documents', async (t) => {
    const byType = new Map<string, number>();
    for (const o of liveObjects)
      byType.set(o.LedgerEntryType as string, (byType.get(o.LedgerEntryType as string) ?? 0) + 1);
    t.ok(byType.size >= 8);
    for (const [type, count] of byType) t.equal(facts.get(`ObjectCount.${type}`), String(count), `ObjectCount.${type}`);

    t.equal(facts.get('XRP.accounts'), String(liveAccounts.length));
    t.equal(
      facts.get('XRP.in_accounts'),
      drops6(liveAccounts.reduce((s, a) => s.plus(xrpOf(a.Balance)), new BigNumber(0))),
    );
    XRP_BRACKETS.forEach((from, i) => {
      const to = XRP_BRACKETS[i + 1] ?? Infinity;
      const inside = liveAccounts.filter((a) => xrpOf(a.Balance).gte(from) && xrpOf(a.Balance).lt(to));
      const name = to === Infinity ? `${from}_plus` : `${from}_${to}`;
      t.equal(facts.get(`XRP.accounts_${name}`), String(inside.length), `accounts ${name}`);
      t.equal(
        facts.get(`XRP.balance_${name}`),
        drops6(inside.reduce((s, a) => s.plus(xrpOf(a.Balance)), new BigNumber(0))),
        `balance ${name}`,
      );
    });
    const ofType = (type: string): Json[] => liveObjects.filter((o) => o.LedgerEntryType === type);
    t.equal(
      facts.get('XRP.in_escrow'),
      drops6(ofType('Escrow').reduce((s, e) => s.plus(xrpOf(e.Amount)), new BigNumber(0))),
    );
    t.equal(
      facts.get('XRP.in_paychannels'),
      drops6(ofType('PayChannel').reduce((s, c) => s.plus(xrpOf(c.Amount)).minus(xrpOf(c.Balance)), new BigNumber(0))),
    );
    const newest = ledgerDocs!.reduce((a, b) => (Number(a.ledger_index) > Number(b.ledger_index) ? a : b));
    t.equal(facts.get('XRP.total_supply'), new BigNumber(newest.total_coins as string).shiftedBy(-6).toFixed());

    const amms = ofType('AMM');
    t.equal(facts.get('AMM.pools'), String(amms.length));
    t.equal(
      facts.get('AMM.pools_xrp'),
      String(amms.filter((a) => (a.Asset as Json).native === true || (a.Asset2 as Json).native === true).length),
    );
    t.equal(
      facts.get('AMM.xrp_locked'),
      drops6(
        liveAccounts.filter((a) => a.AMMID !== undefined).reduce((s, a) => s.plus(xrpOf(a.Balance)), new BigNumber(0)),
      ),
    );
    t.equal(
      facts.get('AMM.trading_fee_avg'),
      new BigNumber(amms.reduce((s, a) => s + Number(a.TradingFee ?? 0), 0))
        .div(amms.length)
        .decimalPlaces(2)
        .toFixed(),
    );
  });

  t.test('daily metrics equal the same counts computed from the documents', async (t) => {
    const metrics = await readAllDocuments<{ metric_id: string; date: string; values: Record<string, number> }>(
      target.client,
      indexName(target.naming, 'metrics'),
    );
    const get = (id: string, day: string): Record<string, number> | undefined =>
      metrics.find((m) => m.metric_id === id && m.date.startsWith(day))?.values;
    const days = new Map<string, Json[]>();
    for (const tx of transactions!) {
      const day = (tx._date as string).slice(0, 10);
      days.set(day, [...(days.get(day) ?? []), tx]);
    }
    t.ok(days.size > 5);
    for (const [day, txs] of days) {
      const count = (pick: (tx: Json) => string): Record<string, number> => {
        const out: Record<string, number> = {};
        for (const tx of txs) out[pick(tx)] = (out[pick(tx)] ?? 0) + 1;
        return out;
      };
      const types = count((tx) => tx.TransactionType as string);
      t.same(get('type', day), types, `types on ${day}`);
      t.same(
        get('result', day),
        count((tx) => (tx.meta as Json).TransactionResult as string),
        `results on ${day}`,
      );
      t.match(
        get('metric', day),
        { transaction_count: txs.length, payments_count: types.Payment ?? 0 },
        `counts on ${day}`,
      );
      t.equal(
        get('amm', day)?.total,
        AMM_TRANSACTION_TYPES.reduce((s, type) => s + (types[type] ?? 0), 0),
      );
    }
    const ledgersByDay = new Map<string, Json[]>();
    for (const l of ledgerDocs!) {
      const day = (l.close_time_human as string).slice(0, 10);
      ledgersByDay.set(day, [...(ledgersByDay.get(day) ?? []), l]);
    }
    for (const [day, list] of ledgersByDay) {
      const closes = list.map((l) => Number(l.close_time)).sort((a, b) => a - b);
      const txCount = list.reduce((s, l) => s + Number(l.tx_count), 0);
      t.match(
        get('metric', day),
        {
          ledger_count: list.length,
          tx_per_ledger: Math.round((txCount / list.length) * 1000) / 1000,
          ledger_interval:
            list.length < 2 ? 0 : Math.round(((closes.at(-1)! - closes[0]!) / (list.length - 1)) * 1000) / 1000,
        },
        `ledgers on ${day}`,
      );
    }
    const created = new Map<string, number>();
    for (const a of accounts!) {
      if (typeof a.inception !== 'string') continue;
      const day = a.inception.slice(0, 10);
      created.set(day, (created.get(day) ?? 0) + 1);
    }
    t.ok(created.size > 0);
    for (const [day, n] of created) t.equal(get('metric', day)?.accounts_created, n, `accounts created on ${day}`);
  });

  t.test('the rich list is every account, ranked by exact balance', async (t) => {
    const balances = await readAllDocuments<{ rank: number; account: string; balance: number }>(
      target.client,
      indexName(target.naming, 'balances'),
    );
    const expected = liveAccounts
      .map((a) => ({ account: a.Account as string, drops: xrpOf(a.Balance).shiftedBy(6) }))
      .sort((a, b) => b.drops.comparedTo(a.drops) || (a.account < b.account ? -1 : 1));
    t.same(
      balances.sort((a, b) => a.rank - b.rank).map((b) => [b.account, b.balance]),
      expected.map((e) => [e.account, e.drops.toNumber()]),
    );
  });

  t.test('jobs killed with SIGKILL at random moments, then run again, end in the same indices', async (t) => {
    const other = await loaded(t);
    const cli = join(repoRoot, 'packages/ingester/dist/src/cli.js');
    /**
     * Runs `ingest jobs`; with `killAtStep`, SIGKILLs it a few random milliseconds after its
     * n-th progress line (each job logs four steps), so every kill lands inside a job.
     */
    const run = (prefix: string, killAtStep?: number): Promise<number | null> =>
      new Promise((resolve, reject) => {
        const env = { ...process.env, ES_INDEX_PREFIX: prefix, LOG_LEVEL: 'info' };
        const child = spawn(process.execPath, [cli, 'jobs'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
        let steps = 0;
        createInterface({ input: child.stderr }).on('line', (line) => {
          if (!line.includes('"msg":"progress"')) return;
          steps += 1;
          if (steps === killAtStep) setTimeout(() => child.kill('SIGKILL'), Math.floor(Math.random() * 30));
        });
        child.on('error', reject);
        child.on('exit', (code) => resolve(code));
      });
    const killed: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const step = 1 + Math.floor(Math.random() * JOB_NAMES.length * 4);
      const code = await run(other.naming.prefix, step);
      const done: JobName[] = [];
      for (const name of JOB_NAMES)
        if ((await readJobRun(other.client, other.naming, name)) !== undefined) done.push(name);
      killed.push(`step ${step}: ${code === null ? 'killed' : `exited ${code}`}, ${done.length} jobs recorded`);
    }
    t.comment(killed.join('; '));
    t.ok(
      killed.some((k) => k.includes('killed')),
      'at least one run was killed before it ended',
    );
    t.equal(await run(other.naming.prefix), 0, 'an uninterrupted run completes');
    t.same(await contents(other), first);
  });
});
