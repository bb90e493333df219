import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { createLogger, engineUrls, MAX_HEADER_BYTES, type Config } from '@xle/core';
import { createTestIndices } from '@xle/test-helpers';
import { startServer } from '../../src/start-api.js';

interface Teardown {
  teardown(fn: () => Promise<void> | void): void;
}

/** A proxy in front of the real engine that holds every search for `delayMs`: an in-flight request on demand. */
async function slowEngine(t: Teardown, engineUrl: string, delayMs: number): Promise<string> {
  const proxy = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        if (req.url?.includes('_search') === true) await sleep(delayMs);
        const headers = Object.fromEntries(
          Object.entries(req.headers).filter(
            ([k, v]) => k !== 'host' && k !== 'content-length' && typeof v === 'string',
          ),
        ) as Record<string, string>;
        const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
        try {
          const answer = await fetch(`${engineUrl}${req.url ?? '/'}`, { method: req.method, headers, body });
          const out = Buffer.from(await answer.arrayBuffer());
          const passed = [...answer.headers].filter(
            ([k]) => !['content-length', 'content-encoding', 'transfer-encoding'].includes(k),
          );
          res.writeHead(answer.status, Object.fromEntries(passed));
          res.end(out);
        } catch {
          res.destroy();
        }
      })();
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    proxy.closeAllConnections();
    return new Promise<void>((resolve) => proxy.close(() => resolve()));
  });
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

function serverConfig(base: Config, esUrl: string): Config {
  return { ...base, es: { ...base.es, url: esUrl }, api: { ...base.api, host: '127.0.0.1', port: 0 } };
}

const silent = createLogger('api-test', 'silent');
const target = await createTestIndices(t);

t.test('graceful shutdown finishes an in-flight request, then refuses new ones', async (t) => {
  const running = await startServer(
    serverConfig(target.config, await slowEngine(t, engineUrls(target.config)[0] as string, 600)),
    silent,
  );
  const inFlight = fetch(`${running.url}/api/v1/ledgers`).then(async (r) => ({
    status: r.status,
    body: await r.json(),
  }));
  await sleep(150);
  const started = performance.now();
  let closed = false;
  const closing = running.close().then(() => {
    closed = true;
  });
  const answer = await inFlight;
  t.equal(answer.status, 200, 'the request that was running when shutdown began is answered in full');
  t.match(answer.body, { ledgers: [] });
  await closing;
  t.ok(closed, 'close resolves once the request is done');
  t.ok(performance.now() - started >= 300, 'close waited for the request');
  await t.rejects(fetch(`${running.url}/api/v1/ping`), 'no new connections after shutdown');
});

t.test('a shutdown deadline closes requests that outlive it', async (t) => {
  const running = await startServer(
    serverConfig(target.config, await slowEngine(t, engineUrls(target.config)[0] as string, 5000)),
    silent,
  );
  const inFlight = fetch(`${running.url}/api/v1/ledgers`).then(
    (r) => r.status,
    () => 'closed',
  );
  await sleep(150);
  const started = performance.now();
  await running.close(200);
  t.ok(performance.now() - started < 2000, 'close did not wait for the 5 s request');
  t.equal(await inFlight, 'closed', 'the request past the deadline lost its connection');
});

t.test('oversized request headers get a 431 with the shared error body', async (t) => {
  const running = await startServer(serverConfig(target.config, engineUrls(target.config)[0] as string), silent);
  t.teardown(() => running.close(100));
  const { port } = new URL(running.url);
  const raw = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(`GET /api/v1/ping HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(MAX_HEADER_BYTES + 10)}\r\n\r\n`);
    });
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString()));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
  t.match(raw, /^HTTP\/1\.1 431 /);
  const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as unknown;
  t.match(body, { error: { code: 'HEADERS_TOO_LARGE' } });
  const fine = await fetch(`${running.url}/api/v1/ping`, { headers: { 'X-Small': 'a'.repeat(1000) } });
  t.equal(fine.status, 200, 'normal headers pass');
});
