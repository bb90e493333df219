import Router from '@koa/router';
import type { Client } from '@xle/core';
import { EngineUnavailableError } from '@xle/core';

/**
 * `GET /api/v1/ping` answers `{"status":"OK"}` only when the engine answers. The probe has its own
 * short timeout and no retries, so a dead engine turns into a 503 (with Retry-After) in well under
 * a second; the client reconnects by itself when the engine is back.
 */
export function pingRoutes(client: Client, timeoutMs: number): Router {
  const router = new Router();
  router.get('/ping', async (ctx) => {
    try {
      await client.cluster.health({}, { requestTimeout: timeoutMs, maxRetries: 0 });
    } catch (error) {
      throw new EngineUnavailableError(error);
    }
    ctx.body = { status: 'OK' };
  });
  return router;
}
