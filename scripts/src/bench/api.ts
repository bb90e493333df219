#!/usr/bin/env node
/**
 * API overhead in the configuration users run: p50 / p99 latency of three lookups through the
 * REST API in the default access mode (plans) with a key of each plan and with no key (the free
 * plan), and in `open` mode for comparison, next to the same engine query sent directly to
 * Elasticsearch, all in one run:
 *
 *   pnpm bench:api [--requests N] [--free-requests N]
 *
 * Data: the real fixture ledgers, ingested into indices of a fresh prefix (deleted at the end).
 * Requests go one at a time, paced under each plan's per-second burst (the default limits), so
 * what is measured is the answer, not the limiter. Needs a running engine or ES_URL.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiKeyStore } from '@xle/access';
import { startServer } from '@xle/api';
import { createLogger, engineUrl, indexName, type Config, type RunningServer } from '@xle/core';
import { ingestLedgers, IngestEngine } from '@xle/ingester';
import { benchIndices, fixtureLedgers, numericOptions, percentile } from './common.js';

const { numbers } = numericOptions('pnpm bench:api [--requests N] [--free-requests N]', {
  requests: 1000,
  'free-requests': 200,
});
const REQUESTS = numbers.requests;

// The default configuration: plans mode, default limits; only the port and the log level differ.
const { config, client, naming, drop } = await benchIndices('api', { api: { port: 0 }, log: { level: 'silent' } });
const es = engineUrl(config).split(',')[0] as string;
const logger = createLogger('bench', 'silent');
await ingestLedgers(fixtureLedgers(), new IngestEngine(client, naming, logger), { source: 'bench' });
const keys = new ApiKeyStore(client, naming);
const pro = await keys.create('pro', 'bench:api');
const enterprise = await keys.create('enterprise', 'bench:api');
const plans = await startServer(config, logger);
const openConfig: Config = { ...config, access: { ...config.access, mode: 'open', search: 'open' } };
const open = await startServer(openConfig, logger);

/** Who asks, through which server, paced under which burst (requests per second). */
interface Side {
  name: string;
  server: RunningServer;
  headers: Record<string, string>;
  perSecond: number;
  requests: number;
}
const sides: Side[] = [
  {
    name: 'enterprise key',
    server: plans,
    headers: { 'X-API-Key': enterprise.key },
    perSecond: config.access.enterprisePerSecond,
    requests: REQUESTS,
  },
  {
    name: 'pro key',
    server: plans,
    headers: { 'X-API-Key': pro.key },
    perSecond: config.access.proPerSecond,
    requests: REQUESTS,
  },
  {
    name: 'anonymous (free)',
    server: plans,
    headers: {},
    perSecond: config.access.freePerSecond,
    requests: numbers['free-requests'],
  },
  { name: 'open mode', server: open, headers: {}, perSecond: config.access.enterprisePerSecond, requests: REQUESTS },
];
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

async function once(url: string, headers: Record<string, string>, body?: unknown): Promise<number> {
  const started = performance.now();
  const response = await fetch(
    url,
    body === undefined
      ? { headers }
      : { method: 'POST', body: JSON.stringify(body), headers: { ...headers, 'content-type': 'application/json' } },
  );
  const answer = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${answer.toString('utf8', 0, 300)}`);
  return performance.now() - started;
}

interface Latency {
  p50: number;
  p99: number;
}

/** One request at a time, `perSecond` at most (the rest of each slot is slept away). */
async function latency(
  requests: number,
  perSecond: number,
  url: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<Latency> {
  // 10 % under the burst: a timer may fire up to a millisecond early (libuv's cached loop time).
  const slot = 1000 / (perSecond * 0.9);
  const times: number[] = [];
  for (let i = 0; i < requests + 20; i += 1) {
    const ms = await once(url, headers, body);
    if (i >= 20) times.push(ms); // the first 20 warm up
    if (ms < slot) await sleep(slot - ms);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

const fmt = (l: Latency): string => `${l.p50.toFixed(2).padStart(8)} ${l.p99.toFixed(2).padStart(8)}`;
console.log(
  `API benchmark, default configuration (plans) and open mode: ${REQUESTS} requests per measure (${numbers['free-requests']} anonymous), one at a time, paced under each plan's burst; engine ${es}`,
);
console.log(`${'lookup'.padEnd(28)} ${'side'.padEnd(18)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}  overhead`);
try {
  for (const c of cases) {
    const direct = await latency(
      REQUESTS,
      config.access.enterprisePerSecond,
      `${es}${c.direct.path}`,
      {},
      c.direct.body,
    );
    console.log(`${c.name.padEnd(28)} ${'engine direct'.padEnd(18)} ${fmt(direct)}`);
    for (const side of sides) {
      const ours = await latency(side.requests, side.perSecond, `${side.server.url}${c.api}`, side.headers);
      console.log(
        `${''.padEnd(28)} ${side.name.padEnd(18)} ${fmt(ours)}  p50 +${(ours.p50 - direct.p50).toFixed(2)} ms, p99 x${(ours.p99 / direct.p99).toFixed(2)}`,
      );
    }
  }
} finally {
  await plans.close();
  await open.close();
  await drop();
}
