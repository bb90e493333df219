import t from 'tap';
import { createLogger, indexName } from '@xle/core';
import type { LedgerInput } from '@xle/documents';
import {
  CheckpointStore,
  chunksOf,
  IngestEngine,
  ingestLedgers,
  LeaseStore,
  RippledSource,
  runBackfillWorker,
  workerId,
  type WorkerHeartbeat,
} from '../../src/index.js';
import { createTestIndices } from '@xle/test-helpers';
import { LAST, ledgers, range, replaying, runCli, sameContent, START } from '../fixtures/backfill.js';

// A backfill that keeps going: a ledger the source cannot serve, a worker that fails.

const logger = createLogger('backfill-failures-test', 'silent');

const reference = await createTestIndices(t);
await ingestLedgers(ledgers, new IngestEngine(reference.client, reference.naming, logger), { source: 'rippled' });

t.test('a ledger the source cannot serve is a gap of its chunk; the others go on; the next run fills it', async (t) => {
  const server = await replaying(t);
  const BAD = START + 47;
  server.failing.set(BAD, 'lgrNotFound');
  const target = await createTestIndices(t);
  const engine = new IngestEngine(target.client, target.naming, logger);
  const refreshDuring: string[] = [];
  const run = async (into = engine, workers = 2) => {
    const since = Date.now();
    const sources = Array.from(
      { length: workers },
      () => new RippledSource({ url: server.url, logger, concurrency: 2, attempts: 2, backoffMs: 5 }),
    );
    try {
      return await Promise.all(
        sources.map((rippled, slot) =>
          runBackfillWorker({
            engine: into,
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
            slots: workers,
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
  // The same content as a single clean run from the same source.
  const clean = await createTestIndices(t);
  await run(new IngestEngine(clean.client, clean.naming, logger), 1);
  await sameContent(t, target, clean);
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
