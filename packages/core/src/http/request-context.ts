import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../logger.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Gives every request an id (a well-formed incoming `X-Request-Id` is kept, so ids can be followed
 * across proxies), echoes it back, and writes one JSON access-log line when the response is done.
 */
export function requestContext(logger: Logger): Middleware {
  return async (ctx, next) => {
    const incoming = ctx.get('X-Request-Id');
    const requestId = REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      logger.info(
        {
          requestId,
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
          ip: ctx.ip,
        },
        'request',
      );
    }
  };
}
