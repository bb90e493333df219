import type { Middleware } from 'koa';
import { mapEngineError } from '../engine/error-mapping.js';
import { AppError, ErrorCode, isServerFailure, toErrorBody } from '../errors.js';
import type { Logger } from '../logger.js';

/** Statuses Koa and @koa/router raise themselves, mapped onto stable codes. */
function fromHttpError(error: unknown): unknown {
  const status = (error as { status?: unknown }).status;
  if (error instanceof AppError || typeof status !== 'number') return error;
  if (status === 405 || status === 501) return new AppError(405, ErrorCode.MethodNotAllowed, 'Method not allowed.');
  if (status === 413) return new AppError(413, ErrorCode.PayloadTooLarge, 'Request body too large.');
  if (status === 404) return new AppError(404, ErrorCode.NotFound, 'Not found.');
  if (status >= 400 && status < 500) return new AppError(status, ErrorCode.BadRequest, 'Bad request.');
  return error;
}

/**
 * The outermost handler: every failure leaves as `{"error": {code, message, details}}` with the
 * right status. Only `AppError`s show their message; anything else is logged and answered 500.
 */
export function errorHandler(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new AppError(404, ErrorCode.NotFound, `No route for ${ctx.method} ${ctx.path}.`);
      }
      // A router's allowedMethods answered a path with another method (405) or a method it does not
      // know (501, e.g. TRACE): the Allow header it set stays, the body is the shared one.
      if ((ctx.status === 405 || ctx.status === 501) && (ctx.body === undefined || ctx.body === null)) {
        throw new AppError(405, ErrorCode.MethodNotAllowed, `${ctx.method} is not allowed on ${ctx.path}.`);
      }
    } catch (thrown) {
      const error = fromHttpError(mapEngineError(thrown));
      const { status, body, retryAfter } = toErrorBody(error);
      if (isServerFailure(status, body.error.code)) {
        logger.error(
          { err: thrown, requestId: ctx.state.requestId as string | undefined, path: ctx.path },
          'request failed',
        );
      }
      ctx.status = status;
      ctx.body = body;
      if (retryAfter !== undefined) ctx.set('Retry-After', String(retryAfter));
    }
  };
}
