import { promisify } from 'node:util';
import zlib from 'node:zlib';
import compressible from 'compressible';
import type Koa from 'koa';
import compress from 'koa-compress';

/** Bodies smaller than this go uncompressed (a streamed body, its size unknown, is always compressed). */
export const COMPRESS_THRESHOLD = 1024;

/**
 * Buffered bodies up to this size are compressed on the event loop in one call: at the fastest
 * level that takes well under a millisecond, where a zlib stream hands every chunk to the thread
 * pool and back (measured: about 2 ms of CPU per request on a 3 KB answer, in thread wake-ups).
 */
export const SYNC_COMPRESS_LIMIT = 128 * 1024;

// Each encoding at its fastest level (nginx's default for gzip): answers are made per request, and
// on fixture JSON the fastest level costs about half the CPU of zlib's default, for answers 5-10 %
// larger.
const GZIP: zlib.ZlibOptions = { level: zlib.constants.Z_BEST_SPEED };
/**
 * From this size on, zlib's largest hash table (memLevel 9): the same bytes out, about 15 % less
 * CPU on a 90 KB page of transactions (measured); below it, setting up the larger table costs more
 * than it saves.
 */
const LARGE_BODY = 16 * 1024;
const GZIP_LARGE: zlib.ZlibOptions = { ...GZIP, memLevel: 9 };
const BROTLI: zlib.BrotliOptions = {
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MIN_QUALITY },
};

type Encoding = 'br' | 'gzip' | 'deflate';
const deflating = (body: Buffer): zlib.ZlibOptions => (body.length >= LARGE_BODY ? GZIP_LARGE : GZIP);
const SYNC: Record<Encoding, (body: Buffer) => Buffer> = {
  br: (body) => zlib.brotliCompressSync(body, BROTLI),
  gzip: (body) => zlib.gzipSync(body, deflating(body)),
  deflate: (body) => zlib.deflateSync(body, deflating(body)),
};
const brotliAsync = promisify(zlib.brotliCompress);
const gzipAsync = promisify(zlib.gzip);
const deflateAsync = promisify(zlib.deflate);
const ASYNC: Record<Encoding, (body: Buffer) => Promise<Buffer>> = {
  br: (body) => brotliAsync(body, BROTLI),
  gzip: (body) => gzipAsync(body, GZIP_LARGE),
  deflate: (body) => deflateAsync(body, GZIP_LARGE),
};

/**
 * Negotiated compression (br, gzip or deflate, as the client prefers): a buffered body (string,
 * Buffer, JSON) in one call, a streamed one (SQL, exports) by koa-compress. Both send
 * `Vary: Accept-Encoding`; bodies under COMPRESS_THRESHOLD go as they are.
 */
export function negotiatedCompression(): Koa.Middleware {
  const streams = compress({ threshold: COMPRESS_THRESHOLD, gzip: GZIP_LARGE, deflate: GZIP_LARGE, br: BROTLI });
  const buffered: Koa.Middleware = async (ctx, next) => {
    await next();
    const body: unknown = ctx.body;
    if (body === undefined || body === null || ctx.method === 'HEAD' || ctx.response.get('Content-Encoding')) return;
    if (typeof (body as { pipe?: unknown }).pipe === 'function') return; // a stream: koa-compress's
    if (compressible(ctx.response.type) !== true) return; // CBOR, images: already dense
    ctx.vary('Accept-Encoding');
    const bytes =
      typeof body === 'string' ? Buffer.from(body) : Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
    if (bytes.length < COMPRESS_THRESHOLD) return;
    const encoding = ctx.acceptsEncodings('br', 'gzip', 'deflate', 'identity');
    if (encoding !== 'br' && encoding !== 'gzip' && encoding !== 'deflate') return;
    // The Content-Type stays: Koa types a Buffer body only when none is set.
    ctx.body = bytes.length <= SYNC_COMPRESS_LIMIT ? SYNC[encoding](bytes) : await ASYNC[encoding](bytes);
    ctx.set('Content-Encoding', encoding);
  };
  // koa-compress leaves a response that already names its Content-Encoding alone.
  return async (ctx, next) => streams(ctx, () => buffered(ctx, next));
}
