import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { fixturesDir, indexName } from '@xle/core';
import { createTestIndices, listenForTest, runPnpm, type CliRun } from '@xle/test-helpers';

/**
 * The everyday mistakes of running the service, made through the README's own commands (`pnpm …`
 * from the repository): each ends with the documented exit code (64 misuse, 1 refused or failed,
 * 3 engine not running), a message that names the fault and what to check, no stack trace, and
 * nothing written.
 */
const target = await createTestIndices(t);
const dir = mkdtempSync(join(tmpdir(), 'cli-mistakes-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const base = {
  ES_INDEX_PREFIX: target.config.es.indexPrefix,
  XLE_NETWORK: target.config.network,
  LOG_LEVEL: 'silent',
};

interface Run extends CliRun {
  ms: number;
}

async function pnpm(args: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  const started = Date.now();
  const run = await runPnpm(args, { ...base, ...env });
  return { ...run, ms: Date.now() - started };
}

const STACK = /\n\s+at .+\(.+:\d+:\d+\)|TypeError|RangeError|ReferenceError/;

/** Exit code, the words that name the fault and the fix, and no stack trace. */
function expect(t: Test, run: Run, code: number, ...words: (string | RegExp)[]): void {
  const said = `${run.stdout}\n${run.stderr}`;
  t.equal(run.code, code, `exit ${code} (${said.trim().split('\n')[0]?.slice(0, 160)})`);
  for (const word of words) t.match(said, word);
  t.notMatch(said, STACK, 'no stack trace');
}

async function indicesOf(prefix: string): Promise<string[]> {
  const found = await target.client.cat.indices({ index: `${prefix}-*`, format: 'json', h: 'index' });
  return (found as { index?: string }[]).map((i) => String(i.index));
}

t.test('configuration: integers are integers, bounds, URLs, folders and choices, by variable', async (t) => {
  for (const port of ['true', '0x10', '1e3', '3000.5'])
    expect(t, await pnpm(['run', 'config'], { API_PORT: port }), 1, `API_PORT (api.port)`, `not “${port}”`);
  expect(t, await pnpm(['run', 'config'], { ES_PING_TIMEOUT_MS: '5000' }), 1, 'ES_PING_TIMEOUT_MS', '<= 999');
  expect(
    t,
    await pnpm(['run', 'config'], { TOKEN_SCORE_WEIGHTS: 'volume=1' }),
    1,
    'TOKEN_SCORE_WEIGHTS',
    'amms, trustlines, holdingWallets',
  );
  expect(t, await pnpm(['run', 'config'], { TOML_DIR: join(dir, 'missing') }), 1, 'TOML_DIR', 'does not exist');
  expect(t, await pnpm(['run', 'config'], { ACCESS_MODE: 'free' }), 1, 'ACCESS_MODE', 'one of open, plans, payg');
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify({ access: { freePerDay: 2.7 } }));
  expect(t, await pnpm(['run', 'config'], { XLE_CONFIG: file }), 1, 'access.freePerDay', 'whole number');
  expect(t, await pnpm(['serve'], { ES_URL: 'garbage' }), 1, 'ES_URL (es.url)', 'http:// or https://');
  expect(t, await pnpm(['serve'], { API_PORT: '70000' }), 1, 'API_PORT (api.port)', '<= 65535');
  expect(t, await pnpm(['ingest', 'live'], { RIPPLED_URL: 'garbage' }), 1, 'RIPPLED_URL (xrpl.url)', 'wss://');
});

t.test('an engine that is not there, or not an engine: said within 10 s, with what was tried', async (t) => {
  const closed = await pnpm(['ingest', 'status'], { ES_URL: 'http://127.0.0.1:9' });
  expect(t, closed, 1, 'cannot reach Elasticsearch at http://127.0.0.1:9', 'connection refused', 'ES_URL');
  t.ok(closed.ms < 10_000, `said in ${closed.ms} ms`);
  const tls = await pnpm(['ingest', 'status'], { ES_URL: target.config.es.url!.replace('http://', 'https://') });
  expect(t, tls, 1, 'TLS', 'http versus https');
  t.ok(tls.ms < 10_000, `said in ${tls.ms} ms`);
  const html = await listenForTest(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html><body>a web site</body></html>');
  });
  expect(t, await pnpm(['ingest', 'status'], { ES_URL: html }), 1, 'not Elasticsearch');
  expect(t, await pnpm(['names', 'import', join(dir, 'x.csv')], { ES_URL: 'http://127.0.0.1:9' }), 1);
  expect(t, await pnpm(['engine', 'status'], { ES_URL: 'http://127.0.0.1:9' }), 3, 'not answering');
});

t.test('a taken port: the server says so and which variable to change', async (t) => {
  const taken = new URL(await listenForTest(t, (_req, res) => res.end('busy'))).port;
  const run = await pnpm(['serve'], { ES_URL: target.config.es.url!, API_PORT: taken, LOG_LEVEL: 'info' });
  expect(t, run, 1, 'another process holds that port', 'API_PORT');
});

t.test('read-only commands create no index', async (t) => {
  const prefix = `${target.config.es.indexPrefix}-fresh`;
  const run = await pnpm(['ingest', 'status'], { ES_INDEX_PREFIX: prefix, ES_URL: target.config.es.url! });
  expect(t, run, 0, 'nothing indexed', 'no index exists yet');
  t.same(await indicesOf(prefix), [], 'no index created');
});

t.test('misused commands: exit 64, the word named; --help everywhere', async (t) => {
  const env = { ES_URL: target.config.es.url! };
  expect(t, await pnpm(['ingest', 'ranges', '--kind', 'bogus'], env), 64, '--kind takes one of');
  expect(t, await pnpm(['ingest', 'backfill', '--from', 'abc', '--to', '5'], env), 64, '--from takes a ledger index');
  expect(t, await pnpm(['ingest', 'bogus'], env), 64, 'unknown command “bogus”');
  expect(t, await pnpm(['templates'], env), 64, '“templates” takes a subcommand: apply, show');
  for (const args of [
    ['ingest', 'file', '--help'],
    ['ingest', 'backfill', '--help'],
    ['names', 'import', '--help'],
    ['engine', '--help'],
  ]) {
    const help = await pnpm(args, env);
    expect(t, help, 0, `usage: pnpm ${args[0]}`);
  }
  expect(t, await pnpm(['ingest', 'file', join(dir, 'nope.json')], env), 1, 'no such file or folder');
  expect(
    t,
    await pnpm(['ingest', 'ranges', 'rebuild', '--kind', 'transactions', '--ledger', '50000000'], env),
    1,
    'no transactions range holds ledger 50000000',
    'pnpm ingest ranges',
  );
});

t.test('honest reports: a repeated ledger, a link to nothing and a line larger than any ledger', async (t) => {
  const own = await createTestIndices(t);
  const env = { ES_INDEX_PREFIX: own.naming.prefix, ES_URL: target.config.es.url! };
  const recent = join(fixturesDir, 'ledgers', 'recent');
  const folder = join(dir, 'ledgers');
  mkdirSync(folder);
  // Ledger 83258110 twice (two renderings of it), a link to nothing, and an NDJSON file whose
  // second line is larger than any ledger (257 MB): each said, none ends the run.
  symlinkSync(join(recent, 'ledger-83258110.binary.json'), join(folder, 'a.json'));
  symlinkSync(join(recent, 'ledger-83258110.expanded.json'), join(folder, 'b.json'));
  symlinkSync(join(dir, 'nowhere.json'), join(folder, 'c.json'));
  const ndjson = openSync(join(folder, 'd.ndjson'), 'w');
  writeSync(ndjson, `${JSON.stringify(JSON.parse(readFileSync(join(recent, 'ledger-94084608.json'), 'utf8')))}\n`);
  const block = Buffer.alloc(16 * 1024 * 1024, 'a');
  for (let i = 0; i < 16; i += 1) writeSync(ndjson, block);
  writeSync(ndjson, 'a\n');
  closeSync(ndjson);

  const run = await pnpm(['ingest', 'file', folder], env);
  expect(
    t,
    run,
    1,
    'skipped c.json: a link to nothing',
    /not a ledger, skipped: d\.ndjson:2: a line of \d+ bytes, more than any ledger/,
    /indexed 2 ledgers, 123 transactions/,
    '1 ledgers read again and skipped: b.json (ledger 83258110)',
    '1 unreadable files or lines',
  );
  await target.client.indices.refresh({ index: `${own.naming.prefix}-*` });
  const transactions = await target.client.count({
    index: indexName(own.naming, 'transactions'),
  });
  t.equal(transactions.count, 123, 'the index holds the transactions the summary counted');

  const status = await pnpm(['ingest', 'status'], env);
  expect(
    t,
    status,
    0,
    'sources indexed: files (2 ledgers, last 94084608)',
    'showing files:',
    /files: last ledger 94084608, 2 ledgers/,
  );
  const ranges = await pnpm(['ingest', 'ranges', '--kind', 'transactions', '--json'], env);
  const listed = (JSON.parse(ranges.stdout) as { ranges: { documents: number }[] }).ranges;
  t.equal(
    listed.reduce((n, r) => n + r.documents, 0),
    123,
    'the ranges count transactions (not their nested rows)',
  );
});
