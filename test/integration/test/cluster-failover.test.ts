import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { createEngineClient, createLogger, indexName, layoutOf, loadConfig, repoRoot, type Config } from '@xle/core';
import { startServer } from '@xle/api';
import { normalizeLedger } from '@xle/documents';
import { clusterFromConfig, killNode, startCluster, stopCluster } from '@xle/engine';
import { CheckpointStore, IngestEngine, ingestLedgers } from '@xle/ingester';
import { indexContent, listFixtureLedgers, readFixture, ReplayRippled, syntheticLedgers } from '@xle/test-helpers';

/**
 * A real three-node cluster (its own ports and data folder) with one replica of every shard loses
 * its elected master to SIGKILL in the middle of a two-worker backfill and of a stream of API
 * reads. Reads answer the right thing, or 503 with Retry-After, or 504 ENGINE_TIMEOUT (a request
 * that reached the node as it died, on a loaded machine), never a wrong or partial 200; the
 * backfill completes; its indices equal an uninterrupted run's.
 */
const PORT = Number(process.env.TEST_CLUSTER_PORT ?? 9281);
const urls = [0, 1, 2].map((i) => `http://127.0.0.1:${PORT + i}`);
// A fixed folder per port: a run killed half-way (its teardown never ran) leaves pid files there,
// and the next run stops those nodes before starting its own.
const dataDir = join(tmpdir(), `xle-failover-${PORT}`);
const logger = createLogger('failover-test', 'silent');
const START = 60_000_000;
const KINDS = ['ledgers', 'transactions', 'objects', 'accounts'] as const;

function configFor(prefix: string): Config {
  return loadConfig({
    overrides: {
      engine: { port: PORT, transportPort: PORT + 100, dataDir, heap: '384m', nodes: 3 },
      es: { url: urls.join(','), indexPrefix: prefix, shards: 2, stateShards: 2, replicas: 1 },
      api: { port: 0 },
      access: { mode: 'open', search: 'open' },
      log: { level: 'silent' },
    },
  });
}

const templates = listFixtureLedgers().map((file) => normalizeLedger(readFixture(file)));
const set = syntheticLedgers(templates, { transactions: 1200, perLedger: 12, startLedger: START, accounts: 200 });
const ledgers = [...set];
const LAST = START + ledgers.length - 1;

// Forming a cluster, two runs, a failover and a recovery take longer than one test file's default.
t.setTimeout(600_000);
const cluster = clusterFromConfig(configFor('unused'));
await stopCluster(cluster, 5000);
rmSync(dataDir, { recursive: true, force: true });
t.teardown(async () => {
  await stopCluster(cluster);
  // XLE_KEEP_TEST_DATA=1 keeps the nodes' logs and data for a look after a failure.
  if (process.env.XLE_KEEP_TEST_DATA === undefined) rmSync(dataDir, { recursive: true, force: true });
});

t.test('node loss in the middle of a parallel backfill and of API reads', async (t) => {
  const began = Date.now();
  const phase = (what: string): void => t.comment(`${what} after ${((Date.now() - began) / 1000).toFixed(1)} s`);
  await startCluster(cluster);
  phase('cluster formed');

  // The reference: the same ledgers, one uninterrupted run.
  const reference = configFor('reference');
  const referenceClient = createEngineClient(reference);
  t.teardown(() => referenceClient.close());
  const referenceEngine = new IngestEngine(
    referenceClient,
    { prefix: 'reference', network: 'mainnet' },
    logger,
    layoutOf(reference),
  );
  await referenceEngine.applyTemplates();
  await ingestLedgers(ledgers, referenceEngine);
  await referenceClient.cluster.health({ wait_for_status: 'green', timeout: '60s' });
  phase('reference indexed');

  // What the API answers on the reference before anything fails.
  const api = await startServer(reference, logger);
  t.teardown(() => api.close());
  const hashes = ledgers.flatMap((l) => l.transactions.map((tx) => String(tx.hash))).filter((_, i) => i % 97 === 0);
  const paths = [
    ...hashes.map((h) => `/api/v1/tx/${h}`),
    `/api/v1/account/${set.heavyAccount}`,
    `/api/v1/account/${set.heavyAccount}/transactions?limit=20`,
    `/api/v1/ledger/${START + 50}`,
    `/api/v1/ledger/${START + 50}/transactions`,
  ];
  const expected = new Map<string, string>();
  for (const path of paths) {
    const answer = await fetch(`${api.url}${path}`);
    t.equal(answer.status, 200, `${path} answers before the failure`);
    expected.set(path, await answer.text());
  }

  // Reads, continuously, until told to stop.
  const reads = { ok: 0, unavailable: 0, timedOut: 0, wrong: [] as string[] };
  let reading = true;
  const reader = (async () => {
    for (let i = 0; reading; i += 1) {
      const path = paths[i % paths.length] as string;
      const answer = await fetch(`${api.url}${path}`).catch((error: unknown) => ({ status: 0, error }) as const);
      if (!('headers' in answer)) {
        reads.wrong.push(`${path}: no answer`);
        continue;
      }
      const body = await answer.text();
      if (answer.status === 200 && body === expected.get(path)) reads.ok += 1;
      else if (answer.status === 503 && answer.headers.get('retry-after') !== null) reads.unavailable += 1;
      else if (answer.status === 504 && body.includes('"ENGINE_TIMEOUT"')) reads.timedOut += 1;
      else reads.wrong.push(`${path}: ${answer.status} ${body.slice(0, 200)}`);
      await sleep(10); // a steady stream, not a flood that starves the cluster of CPU
    }
  })();

  // Two backfill workers, each a process of its own, on the replayed ledgers.
  const server = new ReplayRippled();
  for (const ledger of ledgers) server.addLedger(ledger as unknown as Record<string, unknown>);
  server.validated = LAST;
  server.ledgerDelayMs = 15;
  await server.start();
  t.teardown(() => server.stop());
  const env = {
    ...process.env,
    ES_URL: urls.join(','),
    ES_INDEX_PREFIX: 'backfilled',
    ES_SHARDS: '2',
    ES_STATE_SHARDS: '2',
    ES_REPLICAS: '1',
    RIPPLED_URL: server.url,
    LOG_LEVEL: 'warn',
  };
  // The backfill's indices exist, each shard with its replica started, before anything fails: a
  // node lost while a new index's replica is still being copied takes that shard with it.
  const backfilled = configFor('backfilled');
  const client = createEngineClient(backfilled);
  t.teardown(() => client.close());
  const target = new IngestEngine(client, { prefix: 'backfilled', network: 'mainnet' }, logger, layoutOf(backfilled));
  await target.applyTemplates();
  await target.ensureRangesBetween(['ledgers', 'transactions'], START, LAST);
  await client.cluster.health({ index: 'backfilled-*', wait_for_status: 'green', timeout: '120s' });
  const cli = `${repoRoot}packages/ingester/dist/src/cli.js`;
  const worker = (name: string) =>
    new Promise<{ code: number | null; out: string }>((resolve) => {
      const args = ['backfill', '--from', String(START), '--to', String(LAST), '--chunk', '10'];
      const child = spawn(process.execPath, [cli, ...args, '--lease-seconds', '5', '--name', name], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.on('exit', (code) => resolve({ code, out }));
    });
  const workers = [worker('a'), worker('b')];
  phase('workers started');

  // Once a third of the range is in, SIGKILL the elected master.
  const progress = new CheckpointStore(target, 'rippled');
  let before = 0;
  for (let i = 0; i < 1200 && before < ledgers.length / 3; i += 1) {
    before = (await progress.load().catch(() => undefined))?.ledgers ?? 0;
    if (before < ledgers.length / 3) await sleep(100);
  }
  t.ok(
    before >= ledgers.length / 3 && before < ledgers.length,
    `${before} of ${ledgers.length} ledgers in at the kill`,
  );
  const master = ((await client.cat.master({ format: 'json' })) as { node?: string }[])[0]?.node;
  const victim = cluster.nodes.find((n) => n.nodeName === master);
  t.ok(victim, `the elected master is ${master}`);
  const readsBefore = reads.ok;
  if (victim !== undefined) await killNode(victim);
  const killedAt = Date.now();

  phase('master killed');
  const results = await Promise.all(workers);
  phase('backfill done');
  for (const [i, result] of results.entries()) {
    t.equal(result.code, 0, `worker ${i + 1} completes: ${result.out.trim().split('\n').at(-1)}`);
    if (result.code !== 0) t.comment(result.out);
  }
  await sleep(1000);
  reading = false;
  await reader;
  t.ok(reads.ok > readsBefore, `${reads.ok - readsBefore} right answers after the kill (${reads.ok} in all)`);
  t.same(reads.wrong, [], 'no wrong or partial answer, no unanswered request');
  t.comment(
    `${reads.unavailable} answers were 503 with Retry-After, ${reads.timedOut} 504 ENGINE_TIMEOUT; backfill done ${Date.now() - killedAt} ms after the kill`,
  );

  // The indices the interrupted backfill made equal the uninterrupted run's.
  for (const kind of KINDS)
    t.same(
      await indexContent(client, indexName({ prefix: 'backfilled', network: 'mainnet' }, kind)),
      await indexContent(referenceClient, indexName({ prefix: 'reference', network: 'mainnet' }, kind)),
      `${kind}: same count and content hash`,
    );
  const checkpoint = await progress.load();
  t.same(checkpoint?.ranges, [{ from: START, to: LAST }], 'every ledger, once, no gap');

  phase('contents compared');
  // The lost node comes back and the cluster returns to green.
  const back = await startCluster(cluster);
  t.equal(back.joined, 3);
  let status: string | undefined;
  for (let i = 0; i < 120 && status !== 'green'; i += 1) {
    status = await client.cluster.health({ wait_for_status: 'green', timeout: '1s' }, { requestTimeout: 5000 }).then(
      (h) => h.status,
      () => undefined,
    );
    if (status !== 'green') await sleep(1000);
  }
  t.equal(status, 'green');
  phase('green again');
});
