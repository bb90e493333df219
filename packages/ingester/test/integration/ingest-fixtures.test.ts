import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { createLogger, indexName, repoRoot, type IndexKind } from '@xle/core';
import { CheckpointStore, IngestEngine, LEDGER_KINDS, runPipeline } from '../../src/index.js';
import { createTestIndices, indexContent, listFixtureLedgers, readFixture, type TestIndices } from '@xle/test-helpers';
import { normalizeLedger, type LedgerInput } from '@xle/documents';

const KINDS: IndexKind[] = ['ledgers', 'transactions', 'objects', 'accounts'];
const ledgers: LedgerInput[] = listFixtureLedgers().map((file) => normalizeLedger(readFixture(file)));
const logger = createLogger('ingester-test', 'silent');

async function ingest(target: TestIndices, input: readonly LedgerInput[], batchLedgers = 10) {
  async function* source(): AsyncGenerator<LedgerInput> {
    yield* input;
  }
  const engine = new IngestEngine(target.client, target.naming, logger);
  const totals = await runPipeline(source(), engine, new CheckpointStore(engine, 'files'), { batchLedgers });
  await engine.refresh(LEDGER_KINDS);
  return totals;
}

async function contents(target: TestIndices): Promise<Record<string, { count: number; hash: string }>> {
  const result: Record<string, { count: number; hash: string }> = {};
  for (const kind of KINDS) result[kind] = await indexContent(target.client, indexName(target.naming, kind));
  return result;
}

t.test('every fixture ledger ingests; order and replays do not change the result', async (t) => {
  const forward = await createTestIndices(t);
  const totals = await ingest(forward, ledgers);
  t.equal(totals.deadLetters, 0, 'nothing refused');
  t.equal(totals.ledgers, 62, 'every file');
  t.equal(totals.checkpoint?.ledgers, 61, 'distinct ledgers (83258110 comes twice: binary and expanded)');
  const first = await contents(forward);
  t.equal(first.ledgers?.count, 61);
  t.equal(first.transactions?.count, 1236);
  t.ok((first.objects?.count ?? 0) > 4000, `${first.objects?.count} ledger objects`);
  t.ok((first.accounts?.count ?? 0) > 400, `${first.accounts?.count} accounts`);

  const replay = await ingest(forward, ledgers);
  t.equal(replay.deadLetters, 0);
  t.same(await contents(forward), first, 'ingesting everything again changes nothing');

  const backward = await createTestIndices(t);
  await ingest(backward, [...ledgers].reverse(), 7);
  t.same(await contents(backward), first, 'newest-first ingestion ends in exactly the same indices');

  const activated = await forward.client.search<Record<string, unknown>>({
    index: indexName(forward.naming, 'accounts'),
    query: { exists: { field: 'parent' } },
    size: 100,
  });
  t.ok(activated.hits.hits.length >= 10, 'activations recorded');
  for (const hit of activated.hits.hits)
    t.match(hit._source, { parent: /^r/, tx_hash: /^[0-9A-F]{64}$/, inception: /^\d{4}-/ });
});

t.test('killing the ingester at random moments and restarting gives the same indices', async (t) => {
  const reference = await createTestIndices(t);
  await ingest(reference, ledgers, 3);
  const expected = await contents(reference);

  const killed = await createTestIndices(t);
  const cli = `${repoRoot}packages/ingester/dist/src/cli.js`;
  const env = { ...process.env, ES_INDEX_PREFIX: killed.naming.prefix, LOG_LEVEL: 'silent' };
  const run = (killAfterMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> =>
    new Promise((resolve) => {
      const child = spawn(
        process.execPath,
        [cli, 'file', `${repoRoot}../shared/xrpl-fixtures/ledgers`, '--batch-ledgers', '3'],
        { env, stdio: 'ignore' },
      );
      if (killAfterMs !== undefined) void sleep(killAfterMs).then(() => child.kill('SIGKILL'));
      child.on('exit', (code, signal) => resolve({ code, signal }));
    });
  let kills = 0;
  for (const delay of [300 + Math.random() * 400, 700 + Math.random() * 500, 1000 + Math.random() * 800]) {
    const result = await run(delay);
    if (result.signal === 'SIGKILL') kills += 1;
  }
  t.ok(kills >= 2, `${kills} runs were killed mid-way`);
  const final = await run();
  t.equal(final.code, 0, 'the last run completes');
  t.same(await contents(killed), expected, 'same documents, same content as an uninterrupted run');
  const checkpoint = await new CheckpointStore(new IngestEngine(killed.client, killed.naming, logger), 'files').load();
  t.equal(checkpoint?.ledgers, 61);
});
