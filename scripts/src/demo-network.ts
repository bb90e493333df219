#!/usr/bin/env node
/**
 * The demo's network data sets from recorded mainnet answers (no XRPL network is reachable from a
 * fresh machine): a local WebSocket server replays rippled's recorded `fee` and `server_info`
 * answers and a local HTTP server answers the recorded peer `/crawl`, then the ingester's own
 * commands snapshot them as they would a live server:
 *
 *   node scripts/dist/src/demo-network.js     (run by scripts/start.sh)
 *
 * Nothing in the product knows about this: `pnpm ingest network` and `pnpm ingest nodes` run
 * unchanged, pointed at these local addresses.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { repoRoot } from '@xle/core';
import { readFixture, ReplayRippled } from '@xle/test-helpers';

const rippled = new ReplayRippled();
await rippled.start();
// The recorded answers as they were recorded: server_info of ledger 82521701 (2023-09-13), the
// fee answer of ledger 26575101 (2017), never relabelled with a ledger indexed here.
rippled.recordedServerInfo = true;
const crawl = JSON.stringify(readFixture('rpc/xrpl-dev-portal/peer-crawler.crawl.json'));
const peer = createServer((req, res) => {
  res.writeHead(req.url === '/crawl' ? 200 : 404, { 'content-type': 'application/json' });
  res.end(req.url === '/crawl' ? crawl : '{}');
});
await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
const seed = `http://127.0.0.1:${(peer.address() as AddressInfo).port}/crawl`;

/** Runs one ingester command to its end (asynchronously: this process serves its requests). */
const ingest = async (args: string[]): Promise<number> => {
  const child = spawn(process.execPath, [`${repoRoot}packages/ingester/dist/src/cli.js`, ...args], {
    env: { ...process.env, RIPPLED_URL: rippled.url },
    stdio: 'inherit',
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  return code ?? 1;
};
try {
  process.exitCode = (await ingest(['network'])) || (await ingest(['nodes', '--seed', seed, '--depth', '0']));
} finally {
  peer.close();
  await rippled.stop();
}
