import BigNumber from 'bignumber.js';
import t from 'tap';
import { createLogger, indexName, type IndexKind } from '@xle/core';
import {
  DEFAULT_SCORE_CONFIG,
  directoryTomlSource,
  IngestEngine,
  ingestLedgers,
  JOB_NAMES,
  type JobName,
  readJobRun,
  runJob,
} from '../../src/index.js';
import {
  createTestIndices,
  indexContent,
  makeTomlDir,
  TOML_FIXTURE,
  listFixtureLedgers,
  readAllDocuments,
  runIngestCli,
  readFixture,
  type TestIndices,
} from '@xle/test-helpers';
import { AMM_TRANSACTION_TYPES, type Json, normalizeLedger, XRP_BRACKETS } from '@xle/documents';

const logger = createLogger('jobs-test', 'silent');
const DATA_SETS: IndexKind[] = ['amendments', 'facts', 'metrics', 'balances', 'tokens'];
const tomlDir = makeTomlDir();
/** When a toml file was read is wall-clock time; everything else of a token is computed. */
const withoutFetchTime = (source: Json | undefined): unknown =>
  source?._toml === undefined ? source : { ...source, _toml: fetchTimesOmitted(source._toml as Json) };
const fetchTimesOmitted = (toml: Json): Json => ({
  ...toml,
  fetched_at: 'omitted',
  data_fetched_at: toml.data_fetched_at === null ? null : 'omitted',
});
const ledgers = listFixtureLedgers().map((file) => normalizeLedger(readFixture(file)));

async function loaded(t: Parameters<typeof createTestIndices>[0]): Promise<TestIndices> {
  const target = await createTestIndices(t);
  await ingestLedgers(ledgers, new IngestEngine(target.client, target.naming, logger));
  return target;
}

async function runAll(target: TestIndices): Promise<void> {
  const tokens = { toml: directoryTomlSource(tomlDir), tomlMaxAgeMs: 3600_000, score: DEFAULT_SCORE_CONFIG };
  for (const name of JOB_NAMES)
    await runJob({ engine: new IngestEngine(target.client, target.naming, logger) }, name, tokens);
}

async function contents(target: TestIndices): Promise<Record<string, { count: number; hash: string }>> {
  const out: Record<string, { count: number; hash: string }> = {};
  for (const kind of DATA_SETS)
    out[kind] = await indexContent(target.client, indexName(target.naming, kind), withoutFetchTime);
  return out;
}

const xrpOf = (amount: unknown): BigNumber => new BigNumber((amount as { value?: string } | undefined)?.value ?? 0);
const drops6 = (n: BigNumber): string => n.decimalPlaces(6).toFixed();

t.test('on the fixture ledgers', async (t) => {
  const target = await loaded(t);
  t.equal(
    await readJobRun(new IngestEngine(target.client, target.naming, logger), 'facts'),
    undefined,
    'no run is recorded before the first',
  );
  await runAll(target);
  const first = await contents(target);
  for (const kind of DATA_SETS) t.ok(first[kind]!.count > 0, `${kind} holds documents`);

  t.test('a second run gives the same indices', async (t) => {
    const tokensIndex = indexName(target.naming, 'tokens');
    const tokensBefore = await indexContent(target.client, tokensIndex);
    await runAll(target);
    t.same(await contents(target), first);
    t.same(
      await indexContent(target.client, tokensIndex),
      tokensBefore,
      'toml results are reused, fetch times included',
    );
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
    // The XRP of the XRP pools: each live AMM entry with an XRP side, its account's balance.
    const xrpPools = amms.filter((a) => (a.Asset as Json).native === true || (a.Asset2 as Json).native === true);
    const poolRoots = xrpPools.map((a) => liveAccounts.find((r) => r.Account === a.Account));
    t.equal(
      facts.get('AMM.xrp_locked'),
      poolRoots.reduce((s, r) => (r === undefined ? s : s.plus(xrpOf(r.Balance))), new BigNumber(0)).toFixed(),
    );
    t.equal(facts.get('AMM.xrp_pools_unindexed'), String(poolRoots.filter((r) => r === undefined).length));
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

  t.test('token numbers equal the same numbers computed from the documents', async (t) => {
    const tokens = new Map(
      (await readAllDocuments<Json>(target.client, indexName(target.naming, 'tokens'))).map((d) => [d.id as string, d]),
    );
    // Trust lines, read directly: the balance is the low account's; positive, it holds what the
    // high account issued; negative, the reverse; zero, each side with a positive limit trusts.
    const lines = new Map<string, { trustlines: number; holders: number; supply: BigNumber }>();
    const hexOf = (code: string): string =>
      code.length === 40
        ? code.toUpperCase()
        : Buffer.concat([Buffer.alloc(12), Buffer.from(code), Buffer.alloc(5)])
            .toString('hex')
            .toUpperCase();
    for (const o of liveObjects.filter((o) => o.LedgerEntryType === 'RippleState')) {
      const balance = o.Balance as Json;
      if ((balance.currency as string).startsWith('03')) continue;
      const low = (o.LowLimit as Json).issuer as string;
      const high = (o.HighLimit as Json).issuer as string;
      const value = new BigNumber(balance.value as string);
      const count = (issuer: string, held: BigNumber): void => {
        const id = `${hexOf(balance.currency as string)}.${issuer}`;
        const entry = lines.get(id) ?? { trustlines: 0, holders: 0, supply: new BigNumber(0) };
        entry.trustlines += 1;
        if (held.gt(0)) entry.holders += 1;
        entry.supply = entry.supply.plus(held);
        lines.set(id, entry);
      };
      if (value.gt(0)) count(high, value);
      else if (value.lt(0)) count(low, value.negated());
      else {
        if (new BigNumber((o.LowLimit as Json).value as string).gt(0)) count(high, value);
        if (new BigNumber((o.HighLimit as Json).value as string).gt(0)) count(low, value);
      }
    }
    t.ok(lines.size >= 20, `${lines.size} tokens have trust lines`);
    for (const [id, expected] of lines) {
      const token = tokens.get(id);
      t.ok(token, `token ${id}`);
      t.equal(token?.trustlines, expected.trustlines, `${id} trustlines`);
      t.equal(token?.holders, expected.holders, `${id} holders`);
      // Exact: the decimal sum of the lines' balances, to the last digit.
      t.equal((token?.metrics as Json | undefined)?.supply, expected.supply.toFixed(), `${id} supply, exact`);
      t.equal(token?.supply, expected.supply.toNumber(), `${id} supply, its nearest double`);
    }

    // Where each price comes from: an XRP pool holding the token, else an exchange against XRP,
    // else none (price and market cap 0), read from the state and the transactions directly.
    const inXrpPool = new Set<string>();
    for (const o of liveObjects.filter((o) => o.LedgerEntryType === 'AMM')) {
      const [a, b] = [o.Asset, o.Asset2] as Json[];
      const id = (x: Json | undefined): string | undefined =>
        x?.issuer === undefined ? undefined : `${hexOf(x.currency as string)}.${x.issuer as string}`;
      if ((a?.currency as string) === 'XRP' && id(b) !== undefined) inXrpPool.add(id(b) as string);
      if ((b?.currency as string) === 'XRP' && id(a) !== undefined) inXrpPool.add(id(a) as string);
    }
    const tradedAgainstXrp = new Set<string>();
    for (const tx of transactions ?? [])
      for (const e of (tx._exchanges as Json[] | undefined) ?? [])
        if (e.counter === 'XRP') tradedAgainstXrp.add(e.token as string);
    const sources = new Map<string, number>();
    for (const [id, token] of tokens) {
      const source = token.price_source as string | null;
      sources.set(String(source), (sources.get(String(source)) ?? 0) + 1);
      if (source === null) {
        t.ok(!inXrpPool.has(id) && !tradedAgainstXrp.has(id), `${id}: no pool, no trade, no price`);
        t.same([token.price, token.marketcap], [0, 0], `${id}: 0 where no price is known`);
      } else if (source === 'amm') t.ok(inXrpPool.has(id), `${id}: priced by an XRP pool that holds it`);
      else {
        t.equal(source, 'last_trade');
        t.ok(tradedAgainstXrp.has(id), `${id}: priced by an exchange against XRP`);
      }
    }
    t.ok((sources.get('amm') ?? 0) > 0 && (sources.get('null') ?? 0) > 0, JSON.stringify([...sources]));

    // Exchanges in the windows ending at the newest ledger, read from the transactions.
    const end = Date.parse(
      ledgerDocs!.reduce((a, b) => (Number(a.ledger_index) > Number(b.ledger_index) ? a : b))
        .close_time_human as string,
    );
    let seen = 0;
    for (const [window, seconds] of [
      ['24h', 86_400],
      ['7d', 604_800],
    ] as const) {
      const stats = new Map<string, { exchanges: number; takers: Set<string>; xrp: BigNumber; other: BigNumber }>();
      for (const tx of transactions!) {
        const at = Date.parse(tx._date as string);
        if (!(at > end - seconds * 1000 && at <= end)) continue;
        for (const x of (tx._exchanges as Json[] | undefined) ?? []) {
          const entry = stats.get(x.token as string) ?? {
            exchanges: 0,
            takers: new Set(),
            xrp: new BigNumber(0),
            other: new BigNumber(0),
          };
          entry.exchanges += 1;
          entry.takers.add(x.taker as string);
          if (x.counter === 'XRP') entry.xrp = entry.xrp.plus(x.counter_value as string);
          else entry.other = entry.other.plus(x.value as string);
          stats.set(x.token as string, entry);
        }
      }
      for (const [id, expected] of stats) {
        if (id === 'XRP') continue;
        const metrics = tokens.get(id)?.metrics as Json | undefined;
        seen += 1;
        t.equal(metrics?.[`exchanges_${window}`], expected.exchanges, `${id} exchanges ${window}`);
        t.equal(metrics?.[`takers_${window}`], expected.takers.size, `${id} takers ${window}`);
        const volume = expected.xrp.plus(expected.other.times(tokens.get(id)?.price as number));
        t.ok(
          new BigNumber(metrics?.[`volume_${window}`] as string).minus(volume).abs().lte(volume.times(1e-12)),
          `${id} volume ${window}: ${metrics?.[`volume_${window}`]} ≈ ${volume.toFixed()}`,
        );
      }
    }
    t.ok(seen >= 5, `${seen} token windows with exchanges checked`);

    const fox = tokens.get(`${hexOf(TOML_FIXTURE.listed.code)}.${TOML_FIXTURE.listed.issuer}`);
    t.match(fox, {
      meta: { token: { name: 'Ripple Fox CNY', trust_level: 2 }, issuer: { name: 'Ripple Fox', trust_level: 1 } },
      _toml: { domain: TOML_FIXTURE.listed.domain, outcome: 'ok' },
      tomldata: { METADATA: { modified: '2024-05-01T00:00:00.000Z' } },
    });
    const malformed = [...tokens.values()].find((d) => (d._toml as Json).domain === TOML_FIXTURE.malformed.domain);
    t.match(malformed, {
      _toml: { outcome: 'invalid', reason: /malformed TOML/ },
      meta: { token: { trust_level: 0 } },
    });
    t.notOk(malformed && 'tomldata' in malformed, 'a malformed file gives no tomldata');
    const scores = [...tokens.values()].map((d) => d.score as number);
    t.ok(scores.every((s) => s >= 0 && s <= 1) && new Set(scores).size > 10, 'scores spread over [0, 1]');
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
    /** `ingest jobs`, killed a few random milliseconds after its n-th progress line (each job logs four). */
    const run = (prefix: string, killAtStep?: number): Promise<number | null> =>
      runIngestCli(['jobs'], { ES_INDEX_PREFIX: prefix, TOML_DIR: tomlDir }, killAtStep);
    const killed: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const step = 1 + Math.floor(Math.random() * JOB_NAMES.length * 4);
      const code = await run(other.naming.prefix, step);
      const done: JobName[] = [];
      for (const name of JOB_NAMES)
        if ((await readJobRun(new IngestEngine(other.client, other.naming, logger), name)) !== undefined)
          done.push(name);
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
