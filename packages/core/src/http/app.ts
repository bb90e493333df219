import Koa from 'koa';
import conditional from 'koa-conditional-get';
import { AppError, ErrorCode } from '../errors.js';
import type { Logger } from '../logger.js';
import { negotiatedCompression } from './compress.js';
import { errorHandler } from './error-handler.js';
import type { ServerMetrics } from './metrics.js';
import { requestContext } from './request-context.js';

/** Headers a browser may send to, and read from, the API (CORS). */
const ALLOWED_HEADERS = 'Content-Type, Accept, X-Request-Id, Authorization, X-API-Key, Payment-Claim';
const EXPOSED_HEADERS =
  'X-Request-Id, Retry-After, Cursor, X-Ledger-Index, Link, X-Data-As-Of-Ledger, X-Data-Behind, X-Data-Unread-Ledgers';

/**
 * Open CORS (the API is read-only and public): every origin, and a preflight answered here with
 * the methods and headers the routes take.
 */
export function cors(): Koa.Middleware {
  return async (ctx, next) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    if (ctx.method === 'OPTIONS') {
      ctx.set('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
      ctx.set('Access-Control-Allow-Headers', ALLOWED_HEADERS);
      ctx.set('Access-Control-Max-Age', '86400');
      ctx.status = 204;
      return;
    }
    await next();
  };
}

/** Refuses a request whose declared body is larger than `maxBytes` before anything reads it. */
export function bodyCap(maxBytes: number): Koa.Middleware {
  return async (ctx, next) => {
    if (Number(ctx.get('Content-Length') || 0) > maxBytes) {
      throw new AppError(413, ErrorCode.PayloadTooLarge, `Request bodies are limited to ${maxBytes} bytes.`);
    }
    await next();
  };
}

export interface HttpAppOptions {
  logger: Logger;
  maxBodyBytes: number;
  /** The server's metrics: /metrics is served, and every request counted, when given. */
  metrics?: ServerMetrics | undefined;
}

/**
 * The shell every HTTP app of the product starts from: metrics, a request id and access log,
 * negotiated compression, 304 answers to If-None-Match, the one error handler,
 * open CORS and a body cap. Routes and access middleware go on top.
 */
export function createHttpApp({ logger, maxBodyBytes, metrics }: HttpAppOptions): Koa {
  const app = new Koa({ proxy: false });
  // Errors are answered by errorHandler; Koa's default stderr printing would duplicate them.
  app.silent = true;
  if (metrics !== undefined) app.use(metrics.middleware());
  app.use(requestContext(logger));
  app.use(negotiatedCompression());
  // 304 when If-None-Match matches the ETag a route set (see route.ts, per its cache policy).
  app.use(conditional());
  app.use(errorHandler(logger));
  app.use(cors());
  app.use(bodyCap(maxBodyBytes));
  return app;
}
