import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import t, { type Test } from 'tap';
import { createEngineClient, createLogger, deleteTemplatesAndIndices, indexName, namingOf, repoRoot } from '@xle/core';
import { normalizeLedger, type LedgerInput } from '@xle/documents';
import {
  CheckpointStore,
  chunksOf,
  IngestEngine,
  ingestLedgers,
  LeaseStore,
  RippledSource,
  runBackfillWorker,
  runPipeline,
  workerId,
  type ChunkLease,
  type WorkerHeartbeat,
} from '../../src/index.js';
import {
  createTestIndices,
  indexContent,
  listFixtureLedgers,
  readFixture,
  ReplayRippled,
  syntheticLedgers,
  testConfig,
  type TestIndices,
} from '@xle/test-helpers';

const logger = createLogger('backfill-workers-test', 'silent');
const KINDS = ['ledgers', 'transactions', 'objects', 'accounts'] as const;
const START = 50_000_000;
const templates = listFixtureLedgers().map((file) => normalizeLedger(readFixture(file)));

/** Deterministic synthetic ledgers: real transactions, fresh ledgers, accounts from a skewed pool. */
const ledgers: LedgerInput[] = [
  ...syntheticLedgers(templates, { transactions: 900, perLedger: 10, startLedger: START, accounts: 200 }),
];
const LAST = START + ledgers.length - 1;
const byIndex = new Map(ledgers.map((l) => [l.ledger_index, l]));

async function* range(from: number, to: number, delayMs = 0): AsyncGenerator<LedgerInput> {
  for (let n = from; n <= to; n += 1) {
    if (delayMs > 0) await sleep(delayMs);
    const ledger = byIndex.get(n);
    if (ledger !== undefined) yield structuredClone(ledger);
  }
}

async function sameContent(t: Test, a: TestIndices, b: TestIndices): Promise<void> {
  for (const kind of KINDS)
    t.same(
      await indexContent(a.client, indexName(a.naming, kind)),
      await indexContent(b.client, indexName(b.naming, kind)),
      kind,
    );
}

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
  const above = [
    ...syntheticLedgers(templates, { transactions: 60, perLedger: 10, startLedger: LAST + 1000, seed: 'live' }),
  ];
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

/** Runs the built CLI; answers its exit code and everything it printed. */
function runCli(args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [`${repoRoot}packages/ingester/dist/src/cli.js`, ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })));
}

/** A server that replays the synthetic ledgers. */
async function replaying(t: Test): Promise<ReplayRippled> {
  const server = new ReplayRippled();
  for (const ledger of ledgers) server.addLedger(ledger as unknown as Record<string, unknown>);
  server.validated = LAST;
  await server.start();
  t.teardown(() => server.stop());
  return server;
}

t.test('a ledger the source cannot serve is a gap of its chunk; the others go on; the next run fills it', async (t) => {
  const server = await replaying(t);
  const BAD = START + 47;
  server.failing.set(BAD, 'lgrNotFound');
  const target = await createTestIndices(t);
  const engine = new IngestEngine(target.client, target.naming, logger);
  const refreshDuring: string[] = [];
  const run = async () => {
    const since = Date.now();
    const sources = [0, 1].map(
      () => new RippledSource({ url: server.url, logger, concurrency: 2, attempts: 2, backoffMs: 5 }),
    );
    try {
      return await Promise.all(
        sources.map((rippled, slot) =>
          runBackfillWorker({
            engine,
            logger,
            source: 'rippled',
            owner: `w${slot}`,
            range: { from: START, to: LAST },
            chunkLedgers: 20,
            leaseMs: 10_000,
            ledgers: (from, to) => rippled.backfill(from, to),
            networkId: 0,
            backfillRefresh: '30s',
            slot,
            slots: 2,
            since,
            onProgress: () => {
              if (refreshDuring.length > 0) return;
              refreshDuring.push('pending');
              void target.client.indices
                .getSettings({ index: indexName(target.naming, 'objects'), name: 'index.refresh_interval' })
                .then(
                  (s) => (refreshDuring[0] = Object.values(s)[0]?.settings?.index?.refresh_interval?.toString() ?? ''),
                );
            },
          }),
        ),
      );
    } finally {
      for (const s of sources) await s.close();
    }
  };
  const chunks = chunksOf({ from: START, to: LAST }, 20);
  const first = await run();
  t.ok(
    first.every((r) => r.finished && r.error === undefined),
    'both workers finish the plan despite the bad ledger',
  );
  t.equal(
    first.reduce((n, r) => n + r.gaps, 0),
    1,
    'one ledger left as a gap',
  );
  t.equal(
    first.reduce((n, r) => n + r.ledgers, 0),
    ledgers.length - 1,
    'every other ledger written',
  );
  t.equal(refreshDuring[0], '30s', 'the state indices refresh slowly during the backfill');
  const checkpoints = new CheckpointStore(engine, 'rippled');
  t.same(
    (await checkpoints.load())?.ranges,
    [
      { from: START, to: BAD - 1 },
      { from: BAD + 1, to: LAST },
    ],
    'the checkpoint does not claim the gap',
  );
  const store = new LeaseStore(engine, 'rippled');
  const summary = (await store.planSummaries())[0];
  t.match(summary, { chunks: chunks.length, done: chunks.length - 1, gaps: 1, gap_ledgers: 1, pending: 0 });
  t.match(summary?.gapped, [{ from: START + 40, to: START + 59, state: 'gaps', gaps: [{ from: BAD, to: BAD }] }]);
  const env = { ES_INDEX_PREFIX: target.naming.prefix, RIPPLED_URL: server.url };
  const status = JSON.parse((await runCli(['status', '--json'], env)).out) as {
    gaps: unknown;
    chunks: { gaps: number; gap_ledgers: number; gapped: unknown[] };
  };
  t.same(status.gaps, [{ from: BAD, to: BAD }], 'status: the hole in the indexed ranges');
  t.match(status.chunks, {
    gaps: 1,
    gap_ledgers: 1,
    gapped: [{ gaps: [{ from: BAD, to: BAD, reason: /lgrNotFound|ledger/ }] }],
  });
  const text = (await runCli(['status'], env)).out;
  t.match(
    text,
    new RegExp(
      `1 done with gaps \\(1 ledgers to fetch again\\)[^]*gaps of ${START + 40}-${START + 59} \\(gaps\\): ${BAD} `,
    ),
  );

  // The same backfill again, with the ledger now served: only the gap is fetched.
  server.failing.delete(BAD);
  const asked = server.commands.length;
  const second = await run();
  t.same(
    server.commands.slice(asked).filter((c) => c.startsWith('ledger ')),
    [`ledger ${BAD}`],
    'the second run fetches the gap and nothing else',
  );
  t.equal(
    second.reduce((n, r) => n + r.filled, 0),
    1,
    'the gap filled',
  );
  t.same((await checkpoints.load())?.ranges, [{ from: START, to: LAST }]);
  t.match(await store.planSummaries(), [{ done: chunks.length, gaps: 0, gap_ledgers: 0, pending: 0 }]);
  await sameContent(t, target, reference);
});

t.test('a failed worker releases its chunk and records why; the other finishes the range', async (t) => {
  const target = await createTestIndices(t);
  const engine = new IngestEngine(target.client, target.naming, logger);
  const common = {
    engine,
    logger,
    source: 'rippled',
    range: { from: START, to: LAST },
    chunkLedgers: 20,
    leaseMs: 60_000,
    networkId: 0,
    backfillRefresh: '30s',
    slots: 2,
    pollMs: 50,
  };
  async function* broken(from: number, to: number): AsyncGenerator<LedgerInput> {
    for await (const ledger of range(from, Math.min(to, from + 4), 2)) yield ledger;
    throw new Error('disk full');
  }
  const [bad, good] = await Promise.all([
    runBackfillWorker({ ...common, owner: 'bad', slot: 0, ledgers: broken }),
    runBackfillWorker({ ...common, owner: 'good', slot: 1, ledgers: (from, to) => range(from, to, 2) }),
  ]);
  t.match(bad, { finished: false, error: /disk full/ }, 'the failure is answered, not thrown');
  t.match(good, { finished: true, error: undefined, takeovers: 1 }, 'the other finishes, the released chunk included');
  const beat = await engine.get<WorkerHeartbeat>('ingest-state', workerId('bad'));
  t.match(beat, { state: 'failed', error: /disk full/ });
  const store = new LeaseStore(engine, 'rippled');
  const chunks = chunksOf({ from: START, to: LAST }, 20);
  t.match(await store.planSummaries(), [{ done: chunks.length, leased: 0, expired: 0 }]);
  // The lease of 60 s did not hold the chunk: it was released at once (the test ends long before).
  const first = (await store.leases([chunks[0] ?? { from: START, to: START }])).values().next().value;
  t.match(first, { state: 'done', owner: 'good', takeovers: 1 });
  await sameContent(t, target, reference);
});

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
