#!/usr/bin/env node
/**
 * The chain of a request as it runs: which of the workspace's files it crosses, in the order it
 * first enters them, and how often it comes back into a file it had left. Beside a running quick
 * start (its engine and demo indices):
 *
 *   node scripts/dist/src/request-chain.js [--runs N] [PATH_OR_POST ...]
 *
 * Each request is answered by the API app in this process (the quick start's configuration, the
 * website mounted as `pnpm serve` mounts it). Files crossed: V8's precise coverage over one
 * request after warm-up (every function that ran, exactly). Order and re-entries: a CPU profile
 * sampled every microsecond over `--runs` requests, its call tree walked depth first; entering a
 * file of the workspace other than the caller's counts as a crossing, and entering one already
 * visited in that walk as a re-entry (a function shorter than the sampling interval may be
 * missed there, never in the coverage). Prints, for each request, its files and the two counts.
 */
import { Session } from 'node:inspector/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { createApp } from '@xle/api';
import { createEngineClient, createLogger, loadConfig, repoRoot } from '@xle/core';
import { siteMiddleware } from '@xle/site';

const { values, positionals } = parseArgs({
  options: { runs: { type: 'string', default: '300' } },
  allowPositionals: true,
});
const RUNS = Number(values.runs);
const REQUESTS =
  positionals.length > 0
    ? positionals
    : [
        'GET /api/v1/account/rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y/transactions?limit=20',
        'GET /api/v1/tx/B0DAF34D43E286943C5BBE79BA2CBDAC9C385E194FE2959DEAAFA4B4C71E505E',
        'POST /api/v1/sql {"query":"SELECT TransactionType, COUNT(*) AS n FROM transactions GROUP BY TransactionType","format":"csv"}',
      ];

const config = loadConfig({ overrides: { access: { mode: 'open', search: 'open' }, api: { answerCacheMb: 0 } } });
const client = createEngineClient(config);
const app = createApp({ config, client, logger: createLogger('request-chain', 'silent') }, { site: siteMiddleware });
const server = createServer(app.callback());
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

/** A request of the list: `GET /path` or `POST /path {json}`. */
async function send(request: string): Promise<void> {
  const [method = 'GET', rest = ''] = request.split(/ (.*)/s);
  const [path = '', body] = rest.split(/ (.*)/s);
  const answer = await fetch(`${base}${path}`, {
    method,
    ...(body === undefined ? {} : { body, headers: { 'content-type': 'application/json' } }),
  });
  await answer.arrayBuffer();
  if (answer.status !== 200) throw new Error(`${request}: ${answer.status}`);
}

/** A workspace source file of a script URL (`packages/api/dist/src/app.js` → `packages/api/src/app.ts`), or undefined. */
function sourceOf(url: string): string | undefined {
  const root = `file://${repoRoot}`;
  if (!url.startsWith(root) || url.includes('/node_modules/')) return undefined;
  const path = url.slice(root.length);
  if (!/^(packages|test|scripts)\//.test(path) || path.startsWith('scripts/')) return undefined;
  return path.replace('/dist/src/', '/src/').replace(/\.js$/, '.ts');
}

interface ProfileNode {
  id: number;
  callFrame: { url: string };
  children?: number[];
}

const session = new Session();
session.connect();
await session.post('Profiler.enable');
for (const request of REQUESTS) {
  for (let i = 0; i < 30; i += 1) await send(request);
  // Files crossed: every function that ran during one request.
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  await session.post('Profiler.takePreciseCoverage');
  await send(request);
  const coverage = (await session.post('Profiler.takePreciseCoverage')) as {
    result: { url: string; functions: { ranges: { count: number }[] }[] }[];
  };
  await session.post('Profiler.stopPreciseCoverage');
  const crossed = new Set<string>();
  for (const script of coverage.result) {
    const file = sourceOf(script.url);
    if (file !== undefined && script.functions.some((f) => (f.ranges[0]?.count ?? 0) > 0)) crossed.add(file);
  }
  // Order and re-entries: the sampled call tree, depth first.
  await session.post('Profiler.setSamplingInterval', { interval: 1 });
  await session.post('Profiler.start');
  for (let i = 0; i < RUNS; i += 1) await send(request);
  const { profile } = (await session.post('Profiler.stop')) as { profile: { nodes: ProfileNode[] } };
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const order: string[] = [];
  let reentries = 0;
  const walk = (id: number, current: string | undefined): void => {
    const node = nodes.get(id);
    if (node === undefined) return;
    const file = sourceOf(node.callFrame.url) ?? current;
    if (file !== undefined && file !== current) {
      if (order.includes(file)) reentries += 1;
      else order.push(file);
    }
    for (const child of node.children ?? []) walk(child, file);
  };
  walk(profile.nodes[0]?.id ?? 1, undefined);
  console.log(`\n${request}`);
  console.log(`  files crossed (coverage): ${crossed.size}; re-entries (profile): ${reentries}`);
  for (const file of order) console.log(`  ${file}`);
  const unsampled = [...crossed].filter((f) => !order.includes(f)).sort();
  if (unsampled.length > 0) console.log(`  also ran, too short to be sampled: ${unsampled.join(', ')}`);
}
session.disconnect();
server.close();
await client.close();
