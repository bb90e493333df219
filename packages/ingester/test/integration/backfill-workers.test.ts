import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { createLogger, indexName, repoRoot } from '@xle/core';
import {
  CheckpointStore,
  chunksOf,
  IngestEngine,
  ingestLedgers,
  LeaseStore,
  runBackfillWorker,
  runPipeline,
  type ChunkLease,
} from '../../src/index.js';
import { createTestIndices, ReplayRippled } from '@xle/test-helpers';
import { LAST, ledgers, moreLedgers, range, sameContent, START } from '../fixtures/backfill.js';

const logger = createLogger('backfill-workers-test', 'silent');

const reference = await createTestIndices(t);
await ingestLedgers(ledgers, new IngestEngine(reference.client, reference.naming, logger), { source: 'rippled' });

t.test('two workers share a range by leasing chunks: every ledger once, the same indices as one run', async (t) => {
  const target = await createTestIndices(t);
  const engine = new IngestEngine(target.client, target.naming, logger);
  const worker = (owner: string) =>
    runBackfillWorker({
      engine,
      logger,
      source: 'rippled',
      owner,
      range: { from: START, to: LAST },
      chunkLedgers: 10,
      leaseMs: 10_000,
      ledgers: (from, to) => range(from, to, 2),
      networkId: 0,
      backfillRefresh: '30s',
    });
  // `live` following ledgers above the range at the same time, under the same checkpoint.
  const above = [...moreLedgers({ transactions: 60, perLedger: 10, startLedger: LAST + 1000, seed: 'live' })];
  const [a, b] = await Promise.all([
    worker('a'),
    worker('b'),
    runPipeline(
      (async function* () {
        for (const l of above) {
          await sleep(5);
          yield l;
        }
      })(),
      engine,
      new CheckpointStore(engine, 'rippled'),
      { batchLedgers: 1 },
    ),
  ]);
  const chunks = chunksOf({ from: START, to: LAST }, 10).length;
  t.ok(a && b);
  t.equal(
    (a?.chunks ?? 0) + (b?.chunks ?? 0),
    chunks,
    `${chunks} chunks, each done once (a: ${a?.chunks}, b: ${b?.chunks})`,
  );
  t.ok((a?.chunks ?? 0) > 0 && (b?.chunks ?? 0) > 0, 'both workers did some');
  t.equal(a?.finished && b?.finished, true);
  t.equal((a?.ledgers ?? 0) + (b?.ledgers ?? 0), ledgers.length, 'every ledger read once');

  const checkpoint = await new CheckpointStore(engine, 'rippled').load();
  t.same(
    checkpoint?.ranges,
    [
      { from: START, to: LAST },
      { from: LAST + 1000, to: LAST + 999 + above.length },
    ],
    'the checkpoint holds the backfill and what live added meanwhile: nobody overwrote the other',
  );
  for (const kind of ['ledgers', 'transactions'] as const) {
    const count = await target.client.count({
      index: indexName(target.naming, kind),
      query: { range: { ledger_index: { lte: LAST } } },
    });
    const expected = await reference.client.count({ index: indexName(reference.naming, kind) });
    t.equal(count.count, expected.count, `${kind} of the backfilled range`);
  }
  const store = new LeaseStore(engine, 'rippled');
  t.match(await store.planSummaries(), [{ chunks, done: chunks, gaps: 0, leased: 0, expired: 0, pending: 0 }]);
  const settings = await target.client.indices.getSettings({
    index: ['transactions', 'ledgers', 'objects', 'accounts'].map((k) => `${target.naming.prefix}-*-${k}*`),
    name: 'index.refresh_interval',
  });
  t.ok(
    Object.values(settings).every((s) => s.settings?.index?.refresh_interval === '1s'),
    'the range and state indices are back to a 1 s refresh once the backfill is done',
  );
});

t.test('a lease that expires is taken over from its recorded progress; the late worker stops', async (t) => {
  const target = await createTestIndices(t);
  const engine = new IngestEngine(target.client, target.naming, logger);
  const store = new LeaseStore(engine, 'rippled');
  const chunk = { from: START, to: START + 19 };
  const held = await store.claim(chunk, 'stalled', 300);
  t.type(held, 'object', 'claimed');
  if (typeof held !== 'object') return;
  t.equal(await store.claim(chunk, 'other', 300), 'busy', 'a live lease is not taken');
  const renewed = await store.renew(held, START + 7, 300);
  t.ok(renewed, 'the holder renews and records its progress');
  await sleep(350);
  const taken = await store.claim(chunk, 'other', 10_000);
  t.type(taken, 'object', 'taken over once expired');
  if (typeof taken !== 'object') return;
  t.match(taken.lease, { owner: 'other', progress: START + 7, takeovers: 1 });
  t.equal(await store.renew(renewed ?? held, START + 9, 300), undefined, 'the old holder learns it lost the lease');
  t.equal(await store.complete(renewed ?? held), false, 'and cannot mark the chunk done');
  t.equal(await store.complete(taken), true);
  t.equal(await store.claim(chunk, 'third', 300), 'done');
});

t.test(
  'the CLI: one of two backfill workers killed with SIGKILL, its chunk taken over after the lease expires',
  async (t) => {
    // Each worker reads its own replaying server, so the victim's can be stalled mid-chunk.
    const servers = [new ReplayRippled(), new ReplayRippled()];
    for (const server of servers) {
      for (const ledger of ledgers) server.addLedger(ledger as unknown as Record<string, unknown>);
      server.validated = LAST;
      server.ledgerDelayMs = 40;
      await server.start();
      t.teardown(() => server.stop());
    }
    const [victimServer, survivorServer] = servers as [ReplayRippled, ReplayRippled];
    const target = await createTestIndices(t);
    const env = { ...process.env, ES_INDEX_PREFIX: target.naming.prefix, LOG_LEVEL: 'silent' };
    const cli = `${repoRoot}packages/ingester/dist/src/cli.js`;
    const args = (name: string) => [
      'backfill',
      ...['--from', String(START), '--to', String(LAST), '--chunk', '20', '--lease-seconds', '2'],
      ...['--concurrency', '2', '--name', name],
    ];
    const start = (name: string, server: ReplayRippled) => {
      const child = spawn(process.execPath, [cli, ...args(name)], {
        env: { ...env, RIPPLED_URL: server.url },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const exited = new Promise<{ code: number | null; signal: string | null; out: string }>((resolve) =>
        child.on('exit', (code, signal) => resolve({ code, signal, out })),
      );
      return { child, exited };
    };
    const victim = start('victim', victimServer);
    const survivor = start('survivor', survivorServer);
    // Once the victim holds a chunk, its server stops answering (it cannot finish the chunk), and
    // it is killed in the middle of it.
    const engine = new IngestEngine(target.client, target.naming, logger);
    const store = new LeaseStore(engine, 'rippled');
    const chunks = chunksOf({ from: START, to: LAST }, 20);
    let held: ChunkLease | undefined;
    for (let i = 0; i < 400 && held === undefined; i += 1) {
      await sleep(50);
      const leases = await store.leases(chunks).catch(() => new Map<string, ChunkLease>());
      held = [...leases.values()].find((l) => l.owner === 'victim-1' && l.state === 'leased');
    }
    victimServer.ledgerDelayMs = 600_000;
    await sleep(1000);
    t.ok(held, `the victim holds chunk ${held?.from}-${held?.to} at ledger ${held?.progress}`);
    victim.child.kill('SIGKILL');
    const killed = await victim.exited;
    t.equal(killed.signal, 'SIGKILL');
    const finished = await survivor.exited;
    t.equal(finished.code, 0, `the survivor finishes: ${finished.out.trim().split('\n').at(-1)}`);
    t.match(finished.out, /[1-9]\d* taken over/, 'it took over the dead worker’s chunk');
    const lease = held === undefined ? undefined : (await store.leases([held])).values().next().value;
    t.match(
      lease,
      { state: 'done', owner: 'survivor-1', takeovers: 1 },
      'the victim’s chunk, finished by the survivor',
    );

    await sameContent(t, target, reference);
    const status = JSON.parse(
      await new Promise<string>((resolve) => {
        const child = spawn(process.execPath, [cli, 'status', '--json'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.on('exit', () => resolve(out));
      }),
    ) as { ranges: unknown; gaps: unknown[]; chunks: { done: number; pending: number; leased: number } };
    t.same(status.ranges, [{ from: START, to: LAST }], 'one range');
    t.same(status.gaps, [], 'no gap');
    t.match(status.chunks, { done: chunks.length, pending: 0, leased: 0 });
  },
);
