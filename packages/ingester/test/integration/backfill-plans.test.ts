import t from 'tap';
import { createEngineClient, createLogger, deleteTemplatesAndIndices, namingOf } from '@xle/core';
import { chunksOf, IngestEngine, LeaseStore, runBackfillWorker, type ChunkLease } from '../../src/index.js';
import { createTestIndices, testConfig } from '@xle/test-helpers';
import { LAST, ledgers, range, replaying, runCli, START } from '../fixtures/backfill.js';

// Backfill plans that cannot hurt the cluster: checked against the source before anything is
// written, listed, cancelled.

const logger = createLogger('backfill-plans-test', 'silent');

t.test('a backfill beyond what the source holds is refused before anything is written', async (t) => {
  const server = await replaying(t);
  const config = testConfig();
  const client = createEngineClient(config);
  const naming = namingOf(config);
  t.teardown(async () => {
    await deleteTemplatesAndIndices(client, naming);
    await client.close();
  });
  const indices = async () =>
    Object.keys(await client.indices.get({ index: `${naming.prefix}-*`, expand_wildcards: 'all' }));
  const env = { ES_INDEX_PREFIX: naming.prefix, RIPPLED_URL: server.url };
  t.same(await indices(), [], 'nothing under the prefix before');
  const far = await runCli(['backfill', '--from', '40000', '--to', '99999999999', '--workers', '4'], env);
  t.equal(far.code, 1, 'refused as bad input');
  t.match(far.out, `99999999999 is beyond the source's newest validated ledger ${LAST}`);
  t.match(far.out, `has ledgers 32570-${LAST}`);
  server.completeLedgers = `${START}-${LAST}`;
  const old = await runCli(['backfill', '--from', String(START - 100), '--to', String(LAST)], env);
  t.equal(old.code, 1);
  t.match(old.out, `lacks ${START - 100}-${START - 1}`);
  t.same(await indices(), [], 'no index (and so no plan document) after');
});

t.test('backfill --list shows the plans; --cancel removes a plan and every chunk of it', async (t) => {
  const target = await createTestIndices(t);
  const engine = new IngestEngine(target.client, target.naming, logger);
  const store = new LeaseStore(engine, 'rippled');
  const plan = { from: START, to: LAST };
  const shared = { from: START, to: START + 39 };
  await store.recordPlan(plan, 20);
  await store.recordPlan(shared, 20);
  const chunks = chunksOf(plan, 20);
  for (const chunk of chunks.slice(0, 3)) {
    const held = await store.claim(chunk, 'w', 60_000, { chunk: 20 });
    if (typeof held === 'object') await store.complete(held);
  }
  await store.claim(chunks[3] ?? plan, 'w', 60_000, { chunk: 20 });
  // A typo's plan: status and --list stay quick whatever its size.
  await store.recordPlan({ from: 40000, to: 99_999_999_999 }, 10_000);
  await engine.refresh(['ingest-state']);
  const env = { ES_INDEX_PREFIX: target.naming.prefix };
  const started = Date.now();
  const listed = await runCli(['backfill', '--list'], env);
  t.equal(listed.code, 0);
  t.match(listed.out, `${START}-${LAST} (chunks of 20): ${chunks.length} chunks: 3 done, 0 done with gaps`);
  t.match(listed.out, `1 leased, 0 expired (to be taken over), ${chunks.length - 4} pending`);
  t.match(listed.out, `${START}-${START + 39} (chunks of 20): 2 chunks: 2 done`);
  t.match(listed.out, '40000-99999999999 (chunks of 10000): 9999996 chunks: 0 done');
  t.ok(Date.now() - started < 10_000, `listed in ${Date.now() - started} ms`);

  const cancelled = await runCli(['backfill', '--cancel', `${START}-${LAST}`], env);
  t.equal(cancelled.code, 0, cancelled.out);
  t.match(cancelled.out, `cancelled backfill ${START}-${LAST}: 2 chunk documents removed`);
  t.match(cancelled.out, '1 of them were being worked');
  const left = await engine.search<ChunkLease>('ingest-state', {
    size: 100,
    query: { term: { kind: 'chunk' } },
    sort: [{ from: 'asc' }],
  });
  t.same(
    left.hits.hits.map((h) => [h._source?.from, h._source?.to]),
    [
      [START, START + 19],
      [START + 20, START + 39],
    ],
    'only the chunks the remaining plan shares are left',
  );
  t.same(
    (await store.plans()).map((p) => `${p.from}-${p.to}`),
    [`${START}-${START + 39}`, '40000-99999999999'],
  );
  await runCli(['backfill', '--cancel', `${START}-${START + 39}`], env);
  const none = await engine.search<ChunkLease>('ingest-state', { size: 0, query: { term: { kind: 'chunk' } } });
  t.match(none.hits.total, { value: 0 }, 'a cancelled plan leaves no chunk behind');
  const unknown = await runCli(['backfill', '--cancel', '1-2'], env);
  t.equal(unknown.code, 1);
  t.match(unknown.out, 'no backfill plan 1-2; recorded: 40000-99999999999');
  t.equal((await runCli(['backfill', '--cancel', 'x'], env)).code, 64, 'a malformed name is a usage error');
});

t.test('a plan cancelled while a worker runs: the worker stops and no chunk is left', async (t) => {
  const target = await createTestIndices(t);
  const engine = new IngestEngine(target.client, target.naming, logger);
  const store = new LeaseStore(engine, 'rippled');
  let cancelling: Promise<unknown> | undefined;
  const totals = await runBackfillWorker({
    engine,
    logger,
    source: 'rippled',
    owner: 'w',
    range: { from: START, to: LAST },
    chunkLedgers: 10,
    leaseMs: 600,
    ledgers: (from, to) => range(from, to, 20),
    networkId: 0,
    onProgress: () => {
      cancelling ??= store.cancel(`${START}-${LAST}`);
    },
  });
  t.match(await cancelling, { plans: 1 });
  t.match(totals, { cancelled: true, finished: false });
  t.ok(totals.ledgers < ledgers.length, `stopped after ${totals.ledgers} ledgers`);
  await engine.refresh(['ingest-state']);
  const left = await engine.search<ChunkLease>('ingest-state', { size: 0, query: { term: { kind: 'chunk' } } });
  t.match(left.hits.total, { value: 0 }, 'no chunk document left');
  t.same(await store.plans(), []);
});
