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
import { createApp } from './app.js';

/** The REST API (with the search API mounted beside it unless `search.mount` is off). */
export async function startServer(
  config: Config,
  logger: Logger = createLogger('api', config.log.level),
): Promise<RunningServer> {
  const client = createEngineClient(config);
  const app = createApp({ config, client, logger });
  const running = await listen(app.callback(), { host: config.api.host, port: config.api.port, logger, client });
  logger.info({ url: running.url, engine: engineUrl(config), network: config.network }, 'api listening');
  return running;
}

const isMain = process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isMain) {
  const config = loadConfig();
  const logger = createLogger('api', config.log.level);
  closeOnSignals(await startServer(config, logger), logger);
}
