import { loadConfig, namingOf, probeEngine, readEngineFor, withEngineClient, type Config } from '@xle/core';
import { ApiKeyStore } from '../engine/api-key-store.js';
import { PaygStore } from '../engine/payg-store.js';
import { UsageStore } from '../engine/usage-store.js';

/** The access indices of the configured network (keys, counters, channels belong to one network). */
export interface AccessStores {
  config: Config;
  keys: ApiKeyStore;
  usage: UsageStore;
  payg: PaygStore;
}

/** Runs a command's work with the stores of the configured engine, closed when it is done. */
export async function withStores<T>(work: (stores: AccessStores) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const naming = namingOf(config);
  // An engine that is not there is said within seconds, with what was tried.
  await probeEngine(config);
  return withEngineClient(config, (client) =>
    work({
      config,
      keys: new ApiKeyStore(client, naming),
      usage: new UsageStore(readEngineFor({ config, client }), naming),
      payg: new PaygStore(readEngineFor({ config, client }), naming),
    }),
  );
}
