import t from 'tap';
import { indexName } from '@xle/core';
import { normalizeLedger, type Json } from '@xle/documents';
import {
  comparableDataSet,
  createTestIndices,
  exitOf,
  indexContent,
  listFixtureLedgers,
  makeTomlDir,
  readFixture,
  startIngestCli,
  startReplay,
  runIngestCli,
  syntheticLedgers,
  transactionLedgers,
  waitUntil,
  type TestIndices,
} from '@xle/test-helpers';
import { getJson, ingest, runAllJobs, serve } from '../fixtures/serve.js';

/**
 * The derived data sets say what they cover. A data set read up to ledger 94084608, and then older
 * ledgers indexed below it (as a backfill or a file ingest adds history under `live`), is behind:
 * /status and its answers say so until a jobs run has read them, whatever its as-of ledger says;
 * the next `pnpm ingest jobs` reads them and ends where a full run over the same index ends. With
 * `live` running and a backfill beneath it, the data sets catch up without anyone running the jobs.
 */
const LEDGER_JOBS = ['amendments', 'facts', 'metrics', 'balances', 'tokens'];
const DATA_SETS = ['amendments', 'facts', 'metrics', 'balances', 'tokens'] as const;
const tomlDir = makeTomlDir();
const NEWEST = 94084608;

const fixtures = listFixtureLedgers().map((file) => normalizeLedger(readFixture(file)));
const newest = fixtures.filter((l) => l.ledger_index === NEWEST);
// Older history: every other fixture ledger (new accounts, new trust lines), and real transactions
// no fixture ledger holds, each in a ledger of its own at its real index: amendments enabled, an
// AMM pool deposited into and withdrawn from.
const enabling = transactionLedgers((tx) => tx.TransactionType === 'EnableAmendment');
const amm = transactionLedgers((tx) => String(tx.TransactionType).startsWith('AMM'));
const older = [...fixtures.filter((l) => l.ledger_index < NEWEST), ...enabling, ...amm];

type DataSetStatus = { name: string; behind: boolean | null; unread_ledgers: number | null; as_of_ledger: number };

async function dataSets(base: string): Promise<Map<string, DataSetStatus>> {
  const status = (await getJson(`${base}/status`)).body as { networks: { data_sets: DataSetStatus[] }[] };
  return new Map((status.networks[0]?.data_sets ?? []).map((d) => [d.name, d]));
}

const contents = async (target: TestIndices): Promise<Record<string, unknown>> =>
  Object.fromEntries(
    await Promise.all(
      DATA_SETS.map(
        async (kind) =>
          [kind, await indexContent(target.client, indexName(target.naming, kind), comparableDataSet)] as const,
      ),
    ),
  );

t.test('history indexed below a data set makes it behind until a jobs run reads it', async (t) => {
  t.ok(enabling.length >= 3 && amm.length >= 1, `${enabling.length} EnableAmendment and ${amm.length} AMM ledgers`);
  const target = await createTestIndices(t);
  await ingest(target, newest);
  await runAllJobs(target, tomlDir);
  const base = await serve(t, target);
  for (const [name, set] of await dataSets(base))
    if (LEDGER_JOBS.includes(name)) t.match(set, { behind: false, unread_ledgers: 0, as_of_ledger: NEWEST }, name);
  const before = {
    amm: (await getJson(`${base}/fact/AMM`)).body as Record<string, string>,
    amendments: (await getJson(`${base}/amendments`)).body as Json[],
  };

  await ingest(target, older);
  const unread = new Set(older.map((l) => l.ledger_index)).size;
  await new Promise((resolve) => setTimeout(resolve, 2_100)); // the API's view of the checkpoints is kept 2 s
  for (const [name, set] of await dataSets(base))
    if (LEDGER_JOBS.includes(name))
      t.match(
        set,
        { behind: true, unread_ledgers: unread, as_of_ledger: NEWEST },
        `${name}: behind, its as-of unchanged`,
      );
  for (const path of ['/tokens', '/balances', '/fact/AMM', '/amendments', '/metrics/metric']) {
    const answer = await getJson(`${base}${path}`);
    t.equal(answer.headers.get('x-data-behind'), 'true', `${path} says it is behind`);
    t.equal(answer.headers.get('x-data-unread-ledgers'), String(unread), `${path}: ${unread} ledgers not read`);
    t.equal(answer.headers.get('x-data-as-of-ledger'), String(NEWEST));
  }
  // What a behind data set still says: the figures of its last run.
  t.same((await getJson(`${base}/fact/AMM`)).body, before.amm, 'the pools of its last run');
  const stale = (await getJson(`${base}/amendments`)).body as Json[];
  t.same(
    stale.map((a) => a.enabled),
    before.amendments.map((a) => a.enabled),
  );
  t.ok(
    stale.every((a) => (a.as_of as Json | undefined)?.behind === true),
    'each amendment’s as_of says so',
  );

  // The next jobs run reads what it had not: current again, equal to a full run over the same index.
  t.equal(await runIngestCli(['jobs'], { ES_INDEX_PREFIX: target.naming.prefix, TOML_DIR: tomlDir }), 0);
  await new Promise((resolve) => setTimeout(resolve, 5_100)); // the API keeps a run's record 5 s
  for (const [name, set] of await dataSets(base))
    if (LEDGER_JOBS.includes(name)) t.match(set, { behind: false, unread_ledgers: 0 }, `${name}: current again`);
  t.equal((await getJson(`${base}/tokens`)).headers.get('x-data-behind'), 'false');
  const objects = await target.client.count({
    index: indexName(target.naming, 'objects'),
    query: { term: { LedgerEntryType: 'AMM' } },
  });
  t.equal(
    Number(((await getJson(`${base}/fact/AMM`)).body as Record<string, string>).pools),
    objects.count,
    `fact/AMM counts the ${objects.count} pools indexed now`,
  );
  const enabledNow = ((await getJson(`${base}/amendments`)).body as Json[]).filter((a) =>
    enabling.some((l) => (l.transactions[0] as Json).Amendment === a.amendment_id && a.enabled === true),
  );
  t.ok(enabledNow.length >= 1, `${enabledNow.length} amendment enabled by an indexed EnableAmendment is shown enabled`);
  const incremental = await contents(target);
  t.equal(await runIngestCli(['jobs', '--full'], { ES_INDEX_PREFIX: target.naming.prefix, TOML_DIR: tomlDir }), 0);
  t.same(await contents(target), incremental, 'every data set equals a full run over the same index');
});

const cli = startIngestCli;

t.test('live keeps the data sets current with a backfill writing beneath it', async (t) => {
  const START = 70_000_000;
  const ledgers = [
    ...syntheticLedgers(fixtures, { transactions: 240, perLedger: 6, startLedger: START, seed: 'behind' }),
  ];
  const last = START + ledgers.length - 1;
  const mid = START + Math.floor(ledgers.length / 2);
  const server = await startReplay(t, ledgers, mid);
  const target = await createTestIndices(t);
  const base = await serve(t, target);
  const env = { ES_INDEX_PREFIX: target.naming.prefix, RIPPLED_URL: server.url, TOML_DIR: tomlDir };
  const current = async (): Promise<boolean> => {
    const sets = await dataSets(base);
    return LEDGER_JOBS.every((name) => sets.get(name)?.behind === false);
  };

  // live, running the jobs itself every second when they are behind.
  const live = cli(['live', '--from', String(mid - 5)], { ...env, XRPL_JOBS_INTERVAL_S: '1' });
  t.teardown(() => {
    live.kill('SIGKILL');
  });
  await waitUntil('live to compute every data set', current, 90_000, 500);
  // A backfill of everything below, in another process, while live runs.
  const backfill = cli(['backfill', '--from', String(START), '--to', String(mid - 6), '--chunk', '20'], env);
  t.equal((await exitOf(backfill)).code, 0, 'the backfill finished');
  for (let n = mid + 1; n <= last; n += 1) server.announce(n);
  await waitUntil(
    'live to bring the data sets up to the backfill and the tip',
    async () => {
      if (!(await current())) return false;
      const sets = await dataSets(base);
      return LEDGER_JOBS.every((name) => sets.get(name)?.as_of_ledger === last);
    },
    120_000,
    500,
  );
  const sets = await dataSets(base);
  for (const name of LEDGER_JOBS)
    t.match(
      sets.get(name),
      { behind: false, unread_ledgers: 0, as_of_ledger: last },
      `${name}: current, nobody ran the jobs`,
    );
  live.kill('SIGTERM');
  await exitOf(live);
});
