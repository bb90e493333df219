#!/usr/bin/env node
/**
 * API overhead in the configuration users run: p50 / p99 latency and CPU per request of three
 * lookups through the REST API in the default access mode (plans) with a key of each plan and
 * with no key (the free plan), and in `open` mode for comparison, next to the same engine
 * requests sent directly to Elasticsearch, interleaved request by request, all in one run:
 *
 *   pnpm bench:api [--requests N] [--free-requests N] [--warmup N] [--rewarm N] [--profile DIR]
 *
 * Ids are distinct request by request (every fixture transaction, every indexed account), and the
 * servers of these measures run with the answer cache off (the fixtures' ids come round again
 * within the minute an answer is kept); a last measure asks one transaction again and again of a
 * server configured by default, whose answer then comes from memory. Beside
 * the API, two floors, each in its own process, sending the engine requests the API sends for the
 * same id (floor-steps.ts), measured in the same interleaving:
 * - a bare forwarding proxy (forwarding-proxy.ts: node:http, no framework, no work of its own)
 *   passing the engine's answer through: what one more HTTP hop costs on this machine at that pace;
 * - the API's own stack and nothing else (stack-floor.ts: Koa, @koa/router, the product's engine
 *   client and compression, the answer parsed and serialised again): what the chosen stack costs
 *   before the API does anything of its own (access plans, validation, shaping, ETag, log, metrics).
 * CPU µs per request is read from /proc for each process over the same rounds (the engine's: its
 * JVMs' over the rounds, divided among the five sides); `own` is the API's minus the stack floor's.
 * A second stack floor, measured in the same rounds, gives an A/A difference: the resolution of
 * `own` in that run (what two identical processes differ by).
 *
 * Data: the real fixture ledgers, ingested into indices of a fresh prefix (deleted at the end).
 * Each API runs in its own process (`packages/site/dist/src/server.js`, default log level), as users
 * run it. Requests go one at a time, paced under each plan's per-second burst (the default limits), so
 * what is measured is the answer, not the limiter. Every server is first warmed with `--warmup`
 * requests over the three lookups, interleaved, and each side's servers again with `--rewarm`
 * at its own pace right before it is measured: the steady state, not V8's first minutes or code
 * dropped while idle, is what users meet. With `--profile DIR`, the plans server and the stack
 * floor run under V8's sampling profiler, and the self time of each during the Enterprise-key
 * measures is printed by place and function next to each other (profile.ts). Needs a running
 * engine or ES_URL.
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { ApiKeyStore } from '@xle/access';
import { createLogger, engineUrl, indexName, rangeAlias } from '@xle/core';
import { ingestLedgers, IngestEngine } from '@xle/ingester';
import {
  benchIndices,
  cpuMicros,
  fixtureLedgers,
  localPlacement,
  numericOptions,
  pairedLatency,
  startApiProcess,
  startServerProcess,
  type ApiProcess,
  type Latency,
  type TimedRequest,
} from './common.js';
import { floorPath, type FloorStep } from './floor-steps.js';
import { monotonicMicros, profileIn, profileSummary } from './profile.js';

const USAGE = 'pnpm bench:api [--requests N] [--free-requests N] [--warmup N] [--rewarm N] [--profile DIR]';
const { numbers, strings } = numericOptions(
  USAGE,
  { requests: 1000, 'free-requests': 200, warmup: 6000, rewarm: 1000 },
  { profile: { type: 'string' } },
);
const REQUESTS = numbers.requests;

// The default configuration: plans mode, default limits; only the port and the log level differ.
const { config, client, naming, drop } = await benchIndices('api', {});
const es = engineUrl(config).split(',')[0] as string;
const logger = createLogger('bench', 'silent');
const ledgers = fixtureLedgers();
await ingestLedgers(ledgers, new IngestEngine(client, naming, logger), { source: 'bench' });
const keys = new ApiKeyStore(client, naming);
const pro = await keys.create('pro', 'bench:api');
const enterprise = await keys.create('enterprise', 'bench:api');
// Each server in its own process, as users run it: the client's work (here) and the server's
// (there) do not share a thread, as they do not in production. With --profile, the plans server
// runs under V8's sampling profiler, which writes its profile into that folder when it exits.
const profileDir = strings.profile === undefined ? undefined : mkdtempSync(join(strings.profile, 'bench-api-'));
const profiled = (name: string): string[] =>
  profileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, name)}`];
// The lookups by distinct id are measured with the answer cache off: the fixtures' 1,236
// transactions come round again well within the minute an answer is kept, and the figures
// are the work of a request that reaches the engine. A third server, as configured by default,
// measures an answer kept in memory apart.
const UNCACHED = { API_ANSWER_CACHE_MB: '0' };
const plans = await startApiProcess(config, UNCACHED, profiled('api'));
const open = await startApiProcess(config, { ...UNCACHED, ACCESS_MODE: 'open', SEARCH_ACCESS: 'open' });
const cachedApi = await startApiProcess(config, {});
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
// Distinct ids, request by request: every transaction of the fixture ledgers, and every account
// the ingest wrote, in a fixed shuffled order. The answer cache is off on these servers (UNCACHED);
// the label cache (30 s) and the engine's own caches see what they would see under real traffic.
const transactions = ledgers.flatMap((l) =>
  l.transactions.map((tx) => ({ hash: String((tx as { hash: string }).hash), ledger: l.ledger_index })),
);
const accounts = (
  await client.search({ index: indexName(naming, 'accounts'), size: 10_000, _source: false, sort: ['_doc'] })
).hits.hits.map((h) => h._id as string);
const pick = <T>(list: readonly T[], round: number): T => list[(round * 7919) % list.length] as T;
const ACCOUNT = 'rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y';
const maxLedger = Math.max(...ledgers.map((l) => l.ledger_index));

interface Case {
  name: string;
  api: (round: number) => string;
  /** The engine requests the API sends for the same id: the direct measure sends them in turn, as do the floors. */
  direct: (round: number) => FloorStep[];
}
const cases: Case[] = [
  {
    name: 'tx by hash',
    api: (round) => `/api/v1/tx/${pick(transactions, round).hash}`,
    // A hash's locator, then the document from its ledger's range (the API's reads by id).
    direct: (round) => {
      const { hash, ledger } = pick(transactions, round);
      return [
        { path: `/${indexName(naming, 'locators')}/_doc/${hash}` },
        { path: `/${rangeAlias(naming, 'transactions', ledger)}/_doc/${hash}` },
      ];
    },
  },
  {
    name: 'account info',
    api: (round) => `/api/v1/account/${pick(accounts, round)}`,
    direct: (round) => [{ path: `/${indexName(naming, 'accounts')}/_doc/${pick(accounts, round)}` }],
  },
  {
    name: 'account transactions (20)',
    api: () => `/api/v1/account/${ACCOUNT}/transactions?limit=20`,
    direct: () => [
      {
        path: `/${indexName(naming, 'transactions')}/_search`,
        method: 'POST',
        body: JSON.stringify({
          query: {
            bool: { filter: [{ term: { _accounts: ACCOUNT } }, { range: { ledger_index: { lte: maxLedger } } }] },
          },
          sort: [{ ledger_index: { order: 'desc' } }, { 'meta.TransactionIndex': { order: 'desc' } }],
          size: 21,
          track_total_hits: false,
        }),
      },
    ],
  },
];

/** One transaction again and again: after its first time, its answer comes from the API's memory. */
const [byHash] = cases as [Case, ...Case[]];
const kept: Case = {
  name: 'tx by hash, the same id each time (the answer cache, on by default)',
  api: () => byHash.api(0),
  direct: () => byHash.direct(0),
};

const floor = await startServerProcess(new URL('./forwarding-proxy.js', import.meta.url).pathname, {
  FORWARD_ENGINE: es,
});
const stackFloor = (nodeArgs: string[] = []): Promise<ApiProcess> =>
  startServerProcess(new URL('./stack-floor.js', import.meta.url).pathname, { ES_URL: engineUrl(config) }, nodeArgs);
const stack = await stackFloor(profiled('stack'));
// The same stack floor twice, measured in the same rounds: what their CPU per request differs by
// (an A/A comparison) is the resolution of `own` on this machine in this run.
const twin = await stackFloor();
const engineCpu = localPlacement(config).engineCpuSeconds;
const directRequests = (steps: FloorStep[]): TimedRequest[] =>
  steps.map((step) => ({
    url: `${es}${step.path}`,
    init:
      step.body === undefined
        ? {}
        : { method: step.method ?? 'POST', body: step.body, headers: { 'content-type': 'application/json' } },
  }));

const fmt = (l: Latency): string => `${l.p50.toFixed(2).padStart(8)} ${l.p99.toFixed(2).padStart(8)}`;
const us = (n: number): string => n.toFixed(0).padStart(5);
console.log(
  `API benchmark, default configuration (plans) and open mode: ${REQUESTS} requests per measure (${numbers['free-requests']} anonymous), distinct ids (then one id again and again, its answer kept), one at a time, paced under each plan's burst, after ${numbers.warmup} warm-up requests per server; engine ${es}`,
);
console.log(
  `  ${'side'.padEnd(18)} ${'API p50'.padStart(8)} ${'API p99'.padStart(8)} ${'ES p50'.padStart(8)} ${'ES p99'.padStart(8)}  overhead (floors at the same pace: a bare proxy's; the stack's, Koa + router + engine client + compression alone)`,
);
console.log(
  `  ${''.padEnd(18)} CPU µs per request (from /proc, same rounds): API, stack floor, bare proxy, engine (per side, the five sides' mean); own = API - stack floor; A/A = a second stack floor - the first (the resolution of own)`,
);
/** Per case, the monotonic window of its profiled measure (the Enterprise key's). */
const windows = new Map<string, { window: [number, number]; requests: number }>();
/** One side's measure of one lookup: latency next to the direct query and the floors, CPU per request of each. */
async function measure(c: Case, side: Side): Promise<void> {
  const pids = {
    api: side.server.child.pid,
    stack: stack.child.pid,
    twin: twin.child.pid,
    proxy: floor.child.pid,
  } as Record<string, number>;
  const makers = {
    engine: (round: number) => directRequests(c.direct(round)),
    ours: (round: number) => ({ url: `${side.server.url}${c.api(round)}`, init: { headers: side.headers } }),
    proxy: (round: number) => ({ url: `${floor.url}${floorPath(c.direct(round))}` }),
    bare: (round: number) => ({ url: `${stack.url}${floorPath(c.direct(round))}` }),
    twin: (round: number) => ({ url: `${twin.url}${floorPath(c.direct(round))}` }),
  };
  // The side's servers warmed again at its pace (the previous side may have left them idle).
  await pairedLatency(Math.min(numbers.rewarm, side.requests), side.perSecond, makers);
  const before = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuMicros(pid)]));
  const engineBefore = engineCpu();
  const started = monotonicMicros();
  // Each side next to its own direct measure, interleaved request by request.
  const { ours, engine, proxy, bare } = await pairedLatency(side.requests, side.perSecond, makers);
  const rounds = side.requests + 20;
  if (side.server === plans && side.headers['X-API-Key'] === enterprise.key)
    windows.set(c.name, { window: [started, monotonicMicros()], requests: rounds });
  const cpu = (k: string): number => (cpuMicros(pids[k] as number) - (before[k] as number)) / rounds;
  const engineAfter = engineCpu();
  const engineUs =
    engineBefore === undefined || engineAfter === undefined
      ? undefined
      : ((engineAfter - engineBefore) * 1e6) / (rounds * Object.keys(makers).length);
  const over = (l: Latency): string => {
    const d = l.p50 - engine.p50;
    return `${d < 0 ? '' : '+'}${d.toFixed(2)}`;
  };
  const ratio = (l: Latency): string => `x${(l.p99 / engine.p99).toFixed(2)}`;
  console.log(
    `  ${side.name.padEnd(18)} ${fmt(ours)} ${fmt(engine)}  p50 ${over(ours)} ms (floors ${over(proxy)}, ${over(bare)}), p99 ${ratio(ours)} (floors ${ratio(proxy)}, ${ratio(bare)})`,
  );
  console.log(
    `  ${''.padEnd(18)} CPU µs: API ${us(cpu('api'))}, stack ${us(cpu('stack'))}, proxy ${us(cpu('proxy'))}, engine ${engineUs === undefined ? '    ?' : us(engineUs)}; own ${us(cpu('api') - cpu('stack'))}; A/A (stack twin - stack) ${us(cpu('twin') - cpu('stack'))}`,
  );
}

try {
  // Warm every server over every lookup, interleaved at the pace an Enterprise key may go: a
  // server left idle while others are warmed is slower again when it is measured (measured: 4.1 ms
  // of CPU per request after 90 s idle, 2.7 ms warm; V8 drops code it has not run lately).
  for (const c of cases)
    await pairedLatency(Math.ceil(numbers.warmup / cases.length), config.access.enterprisePerSecond, {
      plans: (round) => ({ url: `${plans.url}${c.api(round)}`, init: { headers: { 'X-API-Key': enterprise.key } } }),
      cached: (round) => ({
        url: `${cachedApi.url}${c.api(round)}`,
        init: { headers: { 'X-API-Key': enterprise.key } },
      }),
      open: (round) => ({ url: `${open.url}${c.api(round)}` }),
      proxy: (round) => ({ url: `${floor.url}${floorPath(c.direct(round))}` }),
      bare: (round) => ({ url: `${stack.url}${floorPath(c.direct(round))}` }),
      twin: (round) => ({ url: `${twin.url}${floorPath(c.direct(round))}` }),
    });
  for (const c of cases) {
    console.log(c.name);
    for (const side of sides) await measure(c, side);
  }
  // The answer cache on, as configured by default: one transaction asked again and again, answered
  // from memory after its first time (the floors and the direct query still read the engine).
  console.log(kept.name);
  await measure(kept, {
    name: 'enterprise key',
    server: cachedApi,
    headers: { 'X-API-Key': enterprise.key },
    perSecond: config.access.enterprisePerSecond,
    requests: REQUESTS,
  });
} finally {
  await plans.close();
  await open.close();
  await cachedApi.close();
  await floor.close();
  await stack.close();
  await twin.close();
  await drop();
}
if (profileDir !== undefined) {
  const [api, floorProfile] = [profileIn(join(profileDir, 'api')), profileIn(join(profileDir, 'stack'))];
  console.log(
    `CPU profiles of the plans server and the stack floor (${profileDir}), during each lookup's Enterprise-key measure:`,
  );
  for (const [name, { window, requests }] of windows) {
    console.log(name);
    for (const line of profileSummary(api, floorProfile, window, requests)) console.log(line);
  }
}
