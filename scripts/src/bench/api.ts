#!/usr/bin/env node
/**
 * API overhead: p50 / p99 latency and throughput of three lookups through the REST API, next to
 * the same engine query sent directly to Elasticsearch, in one run:
 *
 *   pnpm bench:api [--requests N] [--concurrency C]
 *
 * Data: the real fixture ledgers, ingested into indices of a fresh prefix (deleted at the end).
 * Latency is measured one request at a time; throughput with C requests in flight. Needs a
 * running engine (`pnpm engine start`) or ES_URL.
 */
import { startServer } from '@xle/api';
import { createLogger, engineUrl, indexName } from '@xle/core';
import { ingestLedgers, IngestEngine } from '@xle/ingester';
import { benchIndices, fixtureLedgers, numericOptions, percentile } from './common.js';

const { numbers } = numericOptions('pnpm bench:api [--requests N] [--concurrency C]', {
  requests: 2000,
  concurrency: 8,
});
const REQUESTS = numbers.requests;
const CONCURRENCY = numbers.concurrency;

// Access limits off: per-second bursts would otherwise measure the limiter, not the API.
const { config, client, naming, drop } = await benchIndices('api', {
  api: { port: 0 },
  log: { level: 'silent' },
  access: { mode: 'open', search: 'open' },
});
const es = engineUrl(config);
const logger = createLogger('bench', 'silent');
await ingestLedgers(fixtureLedgers(), new IngestEngine(client, naming, logger), { source: 'bench' });
const api = await startServer(config, logger);

const TX = 'B0DAF34D43E286943C5BBE79BA2CBDAC9C385E194FE2959DEAAFA4B4C71E505E';
const ACCOUNT = 'rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y';
const maxLedger = 94084608;

interface Case {
  name: string;
  api: string;
  direct: { path: string; body?: unknown };
}
const cases: Case[] = [
  {
    name: 'tx by hash',
    api: `/api/v1/tx/${TX}`,
    direct: { path: `/${indexName(naming, 'transactions')}/_search`, body: { query: { term: { hash: TX } }, size: 1 } },
  },
  {
    name: 'account info',
    api: `/api/v1/account/${ACCOUNT}`,
    direct: { path: `/${indexName(naming, 'accounts')}/_doc/${ACCOUNT}` },
  },
  {
    name: 'account transactions (20)',
    api: `/api/v1/account/${ACCOUNT}/transactions?limit=20`,
    direct: {
      path: `/${indexName(naming, 'transactions')}/_search`,
      body: {
        query: {
          bool: { filter: [{ term: { _accounts: ACCOUNT } }, { range: { ledger_index: { lte: maxLedger } } }] },
        },
        sort: [{ ledger_index: { order: 'desc' } }, { 'meta.TransactionIndex': { order: 'desc' } }],
        size: 21,
        track_total_hits: false,
      },
    },
  },
];

async function once(url: string, body?: unknown): Promise<number> {
  const started = performance.now();
  const response = await fetch(
    url,
    body === undefined
      ? {}
      : { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } },
  );
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  return performance.now() - started;
}

async function latency(url: string, body?: unknown): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < 100; i += 1) await once(url, body); // warm-up
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i += 1) times.push(await once(url, body));
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

async function throughput(url: string, body?: unknown): Promise<number> {
  let left = REQUESTS;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left > 0) {
        left -= 1;
        await once(url, body);
      }
    }),
  );
  return REQUESTS / ((performance.now() - started) / 1000);
}

console.log(`API benchmark: ${REQUESTS} requests per measure, throughput with ${CONCURRENCY} in flight; engine ${es}`);
console.log(
  `${'lookup'.padEnd(28)} ${'side'.padEnd(7)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'req/s'.padStart(8)}`,
);
try {
  for (const c of cases) {
    // Alternate the sides so neither gets a warmer machine.
    const direct = await latency(`${es}${c.direct.path}`, c.direct.body);
    const ours = await latency(`${api.url}${c.api}`);
    const directRate = await throughput(`${es}${c.direct.path}`, c.direct.body);
    const oursRate = await throughput(`${api.url}${c.api}`);
    const line = (side: string, l: { p50: number; p99: number }, rate: number): string =>
      `${c.name.padEnd(28)} ${side.padEnd(7)} ${l.p50.toFixed(2).padStart(8)} ${l.p99.toFixed(2).padStart(8)} ${Math.round(rate).toString().padStart(8)}`;
    console.log(line('direct', direct, directRate));
    console.log(line('api', ours, oursRate));
    console.log(
      `${''.padEnd(28)} overhead: p50 +${(ours.p50 - direct.p50).toFixed(2)} ms, p99 x${(ours.p99 / direct.p99).toFixed(2)}, throughput ${((oursRate / directRate) * 100).toFixed(0)} %`,
    );
  }
} finally {
  await api.close();
  await drop();
}
