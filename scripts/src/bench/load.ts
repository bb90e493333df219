#!/usr/bin/env node
/**
 * Load: many connections against one API process in the default configuration (plans mode,
 * default limits), on loopback, for a bounded time:
 *
 *   pnpm bench:load [--seconds S] [--connections C]
 *
 * Half the connections carry an Enterprise key, half none (the free plan of 127.0.0.1); each
 * cycles over tx by hash, account info and a page of account transactions on the real fixture
 * ledgers. Prints, per half: requests/s answered 200, p50 / p99 latency, the 429s (expected: the
 * per-second bursts and the daily quota refuse most of a flood), and any other status or socket
 * error (expected: none); and the API process's RSS at the start and the end.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { ApiKeyStore } from '@xle/access';
import { createLogger, engineUrl, repoRoot } from '@xle/core';
import { ingestLedgers, IngestEngine } from '@xle/ingester';
import { benchIndices, fixtureLedgers, mb, numericOptions } from './common.js';

const { numbers } = numericOptions('pnpm bench:load [--seconds S] [--connections C]', {
  seconds: 30,
  connections: 64,
});
if (numbers.seconds < 1 || numbers.seconds > 600 || numbers.connections < 2) {
  console.error('--seconds takes 1 to 600, --connections at least 2');
  process.exit(64);
}

const { config, client, naming, drop } = await benchIndices('load', { log: { level: 'silent' } });
await ingestLedgers(fixtureLedgers(), new IngestEngine(client, naming, createLogger('bench', 'silent')), {
  source: 'bench',
});
const { key } = await new ApiKeyStore(client, naming).create('enterprise', 'bench:load');

// The API as its own process, so its RSS is its own.
const api = spawn(process.execPath, [`${repoRoot}packages/site/dist/src/server.js`], {
  env: {
    ...process.env,
    ES_URL: engineUrl(config),
    ES_INDEX_PREFIX: naming.prefix,
    XLE_NETWORK: naming.network,
    API_HOST: '127.0.0.1',
    API_PORT: '0',
    LOG_LEVEL: 'info',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
let url = '';
for await (const line of createInterface({ input: api.stdout })) {
  url = (JSON.parse(line) as { url?: string }).url ?? '';
  if (url !== '') break;
}
api.stdout.resume();
const rss = (): number => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${api.pid}/status`, 'utf8'))?.[1]) * 1024;

const TX = 'B0DAF34D43E286943C5BBE79BA2CBDAC9C385E194FE2959DEAAFA4B4C71E505E';
const ACCOUNT = 'rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y';
const paths = [`/api/v1/tx/${TX}`, `/api/v1/account/${ACCOUNT}`, `/api/v1/account/${ACCOUNT}/transactions?limit=20`];

function run(headers: Record<string, string>, connections: number): Promise<autocannon.Result> {
  return autocannon({
    url,
    connections,
    duration: numbers.seconds,
    headers,
    requests: paths.map((path) => ({ method: 'GET', path })),
  });
}

try {
  // Warm-up, then the measured run.
  await run({ 'X-API-Key': key }, 4).catch(() => undefined);
  const startRss = rss();
  const half = Math.floor(numbers.connections / 2);
  console.log(
    `load: ${numbers.connections} connections for ${numbers.seconds} s on ${url} (default configuration: plans mode, default limits); API RSS at start ${mb(startRss)}`,
  );
  const [keyed, anonymous] = await Promise.all([run({ 'X-API-Key': key }, half), run({}, numbers.connections - half)]);
  const endRss = rss();
  for (const [name, result] of [
    ['enterprise key', keyed],
    ['anonymous (free)', anonymous],
  ] as const) {
    const codes = Object.fromEntries(
      Object.entries((result as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {}).map(
        ([code, stat]) => [code, stat.count],
      ),
    );
    const ok = codes['200'] ?? 0;
    const limited = codes['429'] ?? 0;
    const other = Object.entries(codes).filter(([code]) => code !== '200' && code !== '429');
    console.log(
      `${name.padEnd(18)} ${Math.round(ok / numbers.seconds)} req/s answered 200, ${Math.round(result.requests.average)} req/s in all; latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms; 429: ${limited}; other statuses: ${other.length === 0 ? 'none' : JSON.stringify(Object.fromEntries(other))}; socket errors ${result.errors}, timeouts ${result.timeouts}`,
    );
  }
  console.log(`API RSS: ${mb(startRss)} at the start, ${mb(endRss)} at the end`);
} finally {
  api.kill('SIGTERM');
  await drop();
}
