import t from 'tap';
import { createLogger, indexName } from '@xle/core';
import { CheckpointStore, IngestEngine, RippledSource, runPipeline, SourceError } from '../../src/index.js';
import { createTestIndices, indexContent, readFixture, ReplayRippled } from '@xle/test-helpers';
import { normalizeLedger, transformLedger, type LedgerInput } from '@xle/documents';

const logger = createLogger('rippled-source-test', 'silent');
const FIRST = 11119607;
const LAST = 11119627; // the longest run of consecutive mainnet ledgers in the fixtures
const fixturePath = (n: number): string => `ledgers/historical/rippled-historical-database/ledger-${n}.json`;

async function replayServer(t: { teardown: (fn: () => Promise<void>) => void }): Promise<ReplayRippled> {
  const server = new ReplayRippled();
  for (let n = FIRST; n <= LAST; n += 1) server.addLedger(readFixture(fixturePath(n)));
  server.validated = LAST;
  await server.start();
  t.teardown(() => server.stop());
  return server;
}

function source(
  t: { teardown: (fn: () => Promise<void>) => void },
  url: string,
  extra: Partial<ConstructorParameters<typeof RippledSource>[0]> = {},
): RippledSource {
  const s = new RippledSource({ url, logger, concurrency: 4, backoffMs: 20, maxBackoffMs: 200, ...extra });
  t.teardown(() => s.close());
  return s;
}

async function collect(iterable: AsyncIterable<LedgerInput>, limit = Infinity): Promise<LedgerInput[]> {
  const out: LedgerInput[] = [];
  for await (const ledger of iterable) {
    out.push(ledger);
    if (out.length >= limit) break;
  }
  return out;
}

t.test('backfill: several ledgers in flight, yielded in ledger order, identical to the files', async (t) => {
  const server = await replayServer(t);
  const rippled = source(t, server.url);
  const ledgers = await collect(rippled.backfill(FIRST, LAST));
  t.same(
    ledgers.map((l) => l.ledger_index),
    Array.from({ length: LAST - FIRST + 1 }, (_, i) => FIRST + i),
  );
  for (const ledger of ledgers) {
    const fromFile = normalizeLedger(readFixture(fixturePath(ledger.ledger_index)));
    t.same(transformLedger(ledger), transformLedger(fromFile), `ledger ${ledger.ledger_index}`);
    t.same(
      ledger.transactions.map((tx) => tx.hash),
      fromFile.transactions.map((tx) => tx.hash),
    );
  }
  t.equal(rippled.networkId, 0, 'the network id comes from the server (the recorded mainnet server_info says 0)');
});

t.test('live: gap since the checkpoint, the stream, a dropped connection, and the gap after it', async (t) => {
  const server = await replayServer(t);
  server.validated = FIRST + 3;
  const rippled = source(t, server.url);
  const controller = new AbortController();
  const seen: number[] = [];
  const done = (async () => {
    for await (const ledger of rippled.live(FIRST, controller.signal)) {
      seen.push(ledger.ledger_index);
      if (ledger.ledger_index === FIRST + 3) {
        server.announce(FIRST + 4);
        server.announce(FIRST + 5);
      }
      if (ledger.ledger_index === FIRST + 5) {
        // The network drops; meanwhile the ledger advances by four.
        server.validated = FIRST + 9;
        server.dropConnections();
      }
      if (ledger.ledger_index === FIRST + 9) controller.abort();
    }
  })();
  await done;
  t.same(
    seen,
    [1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => FIRST + i),
    'every ledger exactly once, in order',
  );
  t.ok(server.commands.filter((c) => c === 'subscribe').length >= 2, 'resubscribed after the drop');
});

t.test('a ledger the server cannot give is a clear error after retries', async (t) => {
  const server = await replayServer(t);
  server.failing.set(FIRST + 1, 'lgrNotFound');
  const rippled = source(t, server.url, { attempts: 2, concurrency: 1 });
  const got: number[] = [];
  await t.rejects(
    (async () => {
      for await (const ledger of rippled.backfill(FIRST, FIRST + 2)) got.push(ledger.ledger_index);
    })(),
    SourceError,
  );
  await t.rejects(rippled.fetchLedger(FIRST + 1), {
    message: new RegExp(`ledger ${FIRST + 1} could not be fetched .* after 2 attempts: .*ledgerNotFound`),
  });
  t.same(got, [FIRST], 'ledgers before the failure were delivered');
  t.equal(server.commands.filter((c) => c === `ledger ${FIRST + 1}`).length, 4, 'each attempt asked again');
});

t.test('backfill through the pipeline indexes the same documents as the file source', async (t) => {
  const server = await replayServer(t);
  const viaRippled = await createTestIndices(t);
  const viaFiles = await createTestIndices(t);
  const rippled = source(t, server.url);
  const engineOf = (target: typeof viaRippled): IngestEngine => new IngestEngine(target.client, target.naming, logger);
  const totals = await runPipeline(
    rippled.backfill(FIRST, LAST),
    engineOf(viaRippled),
    new CheckpointStore(engineOf(viaRippled), 'rippled'),
  );
  t.equal(totals.ledgers, LAST - FIRST + 1);
  t.same(totals.checkpoint?.ranges, [{ from: FIRST, to: LAST }]);
  async function* files(): AsyncGenerator<LedgerInput> {
    for (let n = FIRST; n <= LAST; n += 1) yield normalizeLedger(readFixture(fixturePath(n)));
  }
  await runPipeline(files(), engineOf(viaFiles), new CheckpointStore(engineOf(viaFiles), 'files'));
  for (const kind of ['ledgers', 'transactions', 'objects', 'accounts'] as const) {
    t.same(
      await indexContent(viaRippled.client, indexName(viaRippled.naming, kind)),
      await indexContent(viaFiles.client, indexName(viaFiles.naming, kind)),
      kind,
    );
  }
});

t.test(
  'the CLI: backfill killed with SIGKILL at random moments, restarted, equals one uninterrupted run',
  async (t) => {
    const { spawn } = await import('node:child_process');
    const { setTimeout: sleep } = await import('node:timers/promises');
    const { repoRoot } = await import('@xle/core');
    const server = await replayServer(t);
    const reference = await createTestIndices(t);
    async function* files(): AsyncGenerator<LedgerInput> {
      for (let n = FIRST; n <= LAST; n += 1) yield normalizeLedger(readFixture(fixturePath(n)));
    }
    const referenceEngine = new IngestEngine(reference.client, reference.naming, logger);
    await runPipeline(files(), referenceEngine, new CheckpointStore(referenceEngine, 'rippled'));

    const killed = await createTestIndices(t);
    const env = { ...process.env, ES_INDEX_PREFIX: killed.naming.prefix, RIPPLED_URL: server.url, LOG_LEVEL: 'silent' };
    const cli = `${repoRoot}packages/ingester/dist/src/cli.js`;
    const run = (
      args: string[],
      killAfterMs?: number,
    ): Promise<{ code: number | null; signal: string | null; out: string }> =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [cli, ...args], { env, stdio: ['ignore', 'pipe', 'ignore'] });
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        if (killAfterMs !== undefined) void sleep(killAfterMs).then(() => child.kill('SIGKILL'));
        child.on('exit', (code, signal) => resolve({ code, signal, out }));
      });
    // A killed run's lease outlives it by at most a second: the next run takes its chunk over.
    const range = [
      'backfill',
      '--from',
      String(FIRST),
      '--to',
      String(LAST),
      '--concurrency',
      '3',
      '--lease-seconds',
      '1',
    ];
    let kills = 0;
    for (const base of [250, 500, 750, 1000]) {
      if ((await run(range, base + Math.random() * 300)).signal === 'SIGKILL') kills += 1;
    }
    t.ok(kills >= 2, `${kills} runs killed mid-way`);
    t.equal((await run(range)).code, 0, 'the last run completes');
    for (const kind of ['ledgers', 'transactions', 'objects', 'accounts'] as const) {
      t.same(
        await indexContent(killed.client, indexName(killed.naming, kind)),
        await indexContent(reference.client, indexName(reference.naming, kind)),
        kind,
      );
    }
    const status = JSON.parse((await run(['status', '--json'])).out) as {
      ranges: unknown;
      lag: number;
      gaps: unknown[];
    };
    t.same(status.ranges, [{ from: FIRST, to: LAST }], 'one range, no gaps');
    t.equal(status.lag, 0, 'lag behind the source');
    const usage = await run(['backfill', '--from', '9', '--to', '1']);
    t.equal(usage.code, 1, 'bad arguments are refused');
  },
);
