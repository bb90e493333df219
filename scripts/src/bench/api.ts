#!/usr/bin/env node
/**
 * API overhead in the configuration users run: p50 / p99 latency of three lookups through the
 * REST API in the default access mode (plans) with a key of each plan and with no key (the free
 * plan), and in `open` mode for comparison, next to the same engine query sent directly to
 * Elasticsearch, interleaved request by request, all in one run:
 *
 *   pnpm bench:api [--requests N] [--free-requests N] [--warmup N]
 *
 * Beside them, two floors, each in its own process, sending the same engine query and measured in
 * the same interleaving:
 * - a bare forwarding proxy (forwarding-proxy.ts: node:http, no framework, no work of its own)
 *   passing the engine's answer through: what one more HTTP hop costs on this machine at that pace;
 * - the API's own stack and nothing else (stack-floor.ts: Koa, @koa/router, the product's engine
 *   client and compression, the answer parsed and serialised again): what the chosen stack costs
 *   before the API does anything of its own (access plans, validation, shaping, ETag, log, metrics).
 *
 * Data: the real fixture ledgers, ingested into indices of a fresh prefix (deleted at the end).
 * Each API runs in its own process (`packages/api/dist/src/server.js`, default log level), as users
 * run it. Requests go one at a time, paced under each plan's per-second burst (the default limits), so
 * what is measured is the answer, not the limiter. Each server is first warmed with `--warmup`
 * requests over the three lookups (see warmUp): the steady state, not V8's first minutes, is what
 * users meet. Needs a running engine or ES_URL.
 */
import { ApiKeyStore } from '@xle/access';
import { createLogger, engineUrl, indexName } from '@xle/core';
import { ingestLedgers, IngestEngine } from '@xle/ingester';
import {
  benchIndices,
  fixtureLedgers,
  numericOptions,
  pairedLatency,
  startApiProcess,
  startServerProcess,
  warmUp,
  type ApiProcess,
  type Latency,
  type TimedRequest,
} from './common.js';

const { numbers } = numericOptions('pnpm bench:api [--requests N] [--free-requests N] [--warmup N]', {
  requests: 1000,
  'free-requests': 200,
  warmup: 6000,
});
const REQUESTS = numbers.requests;

// The default configuration: plans mode, default limits; only the port and the log level differ.
const { config, client, naming, drop } = await benchIndices('api', {});
const es = engineUrl(config).split(',')[0] as string;
const logger = createLogger('bench', 'silent');
await ingestLedgers(fixtureLedgers(), new IngestEngine(client, naming, logger), { source: 'bench' });
const keys = new ApiKeyStore(client, naming);
const pro = await keys.create('pro', 'bench:api');
const enterprise = await keys.create('enterprise', 'bench:api');
// Each server in its own process, as users run it: the client's work (here) and the server's
// (there) do not share a thread, as they do not in production.
const plans = await startApiProcess(config);
const open = await startApiProcess(config, { ACCESS_MODE: 'open', SEARCH_ACCESS: 'open' });

/** Who asks, through which server, paced under which burst (requests per second). */
interface Side {
  name: string;
  server: ApiProcess;
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

const forwardRoutes = JSON.stringify(
  cases.map((c) => ({
    ...c.direct,
    ...(c.direct.body === undefined ? {} : { method: 'POST', body: JSON.stringify(c.direct.body) }),
  })),
);
const floor = await startServerProcess(new URL('./forwarding-proxy.js', import.meta.url).pathname, {
  FORWARD_ENGINE: es,
  FORWARD_ROUTES: forwardRoutes,
});
const stack = await startServerProcess(new URL('./stack-floor.js', import.meta.url).pathname, {
  ES_URL: engineUrl(config),
  FORWARD_ROUTES: forwardRoutes,
});

const fmt = (l: Latency): string => `${l.p50.toFixed(2).padStart(8)} ${l.p99.toFixed(2).padStart(8)}`;
console.log(
  `API benchmark, default configuration (plans) and open mode: ${REQUESTS} requests per measure (${numbers['free-requests']} anonymous), one at a time, paced under each plan's burst, after ${numbers.warmup} warm-up requests per server; engine ${es}`,
);
console.log(
  `  ${'side'.padEnd(18)} ${'API p50'.padStart(8)} ${'API p99'.padStart(8)} ${'ES p50'.padStart(8)} ${'ES p99'.padStart(8)}  overhead (floors at the same pace: a bare proxy's; the stack's, Koa + router + engine client + compression alone)`,
);
try {
  // Warm each server over every lookup, at the fastest pace its callers may go (an Enterprise key).
  for (const { server, perSecond } of [
    { server: plans, perSecond: config.access.enterprisePerSecond },
    { server: open, perSecond: Infinity },
  ]) {
    const headers: Record<string, string> = server === plans ? { 'X-API-Key': enterprise.key } : {};
    await warmUp(
      numbers.warmup,
      perSecond,
      cases.map((c) => () => ({ url: `${server.url}${c.api}`, init: { headers } })),
    );
  }
  for (const server of [floor, stack])
    await warmUp(
      numbers.warmup,
      Infinity,
      cases.map((_, i) => () => ({ url: `${server.url}/${i}` })),
    );
  for (const [i, c] of cases.entries()) {
    console.log(c.name);
    const direct: TimedRequest = {
      url: `${es}${c.direct.path}`,
      init:
        c.direct.body === undefined
          ? {}
          : { method: 'POST', body: JSON.stringify(c.direct.body), headers: { 'content-type': 'application/json' } },
    };
    for (const side of sides) {
      // Each side next to its own direct measure, interleaved request by request.
      const { ours, engine, proxy, bare } = await pairedLatency(side.requests, side.perSecond, {
        engine: () => direct,
        ours: () => ({ url: `${side.server.url}${c.api}`, init: { headers: side.headers } }),
        proxy: () => ({ url: `${floor.url}/${i}` }),
        bare: () => ({ url: `${stack.url}/${i}` }),
      });
      const over = (l: Latency): string => `+${(l.p50 - engine.p50).toFixed(2)}`;
      const ratio = (l: Latency): string => `x${(l.p99 / engine.p99).toFixed(2)}`;
      console.log(
        `  ${side.name.padEnd(18)} ${fmt(ours)} ${fmt(engine)}  p50 ${over(ours)} ms (floors ${over(proxy)}, ${over(bare)}), p99 ${ratio(ours)} (floors ${ratio(proxy)}, ${ratio(bare)})`,
      );
    }
  }
} finally {
  await plans.close();
  await open.close();
  await floor.close();
  await stack.close();
  await drop();
}
