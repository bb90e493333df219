import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { createLogger, indexName } from '@xle/core';
import {
  ChainBrokenError,
  CheckpointStore,
  IngestEngine,
  RippledSource,
  runPipeline,
  SourceError,
} from '../../src/index.js';
import {
  createTestIndices,
  indexContent,
  listFixtureLedgers,
  readFixture,
  recoverLedgerHeader,
  ReplayRippled,
} from '@xle/test-helpers';
import {
  asRippledJson,
  hashLedgerHeader,
  normalizeLedger,
  transformLedger,
  verifyLedger,
  type Json,
  type LedgerInput,
} from '@xle/documents';

const logger = createLogger('rippled-source-test', 'silent');
const FIRST = 11119607;
const LAST = 11119627; // the longest run of consecutive mainnet ledgers in the fixtures
const fixturePath = (n: number): string => `ledgers/historical/rippled-historical-database/ledger-${n}.json`;

/**
 * A fixture ledger as a current rippled serves it: the 2015 recordings lack parent_close_time and
 * close_flags, which the binary header has (recovered: the values its ledger_hash proves), and
 * rippled of 2015 wrote UInt64 fields with 16 digits and each path step's `type_hex`, which a
 * current rippled no longer does (asRippledJson, as for a ledger read in binary).
 */
function asServed(file: string): LedgerInput {
  const ledger = normalizeLedger(readFixture(file));
  const served = recoverLedgerHeader(ledger);
  if (served === undefined) throw new Error(`${file}: the header does not hash to its ledger_hash`);
  served.transactions = served.transactions.map((tx) => asRippledJson(tx, { transaction: true }));
  return served;
}

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
    t.equal(ledger.binary?.length, ledger.transactions.length, `ledger ${ledger.ledger_index} came in binary`);
    t.same(verifyLedger(ledger), { status: 'verified' });
    // The file's header lacks two fields; the binary header has them, and they are all it adds.
    const { parent_close_time: parentClose, close_flags: flags, ...doc } = transformLedger(ledger);
    t.same(doc, transformLedger(fromFile), `ledger ${ledger.ledger_index}`);
    t.same(
      { parentClose, flags },
      { parentClose: asServed(fixturePath(ledger.ledger_index)).parent_close_time, flags: 0 },
    );
    t.same(
      ledger.transactions.map((tx) => tx.hash),
      fromFile.transactions.map((tx) => tx.hash),
    );
    t.same(ledger.transactions, asServed(fixturePath(ledger.ledger_index)).transactions, 'every field and metadata');
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

t.test('live goes on only from the indexed ledger: a first ledger that does not chain to it stops it', async (t) => {
  const server = await replayServer(t);
  server.validated = FIRST + 3;
  const indexed = asServed(fixturePath(FIRST));
  const follow = async (hash: string): Promise<number[]> => {
    const rippled = source(t, server.url);
    const controller = new AbortController();
    const seen: number[] = [];
    for await (const ledger of rippled.live(FIRST, controller.signal, { ledger_index: FIRST, ledger_hash: hash })) {
      seen.push(ledger.ledger_index);
      if (ledger.ledger_index === FIRST + 3) controller.abort();
    }
    return seen;
  };
  t.same(
    await follow(indexed.ledger_hash),
    [1, 2, 3].map((i) => FIRST + i),
    'the indexed hash: it follows',
  );
  const other = `${'0'.repeat(63)}1`;
  await t.rejects(
    follow(other),
    { name: 'ChainBrokenError', message: new RegExp(`ledger ${FIRST} is now [0-9A-F]{64}, it was ${other}`) },
    'another hash for the indexed ledger: stopped, nothing yielded',
  );
  t.ok(ChainBrokenError.prototype instanceof SourceError);
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

t.test('a ledger with one altered transaction is refused, never yielded', async (t) => {
  const server = await replayServer(t);
  const bad = FIRST + 3;
  const original = normalizeLedger(readFixture(fixturePath(bad)));
  const target = original.transactions[2]?.hash;
  server.tamper(bad, (ledger) => {
    const tx = (ledger.transactions as Json[]).find((x) => x.hash === target) as Json;
    tx.Fee = String(Number(tx.Fee) + 1);
  });
  const lines: string[] = [];
  const logged = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().trim().split('\n'));
      done();
    },
  });
  const rippled = source(t, server.url, {
    attempts: 2,
    concurrency: 3,
    logger: createLogger('rippled-source-test', 'warn', logged),
  });
  const got: number[] = [];
  await t.rejects(
    (async () => {
      for await (const ledger of rippled.backfill(FIRST, FIRST + 6)) got.push(ledger.ledger_index);
    })(),
    {
      name: 'SourceError',
      // In binary a transaction's hash is computed from its bytes: the altered one is another
      // transaction, and the tree is no longer the header's.
      message: new RegExp(
        `^ledger ${bad} from ws://\\S+ was refused 2 times: ledger ${bad}: the 8 transactions hash to [0-9A-F]{64}, the header says transaction_hash ${original.transaction_hash}: every transaction's fields hash to its own hash .* \\(the transaction_hash check\\)$`,
      ),
    },
  );
  t.same(got, [FIRST, FIRST + 1, FIRST + 2], 'the ledgers before it, not it');
  t.equal(server.commands.filter((c) => c === `ledger ${bad}`).length, 2, 'fetched again before giving up');
  const refusals = lines.map((l) => JSON.parse(l) as Json).filter((l) => l.msg === 'ledger refused, fetching it again');
  t.match(
    refusals,
    [1, 2].map((attempt) => ({ what: `ledger ${bad}`, attempt, error: /the 8 transactions hash to/ })),
    'each refusal logged with its reason',
  );

  // Metadata changed, the transaction itself not: the tree no longer hashes to the header's root.
  server.tamper(FIRST + 4, (ledger) => {
    const meta = ((ledger.transactions as Json[])[0] as Json).metaData as Json;
    meta.TransactionResult = 'tecUNFUNDED_OFFER';
  });
  await t.rejects(rippled.fetchLedger(FIRST + 4), {
    name: 'SourceError',
    message:
      /was refused 2 times: ledger 11119611: the 50 transactions hash to [0-9A-F]{64}, the header says transaction_hash [0-9A-F]{64}: every transaction's fields hash to its own hash .* \(the transaction_hash check\)$/,
  });
  // An altered header field: the header no longer hashes to ledger_hash.
  const { parent_close_time: parentClose, close_flags: flags } = asServed(fixturePath(FIRST + 5));
  server.tamper(FIRST + 5, (ledger) => {
    Object.assign(ledger, { parent_close_time: parentClose, close_flags: flags });
    ledger.close_time = Number(ledger.close_time) + 10;
  });
  await t.rejects(rippled.fetchLedger(FIRST + 5), {
    message:
      /ledger 11119612: the header fields hash to [0-9A-F]{64}, not to ledger_hash [0-9A-F]{64} \(the ledger_hash check\)$/,
  });
  t.same(verifyLedger(await rippled.fetchLedger(FIRST + 6)), { status: 'verified' }, 'the others still come');
});

t.test('backfill: a ledger of another chain (its own hashes fine) breaks the parent_hash chain', async (t) => {
  const server = await replayServer(t);
  const forked = FIRST + 5;
  // Ledger FIRST + 5 with another parent, its ledger_hash recomputed: it verifies on its own.
  const header = { ...asServed(fixturePath(forked)), parent_hash: 'AB'.repeat(32) };
  const hash = hashLedgerHeader(header);
  server.tamper(forked, (ledger) => {
    Object.assign(ledger, {
      parent_hash: header.parent_hash,
      parent_close_time: header.parent_close_time,
      close_flags: header.close_flags,
      ledger_hash: hash,
      hash,
    });
  });
  const rippled = source(t, server.url, { attempts: 1 });
  t.same(verifyLedger(await rippled.fetchLedger(forked)), { status: 'verified' }, 'alone, it verifies');
  const got: number[] = [];
  await t.rejects(
    (async () => {
      for await (const ledger of rippled.backfill(FIRST, LAST)) got.push(ledger.ledger_index);
    })(),
    {
      name: 'ChainBrokenError',
      message: `ledger ${forked} from ${server.url} refused, the chain is broken: ledger ${forked} names parent ${'AB'.repeat(32)}, but ledger ${forked - 1} is ${asServed(fixturePath(forked - 1)).ledger_hash}`,
    },
  );
  t.same(
    got,
    Array.from({ length: 5 }, (_, i) => FIRST + i),
    'every ledger before the break',
  );
  t.equal(server.commands.filter((c) => c === `ledger ${forked - 1}`).length, 2, 'its parent fetched again');
  t.equal(
    server.commands.filter((c) => c === `ledger ${forked}`).length,
    3,
    'and itself (after the first fetch above)',
  );
});

t.test('live: a ledger of another chain is never yielded; following stops there and says why', async (t) => {
  const server = await replayServer(t);
  server.validated = FIRST + 3;
  const forked = FIRST + 5;
  const header = { ...asServed(fixturePath(forked)), parent_hash: 'CD'.repeat(32) };
  const hash = hashLedgerHeader(header);
  server.tamper(forked, (ledger) => {
    Object.assign(ledger, {
      parent_hash: header.parent_hash,
      parent_close_time: header.parent_close_time,
      close_flags: header.close_flags,
      ledger_hash: hash,
      hash,
    });
  });
  const rippled = source(t, server.url, { attempts: 1 });
  const controller = new AbortController();
  const seen: number[] = [];
  await t.rejects(
    (async () => {
      for await (const ledger of rippled.live(FIRST, controller.signal)) {
        seen.push(ledger.ledger_index);
        if (ledger.ledger_index === FIRST + 3) {
          server.announce(FIRST + 4);
          server.announce(forked);
        }
      }
    })(),
    {
      name: 'ChainBrokenError',
      message: new RegExp(
        `^ledger ${forked} from \\S+ refused, the chain is broken: ledger ${forked} names parent ${'CD'.repeat(32)}`,
      ),
    },
    'it stops, saying why, instead of retrying the same ledger for ever',
  );
  t.same(
    seen,
    [1, 2, 3, 4].map((i) => FIRST + i),
    'the ledgers before it, each once',
  );
});

t.test(
  'every real fixture ledger served in binary verifies, except the one whose tree does not reproduce',
  async (t) => {
    const server = new ReplayRippled();
    // The .binary.json file is ledger 83258110 again, in a shape the server does not record.
    const files = listFixtureLedgers().filter((f) => !f.endsWith('.binary.json'));
    for (const file of files) server.addLedger(readFixture(file));
    server.validated = Math.max(...server.ledgers.keys());
    await server.start();
    t.teardown(() => server.stop());
    const rippled = source(t, server.url, { attempts: 1 });
    let verified = 0;
    for (const file of files) {
      const index = normalizeLedger(readFixture(file)).ledger_index;
      if (index === 87704323) {
        await t.rejects(rippled.fetchLedger(index), {
          message:
            /ledger 87704323 .* was refused 1 times: ledger 87704323: the 22 transactions hash to .*transaction_hash check/,
        });
        continue;
      }
      const ledger = await rippled.fetchLedger(index);
      const expected = asServed(file);
      t.same(transformLedger(ledger), transformLedger(expected), file);
      verified += 1;
    }
    t.equal(verified, 60, 'every other ledger (90150378 with its negative DeliveredAmount), old headers included');
  },
);

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
    for (let n = FIRST; n <= LAST; n += 1) yield asServed(fixturePath(n));
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
    const { repoRoot } = await import('@xle/core');
    const server = await replayServer(t);
    const reference = await createTestIndices(t);
    async function* files(): AsyncGenerator<LedgerInput> {
      for (let n = FIRST; n <= LAST; n += 1) yield asServed(fixturePath(n));
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
    t.equal(usage.code, 64, 'bad arguments are a misuse (exit 64)');
  },
);
