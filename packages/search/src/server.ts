#!/usr/bin/env node
import {
  closeOnSignals,
  createEngineClient,
  createLogger,
  engineUrl,
  listen,
  loadConfig,
  type Config,
  type Logger,
  type RunningServer,
} from '@xle/core';
import { createSearchApp } from './app.js';

/** The search API alone, on `search.port`. */
export async function startSearchServer(
  config: Config,
  logger: Logger = createLogger('search', config.log.level),
): Promise<RunningServer> {
  const client = createEngineClient(config);
  const app = createSearchApp({ config, client, logger });
  const running = await listen(app.callback(), { host: config.api.host, port: config.search.port, logger, client });
  logger.info({ url: running.url, engine: engineUrl(config), network: config.network }, 'search api listening');
  return running;
}

const isMain = process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isMain) {
  const config = loadConfig();
  const logger = createLogger('search', config.log.level);
  closeOnSignals(await startSearchServer(config, logger), logger);
}
