import Type from 'typebox';
import { defineRoute, EngineUnavailableError, NoParams, NoQuery, type AnyRoute } from '@xle/core';
import type { Engine } from '../engine.js';

/**
 * `GET /api/v1/ping` answers `{"status":"OK"}` only when the engine answers. The probe has its own
 * short timeout and no retries, so a dead engine turns into a 503 (with Retry-After) in well under
 * a second; the client reconnects by itself when the engine is back.
 */
export function pingRoutes(engine: Engine, timeoutMs: number): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/ping',
      summary: 'Health: OK while the search engine answers, else 503 ENGINE_UNAVAILABLE within a second',
      tags: ['Other resources'],
      params: NoParams,
      query: NoQuery,
      response: Type.Object({ status: Type.Literal('OK') }),
      handler: async () => {
        if (!(await engine.ping(timeoutMs))) throw new EngineUnavailableError();
        return { status: 'OK' };
      },
    }),
  ];
}
