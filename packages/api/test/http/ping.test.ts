import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { createEngineClient, createLogger, type Config } from '@xle/core';
import { testConfig } from '@xle/test-helpers';
import { createApp } from '../../src/index.js';

/** Serves the Koa app through app.callback() on an ephemeral port. */
async function serve(t: { teardown: (fn: () => Promise<void>) => void }, config: Config): Promise<string> {
  const client = createEngineClient(config);
  const app = createApp({ config, client, logger: createLogger('api-test', 'silent') });
  const server: Server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await client.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

t.test('ping answers OK while the engine answers', async (t) => {
  const base = await serve(t, testConfig());
  const response = await fetch(`${base}/api/v1/ping`);
  t.equal(response.status, 200);
  t.same(await response.json(), { status: 'OK' });
  t.match(response.headers.get('x-request-id'), /^[0-9a-f-]{36}$/, 'every answer carries a request id');
  const traced = await fetch(`${base}/api/v1/ping`, { headers: { 'X-Request-Id': 'trace-123' } });
  t.equal(traced.headers.get('x-request-id'), 'trace-123', 'a well-formed incoming id is kept');
  const forged = await fetch(`${base}/api/v1/ping`, { headers: { 'X-Request-Id': 'bad id\twith spaces' } });
  t.not(forged.headers.get('x-request-id'), 'bad id\twith spaces', 'a malformed one is replaced');
});

t.test('unknown routes and methods get the shared error body', async (t) => {
  const base = await serve(t, testConfig());
  const missing = await fetch(`${base}/api/v1/no-such-thing`);
  t.equal(missing.status, 404);
  t.same(await missing.json(), { error: { code: 'NOT_FOUND', message: 'No route for GET /api/v1/no-such-thing.' } });
  const post = await fetch(`${base}/api/v1/ping`, { method: 'POST' });
  t.equal(post.status, 405);
  t.same(await post.json(), {
    error: { code: 'METHOD_NOT_ALLOWED', message: 'POST is not allowed on /api/v1/ping.' },
  });
  t.equal(post.headers.get('allow'), 'HEAD, GET', 'the methods it takes (RFC 9110)');
  // fetch refuses to send TRACE: node:http does.
  const trace = await new Promise<IncomingMessage>((resolve, reject) =>
    httpRequest(`${base}/api/v1/ping`, { method: 'TRACE' }, resolve).on('error', reject).end(),
  );
  trace.resume();
  t.equal(trace.statusCode, 405, 'a method no route knows is a 405 too');
  t.equal(trace.headers.allow, 'HEAD, GET');
});

t.test('ping is a 503 with Retry-After within a second when nothing listens', async (t) => {
  const closed = createTcpServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const base = await serve(t, testConfig({ es: { url: `http://127.0.0.1:${port}` } }));
  const started = performance.now();
  const response = await fetch(`${base}/api/v1/ping`);
  const elapsed = performance.now() - started;
  t.equal(response.status, 503);
  t.equal(response.headers.get('retry-after'), '5');
  t.same(await response.json(), {
    error: { code: 'ENGINE_UNAVAILABLE', message: 'The search engine is not reachable; try again shortly.' },
  });
  t.ok(elapsed < 1000, `answered in ${elapsed.toFixed(0)} ms`);
});

t.test('ping is a 503 within a second when the engine accepts but never answers', async (t) => {
  const sockets = new Set<Socket>();
  const blackHole = createTcpServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const s of sockets) s.destroy();
    blackHole.close();
  });
  const port = (blackHole.address() as AddressInfo).port;
  const base = await serve(t, testConfig({ es: { url: `http://127.0.0.1:${port}`, pingTimeoutMs: 800 } }));
  const started = performance.now();
  const response = await fetch(`${base}/api/v1/ping`);
  const elapsed = performance.now() - started;
  t.equal(response.status, 503);
  t.equal(((await response.json()) as { error: { code: string } }).error.code, 'ENGINE_UNAVAILABLE');
  t.ok(elapsed < 1000, `answered in ${elapsed.toFixed(0)} ms`);
});
