import { startHttpServer, type StartServer } from '@xle/core';
import { createApp } from './app.js';

/**
 * Starts the REST and search API alone, without the website, on `api.port`: what the API's own
 * tests and the scale benchmark start. Not an entry point: the process users run is `@xle/site`'s
 * server (`pnpm serve`, `packages/site/dist/src/server.js`), which mounts the website too.
 */
export const startServer: StartServer = (config, logger, onRefused) =>
  startHttpServer('api', config, config.api.port, (deps) => createApp(deps), logger, onRefused);
