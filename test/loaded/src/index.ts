import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@xle/core';
import { normalizeLedger, type LedgerInput } from '@xle/documents';
import {
  crawlNodes,
  DEFAULT_SCORE_CONFIG,
  directoryTomlSource,
  ingestLedgers,
  IngestEngine,
  JOB_NAMES,
  RippledSource,
  runJob,
  snapshotNetwork,
} from '@xle/ingester';
import { createTestIndices, listFixtureLedgers, makeTomlDir, readFixture, ReplayRippled } from '@xle/test-helpers';
import type { Teardown, TestIndices } from '@xle/test-helpers';

/** The ingester's engine module on a test's indices. */
export function engineOf(target: TestIndices): IngestEngine {
  return new IngestEngine(target.client, target.naming, createLogger('ingest-test', 'silent'));
}

/** Indexes ledgers into a test's indices through the real pipeline, searchable when it resolves. */
export async function ingest(target: TestIndices, ledgers: Iterable<LedgerInput>): Promise<void> {
  await ingestLedgers(ledgers, engineOf(target));
}

/** Every real fixture ledger, normalised. */
export function fixtureLedgers(): LedgerInput[] {
  return listFixtureLedgers().map((file) => normalizeLedger(readFixture(file)));
}

/** Per-run indices holding every fixture ledger. */
export async function loadedIndices(t: Teardown): Promise<TestIndices> {
  const target = await createTestIndices(t);
  await ingest(target, fixtureLedgers());
  return target;
}

/** Runs every derived-data job of `pnpm ingest jobs` on a test's indices, toml files read from `tomlDir`. */
export async function runAllJobs(target: TestIndices, tomlDir: string = makeTomlDir()): Promise<void> {
  const tokens = { toml: directoryTomlSource(tomlDir), tomlMaxAgeMs: 3600_000, score: DEFAULT_SCORE_CONFIG };
  for (const name of JOB_NAMES) await runJob({ engine: engineOf(target) }, name, tokens);
}

/**
 * The network data sets from recorded mainnet answers, replayed locally: the fee and server_info
 * snapshots (a recorded rippled at ledger 94084608) and the node crawl (a recorded /crawl answer
 * served on a local port).
 */
export async function loadNetworkData(engine: IngestEngine): Promise<void> {
  const logger = createLogger('test', 'silent');
  const rippled = new ReplayRippled();
  await rippled.start();
  rippled.validated = 94084608;
  // It holds that ledger, so its server_info names the ledger's hash beside the recorded reserves.
  rippled.addLedger(readFixture('ledgers/recent/ledger-94084608.json'));
  const source = new RippledSource({ url: rippled.url, logger, attempts: 1 });
  await snapshotNetwork(engine, source, rippled.url);
  await source.close();
  await rippled.stop();
  const crawl = readFixture<Record<string, unknown>>('rpc/xrpl-dev-portal/peer-crawler.crawl.json');
  const crawlServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(crawl));
  });
  await new Promise<void>((resolve) => crawlServer.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = crawlServer.address() as AddressInfo;
    await crawlNodes(engine, [`http://127.0.0.1:${port}/crawl`], {
      depth: 0,
      maxServers: 20,
      timeoutMs: 300,
      concurrency: 4,
      logger,
    });
  } finally {
    crawlServer.close();
  }
}
