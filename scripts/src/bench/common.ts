import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  applyTemplates,
  createEngineClient,
  deleteTemplatesAndIndices,
  fixturesDir,
  loadConfig,
  type Client,
  type Config,
  type DeepPartial,
  type IndexNaming,
} from '@xle/core';
import { normalizeLedger, type LedgerInput } from '@xle/documents';
import { listLedgerFiles } from '@xle/ingester';

/**
 * A benchmark's numeric options from the command line (`--name N`), parsed with node:util
 * parseArgs: unknown options and values that are not positive integers end the run with its usage.
 */
export function numericOptions<const K extends string>(
  usage: string,
  defaults: Record<K, number>,
  extra: Record<string, { type: 'string' }> = {},
): { numbers: Record<K, number>; strings: Record<string, string | undefined> } {
  const options = Object.fromEntries(
    [...Object.keys(defaults), ...Object.keys(extra)].map((name) => [name, { type: 'string' as const }]),
  );
  let values: Record<string, string | undefined>;
  try {
    values = parseArgs({ args: process.argv.slice(2), options, strict: true }).values as Record<
      string,
      string | undefined
    >;
  } catch (error) {
    console.error(`${(error as Error).message}\nusage: ${usage}`);
    process.exit(64);
  }
  const numbers = {} as Record<K, number>;
  for (const [name, fallback] of Object.entries(defaults) as [K, number][]) {
    const text = values[name];
    const n = text === undefined ? fallback : Number(text);
    if (!Number.isSafeInteger(n) || n < 0) {
      console.error(`--${name} takes a whole number, not ${text}\nusage: ${usage}`);
      process.exit(64);
    }
    numbers[name] = n;
  }
  return { numbers, strings: values };
}

/** The real fixture ledgers, normalised: the templates every benchmark's data is made from. */
export function fixtureLedgers(): LedgerInput[] {
  return listLedgerFiles(`${fixturesDir}/ledgers`).map((f) => normalizeLedger(JSON.parse(readFileSync(f, 'utf8'))));
}

/** Indices of a fresh prefix (its templates applied), for one side of a comparison. */
export async function freshIndices(client: Client, config: Config, label: string): Promise<IndexNaming> {
  const naming: IndexNaming = { prefix: `bench-${label}-${randomBytes(3).toString('hex')}`, network: config.network };
  await applyTemplates(client, naming);
  return naming;
}

/** The p-th percentile of sorted numbers. */
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

export const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MB`;

/** A benchmark's own indices: a fresh prefix on the configured engine, removed by `drop`. */
export interface BenchIndices {
  /** The configuration, with the fresh prefix (for servers the benchmark starts). */
  config: Config;
  client: Client;
  naming: IndexNaming;
  /** Deletes the indices and templates of the prefix, then closes the client. */
  drop: () => Promise<void>;
}

export async function benchIndices(
  label: string,
  overrides: DeepPartial<Config> = {},
  requestTimeout = 120_000,
): Promise<BenchIndices> {
  const base = loadConfig({ overrides });
  const client = createEngineClient(base, { requestTimeout });
  const naming = await freshIndices(client, base, label);
  const config = loadConfig({ overrides: { ...overrides, es: { ...overrides.es, indexPrefix: naming.prefix } } });
  return {
    config,
    client,
    naming,
    drop: async () => {
      await deleteTemplatesAndIndices(client, naming);
      await client.close();
    },
  };
}
