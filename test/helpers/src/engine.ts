import { randomBytes } from 'node:crypto';
import {
  applyTemplates,
  createEngineClient,
  deleteTemplatesAndIndices,
  layoutOf,
  loadConfig,
  namingOf,
  type Client,
  type Config,
  type DeepPartial,
  type IndexNaming,
} from '@xle/core';
import type { Teardown } from './listen.js';

/**
 * Configuration for a test: the engine the test runner started (ES_URL) and an index prefix of
 * its own, so that tests never touch the demo's indices nor each other's.
 */
export function testConfig(overrides: DeepPartial<Config> = {}): Config {
  if (process.env.ES_URL === undefined) {
    throw new Error('ES_URL is not set: run tests through `pnpm test`, which starts the test engine.');
  }
  const prefix = `test-${randomBytes(4).toString('hex')}`;
  // Access limits are off unless a test turns them on: most tests send many requests from one address.
  return loadConfig({
    overrides: {
      log: { level: 'silent' },
      // Every 200 a test receives is checked against its route's published schema.
      access: { mode: 'open', search: 'open' },
      ...overrides,
      // The test's own prefix unless it names one: `es` overrides (shards, a range size) keep it.
      es: { indexPrefix: prefix, ...overrides.es },
      api: { validateResponses: true, ...overrides.api },
    },
  });
}

export interface TestIndices {
  config: Config;
  client: Client;
  naming: IndexNaming;
}

/**
 * Per-run indices created from the real templates with the configuration's layout recorded, as
 * `pnpm templates apply` creates them, deleted when the test ends.
 */
export async function createTestIndices(t: Teardown, overrides: DeepPartial<Config> = {}): Promise<TestIndices> {
  const config = testConfig(overrides);
  const client = createEngineClient(config);
  const naming = namingOf(config);
  await applyTemplates(client, naming, { layout: layoutOf(config) });
  t.teardown(async () => {
    await deleteTemplatesAndIndices(client, naming);
    await client.close();
  });
  return { config, client, naming };
}
