import { startHttpServer, type StartServer } from '@xle/core';
import { createApp, type AppOptions } from './app.js';

/**
 * The REST API (with the search API mounted beside it unless `search.mount` is off, and the
 * website given in `options`) on `api.port`. The process users run is `@xle/site`'s server entry,
 * which mounts the website through this.
 */
export function apiServer(options: AppOptions = {}): StartServer {
  return (config, logger, onRefused) =>
    startHttpServer('api', config, config.api.port, (deps) => createApp(deps, options), logger, onRefused);
}

/** The REST and search API alone (no website): what the API's own tests and the scale benchmark start. */
export const startServer: StartServer = apiServer();
