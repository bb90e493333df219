import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { applyTemplates, createLogger, layoutOf, loadConfig, namingOf, withEngineClient } from '@xle/core';
import { startServer } from '@xle/api';
import { instanceFromConfig, startEngine, stopEngine } from '@xle/engine';

/**
 * The engine stops under a running API: ping turns into a 503 within a second, and back into OK
 * once the engine is started again, with the same API process and the same engine client.
 * This test runs its own engine instance (its own ports and throw-away data folder).
 */
t.test('ping follows the engine down and up without restarting the API', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'xle-engine-restart-'));
  const port = Number(process.env.TEST_RESTART_ENGINE_PORT ?? 9260);
  const config = loadConfig({
    overrides: {
      es: { url: `http://127.0.0.1:${port}` },
      engine: { port, transportPort: port + 100, dataDir, heap: '512m' },
      api: { port: 0 },
      log: { level: 'silent' },
    },
  });
  const instance = instanceFromConfig(config);
  t.teardown(async () => {
    await stopEngine(instance);
    rmSync(dataDir, { recursive: true, force: true });
  });
  await startEngine(instance);
  // What `pnpm templates apply` does first: the API refuses to start without the indices' layout.
  await withEngineClient(config, (client) => applyTemplates(client, namingOf(config), { layout: layoutOf(config) }));
  const api = await startServer(config, createLogger('api', 'silent'));
  t.teardown(() => api.close());
  const ping = async (): Promise<{ status: number; ms: number; retryAfter: string | null }> => {
    const started = performance.now();
    const response = await fetch(`${api.url}/api/v1/ping`);
    await response.arrayBuffer();
    return {
      status: response.status,
      ms: performance.now() - started,
      retryAfter: response.headers.get('retry-after'),
    };
  };

  t.equal((await ping()).status, 200, 'OK while the engine runs');

  await stopEngine(instance);
  const down = await ping();
  t.equal(down.status, 503, 'engine stopped: 503');
  t.equal(down.retryAfter, '5');
  t.ok(down.ms < 1000, `503 answered in ${down.ms.toFixed(0)} ms`);

  await startEngine(instance);
  const deadline = Date.now() + 15000;
  let up = await ping();
  while (up.status !== 200 && Date.now() < deadline) {
    await sleep(200);
    up = await ping();
  }
  t.equal(up.status, 200, 'OK again after the engine restarted, same API process');
});
