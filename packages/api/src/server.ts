#!/usr/bin/env node
import type { Server } from 'node:http';
import { createEngineClient, createLogger, engineUrl, loadConfig, type Config, type Logger } from '@xle/core';
import { createApp } from './app.js';

export interface RunningServer {
  server: Server;
  url: string;
  /** Stops accepting connections, lets in-flight requests finish, then closes the engine client. */
  close: () => Promise<void>;
}

export async function startServer(
  config: Config,
  logger: Logger = createLogger('api', config.log.level),
): Promise<RunningServer> {
  const client = createEngineClient(config);
  const app = createApp({ config, client, logger });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.api.port, config.api.host, () => resolve(s));
    s.once('error', reject);
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 60_000;
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.api.port;
  const url = `http://${config.api.host}:${port}`;
  logger.info({ url, engine: engineUrl(config), network: config.network }, 'api listening');
  return {
    server,
    url,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await client.close();
    },
  };
}

const isMain = process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isMain) {
  const config = loadConfig();
  const logger = createLogger('api', config.log.level);
  const running = await startServer(config, logger);
  const shutdown = (signal: string): void => {
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}
