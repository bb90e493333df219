import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { createLogger, indexName, repoRoot, type IndexKind } from '@xle/core';
import { CheckpointStore, IngestEngine, LEDGER_KINDS, runPipeline } from '../../src/index.js';
import { createTestIndices, indexContent, listFixtureLedgers, readFixture, type TestIndices } from '@xle/test-helpers';
import { normalizeLedger, type Json, type LedgerInput } from '@xle/documents';

const KINDS: IndexKind[] = ['ledgers', 'transactions', 'objects', 'deletions', 'accounts', 'activations'];
const ledgers: LedgerInput[] = listFixtureLedgers().map((file) => normalizeLedger(readFixture(file)));
/** The xrpl4j test ledger whose transaction tree does not reproduce: `ingest file` refuses it (ledger-verify). */
const EDITED = [87704323];
const cli = `${repoRoot}packages/ingester/dist/src/cli.js`;

/** Runs `ingest file` with the given arguments; its exit code, stdout and stderr. */
function runFile(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, 'file', ...args], {
      env: { ...process.env, LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}
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
  // Live entries only: a deleted one leaves a guard in `deletions`, not a tombstone (pipeline/deletions.ts).
  t.ok((first.objects?.count ?? 0) > 1800, `${first.objects?.count} live ledger objects`);
  t.ok((first.deletions?.count ?? 0) > 2000, `${first.deletions?.count} deletion guards`);
  const tombstones = await forward.client.count({
    index: indexName(forward.naming, 'objects'),
    query: { term: { deleted: true } },
  });
  t.equal(tombstones.count, 0, 'no deleted entry in objects');
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
  const env = { ...process.env, ES_INDEX_PREFIX: killed.naming.prefix, LOG_LEVEL: 'silent' };
  // The demo's run: the ledger whose tree does not reproduce indexed on purpose, as before verification.
  const args = [
    `${repoRoot}../shared/xrpl-fixtures/ledgers`,
    '--batch-ledgers',
    '3',
    '--accept-refused',
    EDITED.join(','),
  ];
  const run = (killAfterMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> =>
    new Promise((resolve) => {
      const child = spawn(process.execPath, [cli, 'file', ...args], { env, stdio: 'ignore' });
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

t.test('ingest file: refused ledgers are reported and not indexed, unchecked ones are counted', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'xle-verify-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const copy = (name: string, ledger: unknown): void => writeFileSync(join(dir, name), JSON.stringify(ledger));
  // One transaction altered (its Fee) in a ledger that verifies as recorded.
  const altered = readFixture<Json>('ledgers/historical/misc/ledger-45136164.explorer.json');
  const tx = (((altered.result as Json).ledger as Json).transactions as Json[])[4] as Json;
  tx.Fee = String(Number(tx.Fee) + 1);
  copy('a-altered.json', altered);
  copy('b-edited.json', readFixture('ledgers/recent/ledger-87704323.json'));
  copy('c-old-header.json', readFixture('ledgers/historical/rippled-historical-database/ledger-11120009.json'));
  copy('d-verified.json', readFixture('ledgers/historical/rippled-historical-database/ledger-11618225.json'));

  const target = await createTestIndices(t);
  const run = await runFile([dir], { ES_INDEX_PREFIX: target.naming.prefix });
  t.equal(run.code, 1, 'refused ledgers fail the run');
  const lines = run.err.trim().split('\n');
  t.equal(lines.length, 2, 'one stderr line each');
  t.match(
    lines[0],
    new RegExp(
      `^refused, not indexed: a-altered\\.json: ledger 45136164: transaction ${String(tx.hash)}: its fields hash to [0-9A-F]{64} \\(the transaction_hash check\\)$`,
    ),
  );
  t.match(
    lines[1],
    /^refused, not indexed: b-edited\.json: ledger 87704323: the 22 transactions hash to [0-9A-F]{64}, the header says transaction_hash [0-9A-F]{64}: every transaction's fields hash to its own hash and their positions run from 0 without a gap, so the metadata of at least one is not what the ledger holds \(the header's one hash cannot tell which\) \(the transaction_hash check\)$/,
  );
  t.match(
    run.out,
    /^indexed 2 ledgers, .*; 2 ledgers refused by their hashes \(2 not indexed\); 1 ledgers indexed that could not be checked \(their files lack what the hashes need\): c-old-header\.json\n$/,
  );
  await new IngestEngine(target.client, target.naming, logger).refresh(LEDGER_KINDS);
  const indexed = await target.client.search({ index: indexName(target.naming, 'ledgers'), size: 10, _source: false });
  t.same(
    indexed.hits.hits.map((h) => Number(h._id)).sort(),
    [11120009, 11618225],
    'the files after a refused one are still read',
  );
});
