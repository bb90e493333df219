import { createLogger } from '@xle/core';
import { normalizeLedger, type LedgerInput } from '@xle/documents';
import {
  DEFAULT_SCORE_CONFIG,
  directoryTomlSource,
  ingestLedgers,
  IngestEngine,
  JOB_NAMES,
  runJob,
} from '@xle/ingester';
import { createTestIndices, listFixtureLedgers, makeTomlDir, readFixture } from '@xle/test-helpers';
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
