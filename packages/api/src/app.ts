import Koa from 'koa';
import Router from '@koa/router';
import type { Client, Config, Logger } from '@xle/core';
import { errorHandler } from './middleware/errors.js';
import { requestContext } from './middleware/request-context.js';
import { pingRoutes } from './routes/ping.js';

export interface AppDeps {
  config: Config;
  client: Client;
  logger: Logger;
}

/** Builds the REST API; no I/O happens until a request arrives. */
export function createApp({ config, client, logger }: AppDeps): Koa {
  const app = new Koa({ proxy: false });
  // Errors are answered by errorHandler; Koa's default stderr printing would duplicate them.
  app.silent = true;
  app.use(requestContext(logger));
  app.use(errorHandler(logger));

  const api = new Router({ prefix: '/api/v1' });
  const ping = pingRoutes(client, config.es.pingTimeoutMs);
  api.use(ping.routes(), ping.allowedMethods({ throw: true }));
  app.use(api.routes());
  app.use(api.allowedMethods({ throw: true }));
  return app;
}
