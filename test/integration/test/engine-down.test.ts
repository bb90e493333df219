import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import t from 'tap';
import { createEngineClient, createLogger, layoutOf, loadConfig } from '@xle/core';
import { startServer } from '@xle/api';
import { normalizeLedger } from '@xle/documents';
import { clusterFromConfig, pidFile, startCluster, stopCluster } from '@xle/engine';
import { IngestEngine, ingestLedgers } from '@xle/ingester';
import { listFixtureLedgers, readFixture } from '@xle/test-helpers';

/**
 * The engine stops under a running API (the default access mode) and comes back: while it is
 * down every route that needs it answers 503 ENGINE_UNAVAILABLE with Retry-After in under a
 * second (the breaker answers without trying the network); once it is back the same requests
 * answer as before, without restarting the API.
 */
const PORT = Number(process.env.TEST_DOWN_PORT ?? 9277);
const dataDir = join(tmpdir(), `xle-engine-down-${PORT}`);
const config = loadConfig({
  overrides: {
    engine: { port: PORT, transportPort: PORT + 100, dataDir, heap: '384m', nodes: 1 },
    // Time limits shorter than the defaults (2 s by id, 10 s a search), so the hung engine's first timeouts come soon.
    es: { url: `http://127.0.0.1:${PORT}`, indexPrefix: 'down', lookupTimeoutMs: 1000, requestTimeoutMs: 3000 },
    api: { port: 0 },
    access: { freePerSecond: 100000, freePerDay: 1000000 },
    log: { level: 'silent' },
  },
});
const logger = createLogger('engine-down-test', 'silent');
const cluster = clusterFromConfig(config);

t.setTimeout(300_000);
await stopCluster(cluster, 5000);
rmSync(dataDir, { recursive: true, force: true });
t.teardown(async () => {
  await stopCluster(cluster);
  rmSync(dataDir, { recursive: true, force: true });
});

interface Operation {
  path: string;
  parameters: { name: string; in: string; required?: boolean; schema: Record<string, unknown> }[];
}

/** Real values for the parameters whose schema is a format (checksummed addresses). */
const EXAMPLES: Record<string, string> = {
  ACCOUNT: 'rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw',
  AMM_ACCOUNT: 'rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw',
  LEDGER_INDEX: '83258110',
};

/** The routes whose answer the API keeps in memory (answerCache: one document that never changes). */
const KEPT_ANSWERS = new Set(['/api/v1/tx/{HASH}', '/api/v1/ledger/{LEDGER_INDEX}']);

/**
 * A valid value for a parameter: a real example (ours, else the document's), else one its schema
 * admits (pattern, bounds, enumeration).
 */
function validValue(name: string, schema: Record<string, unknown>, seed: number): string {
  const example = EXAMPLES[name] ?? (schema.examples as unknown[] | undefined)?.[0];
  if (example !== undefined) return String(example);
  const choices = (schema.anyOf as { const?: unknown }[] | undefined)
    ?.map((c) => c.const)
    .filter((c) => c !== undefined);
  if (choices !== undefined && choices.length > 0) return String(choices[0]);
  if (Array.isArray(schema.enum)) return String(schema.enum[0]);
  if (typeof schema.pattern === 'string')
    return fc.sample(fc.stringMatching(new RegExp(schema.pattern)), { seed, numRuns: 1 })[0] as string;
  if (schema.type === 'integer' || schema.type === 'number') return String(schema.minimum ?? 1);
  return 'x';
}

t.test('every route: 503 with Retry-After at once while the engine is down, answers again after', async (t) => {
  await startCluster(cluster);
  const client = createEngineClient(config);
  t.teardown(() => client.close());
  const engine = new IngestEngine(client, { prefix: 'down', network: config.network }, logger, layoutOf(config));
  await engine.applyTemplates();
  await ingestLedgers(
    listFixtureLedgers().map((file) => normalizeLedger(readFixture(file))),
    engine,
  );
  const api = await startServer(config, logger);
  t.teardown(() => api.close());

  // One valid request per GET operation of the API's own OpenAPI document.
  const document = (await (await fetch(`${api.url}/api/v1/openapi.json`)).json()) as {
    paths: Record<string, { get?: Operation & { 'x-engine'?: boolean } }>;
  };
  const requests: string[] = [];
  /** The requests of routes whose answer the API keeps in memory (answerCache): answered without the engine once read. */
  const kept = new Set<string>();
  for (const [template, item] of Object.entries(document.paths)) {
    const operation = item.get;
    if (operation === undefined) continue;
    let path = template;
    const query: string[] = [];
    for (const p of operation.parameters ?? []) {
      const value = encodeURIComponent(validValue(p.name, p.schema, 7));
      if (p.in === 'path') path = path.replace(`{${p.name}}`, value);
      else if (p.in === 'query' && p.required === true) query.push(`${p.name}=${value}`);
    }
    requests.push(query.length === 0 ? path : `${path}?${query.join('&')}`);
    if (KEPT_ANSWERS.has(template)) kept.add(path);
  }
  const before = new Map<string, number>();
  for (const path of requests) before.set(path, (await fetch(`${api.url}${path}`)).status);
  t.same(
    [...kept].map((path) => before.get(path)),
    [200, 200],
    'a transaction and a ledger read before the engine stops',
  );
  // Answered without the engine: the API's own documents.
  const engineFree = new Set(['/api/v1/openapi.json', '/api/v1/docs']);

  await stopCluster(cluster);
  const slow: string[] = [];
  const wrong: string[] = [];
  for (const path of requests) {
    if (engineFree.has(path)) continue;
    const started = performance.now();
    const answer = await fetch(`${api.url}${path}`);
    const ms = performance.now() - started;
    const body = (await answer.json()) as { error?: { code?: string } };
    if (ms >= 1000) slow.push(`${path}: ${ms.toFixed(0)} ms`);
    if (kept.has(path)) {
      if (answer.status !== 200) wrong.push(`${path}: ${answer.status}, not the answer kept in memory`);
    } else if (
      answer.status !== 503 ||
      answer.headers.get('retry-after') === null ||
      body.error?.code !== 'ENGINE_UNAVAILABLE'
    )
      wrong.push(`${path}: ${answer.status} ${JSON.stringify(body)}`);
  }
  t.ok(requests.length >= 30, `${requests.length} routes asked`);
  t.same(
    wrong,
    [],
    'every route that needs the engine: 503 ENGINE_UNAVAILABLE with Retry-After; an answer kept in memory: 200',
  );
  t.same(slow, [], 'each in under a second');
  for (const path of engineFree) t.equal((await fetch(`${api.url}${path}`)).status, 200, `${path} needs no engine`);

  await startCluster(cluster);
  const back = Date.now();
  let status = 0;
  while (Date.now() - back < 60_000 && status !== 200) {
    status = (await fetch(`${api.url}/api/v1/ledgers`)).status;
    if (status !== 200) await sleep(250);
  }
  t.equal(status, 200, `answering again ${Date.now() - back} ms after the engine started`);
  const after = new Map<string, number>();
  for (const path of requests) after.set(path, (await fetch(`${api.url}${path}`)).status);
  t.same(after, before, 'every route answers as it did before the engine stopped, with no restart');
});

t.test('an engine that hangs (SIGSTOP): 503 at once after the first timeouts, /metrics never waits', async (t) => {
  await startCluster(cluster);
  const api = await startServer(config, logger);
  t.teardown(() => api.close());
  const [node] = cluster.nodes;
  if (node === undefined) throw new Error('the test cluster has no node');
  const pid = Number(readFileSync(pidFile(node), 'utf8').trim());
  const routes = [
    '/api/v1/ledgers',
    `/api/v1/account/${EXAMPLES.ACCOUNT}`,
    '/api/v1/ledger/83258110',
    '/api/v1/ledger/83258110/transactions',
  ];
  for (const path of routes) t.equal((await fetch(`${api.url}${path}`)).status, 200, `${path} before`);

  process.kill(pid, 'SIGSTOP');
  let resumed = false;
  const resume = (): void => {
    if (!resumed) process.kill(pid, 'SIGCONT');
    resumed = true;
  };
  t.teardown(resume);
  // The first calls wait for their time limits; two in a row open the breaker.
  const first: string[] = [];
  for (let i = 0; i < 2; i += 1) {
    const started = performance.now();
    const answer = await fetch(`${api.url}${routes[i] as string}`);
    first.push(`${answer.status} after ${Math.round(performance.now() - started)} ms`);
  }
  t.pass(`the first calls: ${first.join(', ')}`);
  for (const path of routes) {
    const started = performance.now();
    const answer = await fetch(`${api.url}${path}`);
    const ms = performance.now() - started;
    const body = (await answer.json()) as { error?: { code?: string } };
    if (path === '/api/v1/ledger/83258110') {
      // Read before the engine stopped: kept in memory (answerCache), answered without it.
      t.equal(answer.status, 200, `${path}: the answer kept in memory while the engine hangs`);
      t.ok(ms < 1000, `${path} answered in ${ms.toFixed(0)} ms`);
      continue;
    }
    t.equal(answer.status, 503, `${path}: 503 while the engine hangs`);
    t.equal(body.error?.code, 'ENGINE_UNAVAILABLE');
    t.not(answer.headers.get('retry-after'), null, 'with Retry-After');
    t.ok(ms < 1000, `${path} answered in ${ms.toFixed(0)} ms`);
  }
  const scrape = performance.now();
  const metrics = await fetch(`${api.url}/metrics`);
  await metrics.text();
  const scrapeMs = performance.now() - scrape;
  t.equal(metrics.status, 200);
  t.ok(scrapeMs < 100, `/metrics answered in ${scrapeMs.toFixed(1)} ms`);

  resume();
  const back = Date.now();
  let status = 0;
  while (Date.now() - back < 60_000 && status !== 200) {
    status = (await fetch(`${api.url}/api/v1/ledgers`)).status;
    if (status !== 200) await sleep(250);
  }
  t.equal(status, 200, `answering again ${Date.now() - back} ms after SIGCONT`);
  for (const path of routes) t.equal((await fetch(`${api.url}${path}`)).status, 200, `${path} after, no restart`);
});
