import { execFileSync, spawn } from 'node:child_process';
import t from 'tap';
import { indexName, repoRoot } from '@xle/core';
import { normalizeLedger, type Json, type LedgerInput } from '@xle/documents';
import {
  createTestIndices,
  listFixtureLedgers,
  readAllDocuments,
  readFixture,
  startReplay,
  syntheticLedgers,
  exitOf,
  waitUntil,
} from '@xle/test-helpers';

/**
 * `pnpm ingest live`, started as the README starts it, stopped as a supervisor stops it: SIGTERM to
 * the pid it started (the package manager's). The ingester must end with it (no process left
 * behind, so a restart cannot make two live ingesters), and its checkpoint must name a ledger up to
 * which every ledger is indexed.
 */
const START = 61_000_000;
const templates = listFixtureLedgers().map((file) => normalizeLedger(readFixture(file)));
const ledgers: LedgerInput[] = [
  ...syntheticLedgers(templates, {
    transactions: 200,
    perLedger: 5,
    startLedger: START,
    accounts: 40,
    seed: 'signals',
  }),
];
const LAST = START + ledgers.length - 1;

/** Processes running the ingester's `live` from this test's first ledger (its command line names it). */
function ingesters(): string[] {
  const table = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return table
    .split('\n')
    .filter((line) => line.includes('packages/ingester/dist/src/cli.js') && line.includes(`--from ${START}`));
}

t.test('SIGTERM to the pid `pnpm ingest live` started ends the ingester, its checkpoint consistent', async (t) => {
  const server = await startReplay(t, ledgers, LAST);
  const target = await createTestIndices(t);

  // The README's command, through the package manager, as a shell or a supervisor runs it.
  const startLive = (): ReturnType<typeof spawn> =>
    spawn('pnpm', ['-s', 'ingest', 'live', '--from', String(START)], {
      cwd: repoRoot,
      env: {
        ...process.env,
        ES_INDEX_PREFIX: target.naming.prefix,
        XLE_NETWORK: target.config.network,
        RIPPLED_URL: server.url,
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  const live = startLive();
  let stderr = '';
  live.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  t.teardown(() => {
    for (const line of ingesters()) process.kill(Number(line.trim().split(/\s+/)[0]), 'SIGKILL');
  });
  const checkpoint = async (): Promise<Json | undefined> => {
    const found = await target.client.get<Json>(
      { index: indexName(target.naming, 'ingest-state'), id: 'rippled' },
      { ignore: [404] },
    );
    return found.found ? found._source : undefined;
  };
  // Stopped in the middle of its work: once it has recorded a few ledgers, not all of them.
  await waitUntil(
    'live to record its first ledgers',
    async () => Number((await checkpoint())?.last_ledger ?? 0) >= START + 2,
  );
  t.equal(ingesters().length, 1, 'one ingester process, below the package manager');
  live.kill('SIGTERM');
  const exit = await exitOf(live);
  t.ok(exit.code === 0 || exit.signal === 'SIGTERM', `the package manager ended (${JSON.stringify(exit)}) ${stderr}`);
  await waitUntil('no ingester left', async () => ingesters().length === 0, 20_000);
  t.same(ingesters(), [], 'no ingester process left behind');

  const recorded = Number((await checkpoint())?.last_ledger);
  await target.client.indices.refresh({ index: `${target.naming.prefix}-*` });
  const indexed = new Set(
    (await readAllDocuments<{ ledger_index: number }>(target.client, indexName(target.naming, 'ledgers'))).map(
      (l) => l.ledger_index,
    ),
  );
  const missing = [];
  for (let n = START; n <= recorded; n += 1) if (!indexed.has(n)) missing.push(n);
  t.same(missing, [], `every ledger up to the checkpoint (${recorded}) is indexed`);
  t.ok(recorded >= START + 2 && recorded <= LAST, `the checkpoint is a ledger it wrote (${recorded})`);

  // A restart resumes after the checkpoint and reaches the tip: nothing lost.
  const again = startLive();
  await waitUntil('the restart to reach the tip', async () => Number((await checkpoint())?.last_ledger ?? 0) === LAST);
  again.kill('SIGINT');
  await exitOf(again);
  await waitUntil('no ingester left after SIGINT', async () => ingesters().length === 0, 20_000);
  t.same(ingesters(), [], 'SIGINT ends it too');
});
