import { spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import t from 'tap';
import { createEngineClient, createLogger, repoRoot, ServerMetrics, SYNC_COMPRESS_LIMIT } from '@xle/core';
import { listenForTest } from '@xle/test-helpers';
import { createApp } from '../../src/index.js';
import { loadedIndices, runAllJobs } from '../fixtures/serve.js';

/**
 * How answers are served: negotiated compression (streams included), ETag / If-None-Match → 304,
 * Cache-Control by resource, and /metrics read with Prometheus's own text parser.
 */
const PAYMENT = 'B0DAF34D43E286943C5BBE79BA2CBDAC9C385E194FE2959DEAAFA4B4C71E505E';
const LEDGER = 83258110;

const target = await loadedIndices(t);
await runAllJobs(target);
const metrics = new ServerMetrics();
// The client a server makes: every engine call observed by the server's metrics.
const client = createEngineClient(target.config, {}, { observe: metrics.engineCall });
t.teardown(() => client.close());
const app = createApp({ config: target.config, client, logger: createLogger('serving-test', 'silent'), metrics });
const origin = await listenForTest(t, app.callback());
const base = `${origin}/api/v1`;

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request with node:http (fetch would decode the body and hide the encoding). */
function raw(method: string, url: string, headers: Record<string, string> = {}, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

t.test('compression: negotiated above 1 KiB, streamed answers included', async (t) => {
  const path = `${base}/ledger/${LEDGER}/transactions`;
  const plain = await raw('GET', path);
  const gzipped = await raw('GET', path, { 'Accept-Encoding': 'gzip' });
  t.equal(plain.headers['content-encoding'], undefined, 'no Accept-Encoding: identity');
  t.equal(gzipped.headers['content-encoding'], 'gzip');
  t.match(gzipped.headers.vary, /Accept-Encoding/);
  t.ok(gzipped.body.length < plain.body.length / 3, `${plain.body.length} B sent as ${gzipped.body.length} B`);
  t.same(gunzipSync(gzipped.body), plain.body, 'the same bytes once decoded');
  // A smaller answer is compressed in one call on the event loop, a larger one on the thread pool.
  t.ok(plain.body.length > SYNC_COMPRESS_LIMIT, 'the ledger page takes the thread-pool path');
  const tx = await raw('GET', `${base}/tx/${PAYMENT}`, { 'Accept-Encoding': 'gzip' });
  const txPlain = await raw('GET', `${base}/tx/${PAYMENT}`);
  t.equal(tx.headers['content-encoding'], 'gzip', `a ${txPlain.body.length} B answer is compressed in one call`);
  t.equal(tx.headers['content-type'], 'application/json; charset=utf-8', 'its type kept');
  t.same(gunzipSync(tx.body), txPlain.body);
  const brotli = await raw('GET', path, { 'Accept-Encoding': 'br;q=1, gzip;q=0.5' });
  t.equal(brotli.headers['content-encoding'], 'br', 'the client’s preferred coding');

  const small = await raw('GET', `${base}/ping`, { 'Accept-Encoding': 'gzip' });
  t.equal(small.headers['content-encoding'], undefined, `a ${small.body.length} B answer is sent as is`);

  const sql = await raw(
    'POST',
    `${base}/sql`,
    { 'Accept-Encoding': 'gzip', 'Content-Type': 'application/json' },
    JSON.stringify({ query: 'SELECT hash, ledger_index FROM transactions', format: 'csv' }),
  );
  t.equal(sql.status, 200);
  t.equal(sql.headers['content-encoding'], 'gzip', 'the streamed CSV export is compressed');
  const csv = gunzipSync(sql.body).toString('utf8');
  t.ok(csv.split('\n').length > 1000, `${csv.split('\n').length} CSV lines`);
});

t.test('ETag, If-None-Match and Cache-Control by resource', async (t) => {
  const tx = await raw('GET', `${base}/tx/${PAYMENT}`);
  const tag = tx.headers.etag as string;
  t.match(tag, /^W\/".+"$/, 'a weak ETag');
  t.equal(tx.headers['cache-control'], 'public, max-age=31536000, immutable', 'a validated transaction never changes');
  const again = await raw('GET', `${base}/tx/${PAYMENT}`, { 'If-None-Match': tag });
  t.equal(again.status, 304);
  t.equal(again.body.length, 0, 'no body with 304');
  t.equal(again.headers.etag, tag);
  const gzipped = await raw('GET', `${base}/tx/${PAYMENT}`, { 'If-None-Match': tag, 'Accept-Encoding': 'gzip' });
  t.equal(gzipped.status, 304, 'the same validator for every content coding');
  const other = await raw('GET', `${base}/tx/${PAYMENT}`, { 'If-None-Match': 'W/"something-else"' });
  t.equal(other.status, 200, 'another tag: the full answer');

  const policies: [string, string][] = [
    [`/ledger/${LEDGER}`, 'public, max-age=31536000, immutable'],
    [`/ledger/${LEDGER}/transactions`, 'public, max-age=31536000, immutable'],
    ['/ledgers', 'public, max-age=3'],
    ['/account/rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw', 'public, max-age=3'],
    ['/amendments', 'public, max-age=60, stale-while-revalidate=300'],
    ['/ping', 'no-cache'],
  ];
  for (const [path, expected] of policies) {
    const answer = await raw('GET', `${base}${path}`);
    t.equal(answer.status, 200, path);
    t.equal(answer.headers['cache-control'], expected, `${path}: ${expected}`);
    t.ok(answer.headers.etag, `${path} has an ETag`);
  }
  const missing = await raw('GET', `${base}/tx/${'AB'.repeat(32)}`);
  t.equal(missing.status, 404);
  t.equal(missing.headers.etag, undefined, 'errors carry no ETag');
  t.equal(missing.headers['cache-control'], undefined, 'nor a cache lifetime');
});

t.test('/metrics: Prometheus text, read by Prometheus’s own parser', async (t) => {
  await raw('GET', `${base}/tx/${PAYMENT}`);
  await raw('GET', `${base}/tx/${'AB'.repeat(32)}`);
  await raw('GET', `${base}/no/such/route`);
  const answer = await raw('GET', `${origin}/metrics`);
  t.equal(answer.status, 200);
  t.match(answer.headers['content-type'], /^text\/plain; version=0\.0\.4/);
  const parsed = spawnSync(`${repoRoot}.data/tools/prometheus-parse`, { input: answer.body, encoding: 'utf8' });
  t.equal(parsed.status, 0, `the official parser reads it${parsed.stderr === '' ? '' : `: ${parsed.stderr}`}`);
  type Family = { type: string; samples: { labels: Record<string, string>; value: number }[] };
  const families = JSON.parse(parsed.stdout) as Record<string, Family>;
  const requests = families.xle_http_requests_total;
  t.equal(requests?.type, 'COUNTER');
  const count = (route: string, status: string): number =>
    requests?.samples.find((s) => s.labels.route === route && s.labels.status === status)?.value ?? 0;
  t.ok(count('/api/v1/tx/:HASH', '200') >= 1, 'a 200 counted by its route template (no hash in the label)');
  t.ok(count('/api/v1/tx/:HASH', '404') >= 1, 'a 404 of the same route');
  t.ok(count('unmatched', '404') >= 1, 'a request no route took');
  t.notOk(
    requests?.samples.some((s) => s.labels.route?.includes(PAYMENT)),
    'no raw path in any label',
  );
  t.equal(families.xle_http_request_duration_seconds?.type, 'HISTOGRAM');
  const engine = families.xle_engine_request_duration_seconds;
  t.equal(engine?.type, 'HISTOGRAM');
  t.ok(
    engine?.samples.some((s) => s.labels.operation === '_search' && s.labels.outcome === 'ok'),
    'engine searches measured by operation',
  );
  const lag = families.xle_ingest_lag_seconds?.samples[0]?.value ?? 0;
  t.ok(lag > 86_400 * 300, `ingest lag: the fixture ledgers closed ${Math.round(lag / 86_400)} days ago`);
  const ages = families.xle_data_set_age_seconds?.samples ?? [];
  t.ok(
    ages.some((s) => s.labels.data_set === 'amendments' && s.value >= 0 && s.value < 3600),
    'the age of each computed data set',
  );
  // Earlier tests read PAYMENT several times: the first time a miss, the next ones answered from memory.
  const answers = families.xle_answer_cache_requests_total;
  t.equal(answers?.type, 'COUNTER');
  const result = (r: string): number => answers?.samples.find((s) => s.labels.result === r)?.value ?? 0;
  t.ok(result('hit') >= 1, `answers kept in memory: ${result('hit')} hits`);
  t.ok(result('miss') >= 1, `${result('miss')} misses (the unknown hash among them)`);
  t.ok(families.xle_process_resident_memory_bytes, "the process's own metrics");
  t.equal(answer.headers['x-ratelimit-limit'], undefined, 'not counted by any plan');
});
