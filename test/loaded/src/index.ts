import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
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
import {
  createTestIndices,
  listFixtureLedgers,
  makeTomlDir,
  readFixture,
  ReplayRippled,
  syntheticLedgers,
} from '@xle/test-helpers';
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
 * The network data sets from recorded mainnet answers, replayed locally as they were recorded:
 * the fee (ledger 26575101) and server_info (ledger 82521701, 2023-09-13) snapshots, and the
 * node crawl (a recorded /crawl answer served on a local port).
 */
export async function loadNetworkData(engine: IngestEngine): Promise<void> {
  const logger = createLogger('test', 'silent');
  const rippled = new ReplayRippled();
  await rippled.start();
  rippled.recordedServerInfo = true;
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

/**
 * A small IP-to-AS table in iptoasn.com's format (written for the tests, not downloaded): ranges
 * holding the recorded crawl's addresses but one, a not-routed range and IPv6 rows.
 */
export const SAMPLE_ASN_TABLE = fileURLToPath(new URL('../../fixtures/ip2asn-sample.tsv', import.meta.url));

/** Ledgers per range of the many-ranges history (`manyRangesIndices`). */
export const MANY_RANGES_LEDGERS = 1000;

/**
 * A history of many ranges: the real fixture ledgers (2013 to 2025) and fifteen synthetic ranges
 * far from them (each seeded apart: no hash repeats), indexed in ranges of 1,000 ledgers, which
 * makes more transaction range indices than one search names at once. Shard reads are measured on it.
 */
export async function manyRangesIndices(
  t: Teardown,
): Promise<{ target: TestIndices; real: LedgerInput[]; extra: LedgerInput[]; ledgers: LedgerInput[] }> {
  const real = fixtureLedgers();
  const extra = Array.from({ length: 15 }, (_, i) => i).flatMap((i) => [
    ...syntheticLedgers(real, {
      transactions: 60,
      perLedger: 20,
      startLedger: 300_000_000 + i * 7 * MANY_RANGES_LEDGERS,
      seed: `shard-reads-${i}`,
    }),
  ]);
  const ledgers = [...real, ...extra];
  const target = await createTestIndices(t, { es: { rangeLedgers: MANY_RANGES_LEDGERS } });
  await ingest(target, ledgers);
  return { target, real, extra, ledgers };
}

/** Shard-level operations of one index: searches' query and fetch phases, reads by id. */
export interface ShardWork {
  query: number;
  fetch: number;
  get: number;
}

/** Shard-level query, fetch and get operations per index of a test's prefix, now (from the engine's own statistics). */
export async function shardWork(target: TestIndices): Promise<Map<string, ShardWork>> {
  const stats = await target.client.indices.stats({ index: `${target.naming.prefix}-*`, metric: ['search', 'get'] });
  const found = new Map<string, ShardWork>();
  for (const [index, s] of Object.entries(stats.indices ?? {})) {
    const total = s.total ?? {};
    found.set(index, {
      query: total.search?.query_total ?? 0,
      fetch: total.search?.fetch_total ?? 0,
      get: total.get?.total ?? 0,
    });
  }
  return found;
}

/** Shard-level query, fetch and get operations per index of a test's prefix, summed, now. */
export async function shardOperations(target: TestIndices): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (const [index, w] of await shardWork(target)) found.set(index, w.query + w.fetch + w.get);
  return found;
}
