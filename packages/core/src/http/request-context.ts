import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../logger.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Gives every request an id (a well-formed incoming `X-Request-Id` is kept, so ids can be followed
 * across proxies), echoes it back, and writes one JSON access-log line once the response is done:
 * after its last byte is handed to the socket (or the client went away, `aborted`), so the line is
 * never written while the client waits, and a streamed body's time is its whole time.
 */
export function requestContext(logger: Logger): Middleware {
  return (ctx, next) => {
    const incoming = ctx.get('X-Request-Id');
    const requestId = REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    ctx.res.once('close', () => {
      logger.info(
        {
          requestId,
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          ms: performance.now() - started,
          ip: ctx.ip,
          ...(ctx.res.writableFinished ? {} : { aborted: true }),
        },
        'request',
      );
    });
    return next();
  };
}
