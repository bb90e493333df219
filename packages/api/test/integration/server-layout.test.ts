import { once } from 'node:events';
import { createServer, connect, type AddressInfo, type Server } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import t, { type Test } from 'tap';
import { createLogger, engineUrls, type Config, type LayoutError } from '@xle/core';
import { createTestIndices, spawnApi, type ApiChild } from '@xle/test-helpers';
import { startServer } from '../../src/start-api.js';

/**
 * The API checks the index layout recorded in the cluster before it serves: started with another
 * range size, or for a network whose indices do not exist, it refuses to start and says why;
 * started while the engine cannot be reached it serves 503 ENGINE_UNAVAILABLE as before, and
 * checks the layout once the engine answers.
 */
const target = await createTestIndices(t);

/** What a refused process said on stdout and the code it exited with. */
async function refusal(child: ApiChild): Promise<{ code: number | null; said: string }> {
  let said = '';
  child.stdout.on('data', (chunk: Buffer) => (said += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, said };
}

t.test('another range size than the recorded one: the API exits, naming both values', async (t) => {
  const { code, said } = await refusal(spawnApi(t, target, { ES_RANGE_LEDGERS: '12345' }));
  t.equal(code, 78, 'exit code EX_CONFIG');
  t.match(
    said,
    `ES_RANGE_LEDGERS is 12345 but the cluster's ${target.naming.prefix}-mainnet indices were laid out with 1000000 ledgers per range`,
  );
  t.notMatch(said, /listening/, 'it never listened');
});

t.test('a network without indices: the API exits, naming the command that creates them', async (t) => {
  const { code, said } = await refusal(spawnApi(t, target, { XLE_NETWORK: 'testnet' }));
  t.equal(code, 78);
  t.match(said, `no ${target.naming.prefix}-testnet indices`);
  t.match(said, `ES_INDEX_PREFIX=${target.naming.prefix} XLE_NETWORK=testnet pnpm templates apply`);
});

t.test('another shard count: a warning, and the API serves', async (t) => {
  const child = spawnApi(t, target, { ES_SHARDS: '3' });
  let said = '';
  child.stdout.on('data', (chunk: Buffer) => (said += chunk.toString()));
  const deadline = Date.now() + 30_000;
  while (!said.includes('listening') && child.exitCode === null && Date.now() < deadline) await sleep(50);
  t.match(said, /ES_SHARDS is 3 but the cluster's .* 1 primary shard\(s\) per range index/);
  t.match(said, /api listening/);
});

/** A port nothing listens on yet, and a TCP relay to the real engine to open on it later. */
async function laterEngine(t: Test): Promise<{ url: string; open: () => Promise<void> }> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const engine = new URL(engineUrls(target.config)[0] as string);
  let relay: Server | undefined;
  const sockets = new Set<ReturnType<typeof connect>>();
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise<void>((resolve) => (relay === undefined ? resolve() : relay.close(() => resolve())));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    open: async () => {
      relay = createServer((socket) => {
        const upstream = connect(Number(engine.port), engine.hostname);
        sockets.add(socket).add(upstream);
        socket.pipe(upstream).pipe(socket);
        socket.on('error', () => upstream.destroy());
        upstream.on('error', () => socket.destroy());
      });
      await new Promise<void>((resolve) => relay?.listen(port, '127.0.0.1', resolve));
    },
  };
}

function configAt(url: string, es: Partial<Config['es']> = {}): Config {
  return { ...target.config, es: { ...target.config.es, url, ...es }, api: { ...target.config.api, port: 0 } };
}

const silent = createLogger('api-test', 'silent');

t.test('the engine unreachable at start: the API serves 503 ENGINE_UNAVAILABLE, then answers', async (t) => {
  const engine = await laterEngine(t);
  const api = await startServer(configAt(engine.url), silent);
  t.teardown(() => api.close(100));
  const down = await fetch(`${api.url}/api/v1/ledgers`);
  t.equal(down.status, 503);
  t.match(await down.json(), { error: { code: 'ENGINE_UNAVAILABLE' } });
  t.ok(down.headers.get('retry-after'), 'with Retry-After');
  t.equal((await fetch(`${api.url}/api/v1/ping`)).status, 503, 'ping too');
  t.equal((await fetch(`${api.url}/api/v1/openapi.json`)).status, 200, 'what needs no engine is served');
  await engine.open();
  const deadline = Date.now() + 20_000;
  let status = 0;
  while (status !== 200 && Date.now() < deadline) {
    status = (await fetch(`${api.url}/api/v1/ledgers`)).status;
    if (status !== 200) await sleep(200);
  }
  t.equal(status, 200, 'answers once the engine does and the layout is checked');
});

t.test('the engine unreachable at start, then another range size: the API stops', async (t) => {
  const engine = await laterEngine(t);
  let refused: (error: LayoutError) => void = () => undefined;
  const stopped = new Promise<LayoutError>((resolve) => (refused = resolve));
  const api = await startServer(configAt(engine.url, { rangeLedgers: 12345 }), silent, (error) => refused(error));
  t.teardown(() => api.close(100));
  const held = await fetch(`${api.url}/api/v1/ledgers`);
  t.equal(held.status, 503, 'not checked yet: 503');
  await held.arrayBuffer();
  await engine.open();
  const error = await stopped;
  t.equal(error.code, 'LAYOUT_MISMATCH');
  t.match(error.message, /ES_RANGE_LEDGERS is 12345 .* 1000000 ledgers per range/);
  await t.rejects(fetch(`${api.url}/api/v1/ping`), 'the server is closed');
});
