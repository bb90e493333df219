import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { loadConfig } from '@xle/core';
import { engineStatus, instanceFromConfig, startEngine, type EngineInstance } from '../../src/index.js';

function instance(port: number, overrides: Partial<EngineInstance> = {}): EngineInstance {
  const dataDir = mkdtempSync(join(tmpdir(), 'xle-engine-test-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const base = instanceFromConfig(
    loadConfig({ overrides: { engine: { port, transportPort: port + 100, dataDir, heap: '512m' } } }),
  );
  return { ...base, ...overrides };
}

t.test('a taken port is reported before anything starts', async (t) => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(9271, '127.0.0.1', resolve));
  t.teardown(() => blocker.close());
  await t.rejects(startEngine(instance(9271)), {
    code: 'ENGINE_PORT_TAKEN',
    message: /Port 9271 \(HTTP\) is already taken/,
  });
});

t.test('missing Java is a clear message', async (t) => {
  const path = process.env.PATH;
  process.env.PATH = '/nonexistent';
  t.teardown(() => {
    process.env.PATH = path;
  });
  await t.rejects(startEngine(instance(9272)), { code: 'ENGINE_TOOL_MISSING', message: /java is required/ });
});

t.test('a failed start-up shows the last lines of the engine log', async (t) => {
  // A 1 MB heap makes the JVM refuse to start: a real start-up failure, reported with its log.
  const tooSmall = instance(9273, { heap: '1m' });
  await t.rejects(startEngine(tooSmall), {
    code: 'ENGINE_START_FAILED',
    message: /exited during start-up[\s\S]*heap/i,
  });
  t.equal((await engineStatus(tooSmall)).running, false, 'no pid left behind');
});

t.test('status of an instance that never started', async (t) => {
  t.match(await engineStatus(instance(9274)), { running: false, url: 'http://127.0.0.1:9274' });
});
