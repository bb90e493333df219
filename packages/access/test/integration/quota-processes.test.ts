import { ReadEngine } from '@xle/core';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import t from 'tap';
import { createTestIndices, listeningUrl, spawnApi } from '@xle/test-helpers';
import { ApiKeyStore, counterId, leaseBlock, UsageCounter, UsageStore, utcDay } from '../../src/index.js';

/**
 * The quota leases across real API processes (`node packages/site/dist/src/server.js`, the default
 * plans mode) sharing one Pro key's counter: never more than the limit admitted, each admitted
 * request its own place, and the counter exact again once the processes stop.
 */
const target = await createTestIndices(t);
const keys = new ApiKeyStore(target.client, target.naming);
const counter = new UsageCounter(new UsageStore(new ReadEngine(target.client), target.naming));
const LIMIT = 1000;
/** ACCESS_QUOTA_BLOCK of the processes; what a reservation holds is capped at 1 % of the limit. */
const BLOCK = 50;
const HELD = leaseBlock(BLOCK, LIMIT);
const PROCESSES = 4;

interface ApiProcess {
  child: ChildProcess;
  url: string;
}

/** One API process on a free port, over the test's indices, with these access settings. */
async function apiProcess(env: Record<string, string>): Promise<ApiProcess> {
  const child = spawnApi(t, target, {
    ACCESS_MODE: 'plans',
    ACCESS_PRO_PER_DAY: String(LIMIT),
    ACCESS_PRO_PER_SECOND: '100000',
    ACCESS_QUOTA_BLOCK: String(BLOCK),
    ...env,
  });
  const url = await listeningUrl(child.stdout, 'the API process');
  child.stdout.resume();
  return { child, url };
}

/** Stops a process gracefully (SIGTERM: it gives back its unused places) or not (SIGKILL). */
async function stop(api: ApiProcess, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
  const exited = once(api.child, 'exit');
  api.child.kill(signal);
  await exited;
}

async function get(api: ApiProcess, key: string): Promise<{ status: number; remaining: number }> {
  const answer = await fetch(`${api.url}/api/v1/tx/${'AB'.repeat(32)}`, { headers: { 'X-API-Key': key } });
  await answer.arrayBuffer();
  return { status: answer.status, remaining: Number(answer.headers.get('x-ratelimit-remaining')) };
}

t.test(`${PROCESSES} processes, one counter: at most the limit, each admitted request its own place`, async (t) => {
  const { key, record } = await keys.create('pro', 'quota test');
  const apis = await Promise.all(Array.from({ length: PROCESSES }, () => apiProcess({})));
  const answers: { status: number; remaining: number }[] = [];
  // 1,600 requests, 32 at a time, spread over the processes.
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < 1600) {
        const i = next;
        next += 1;
        answers.push(await get(apis[i % PROCESSES] as ApiProcess, key));
      }
    }),
  );
  const admitted = answers.filter((a) => a.status !== 429);
  t.ok(
    admitted.every((a) => a.status === 404),
    'admitted requests reach the route (an unknown transaction: 404)',
  );
  t.ok(admitted.length <= LIMIT, `${admitted.length} admitted: never more than the limit of ${LIMIT}`);
  t.ok(
    admitted.length >= LIMIT - PROCESSES * HELD,
    `at most processes × block (${PROCESSES} × ${HELD}) places held unused at the end`,
  );
  const places = admitted.map((a) => LIMIT - a.remaining);
  t.equal(new Set(places).size, admitted.length, 'each admitted request has its own place in the count');
  t.ok(
    places.every((p) => p >= 1 && p <= LIMIT),
    'every place is within the limit',
  );
  const id = { plan: 'pro' as const, client: record.key_id, day: utcDay(Date.now()) };
  const held = await counter.peek(id);
  t.ok(held >= admitted.length && held <= LIMIT, `the counter (${held}) holds what was admitted and reserved`);

  // A graceful stop gives the unused places back: the counter is exactly what was admitted.
  await Promise.all(apis.map((api) => stop(api, 'SIGTERM')));
  t.equal(await counter.peek(id), admitted.length, `${counterId(id)} = the admitted requests after SIGTERM`);
});

t.test('a process killed without closing keeps at most one block counted', async (t) => {
  const { key, record } = await keys.create('pro', 'quota kill test');
  const api = await apiProcess({});
  let admitted = 0;
  for (let i = 0; i < 300; i += 1) if ((await get(api, key)).status !== 429) admitted += 1;
  await stop(api, 'SIGKILL');
  const count = await counter.peek({ plan: 'pro', client: record.key_id, day: utcDay(Date.now()) });
  t.equal(admitted, 300);
  t.ok(
    count >= admitted && count <= admitted + HELD,
    `counter ${count}: the ${admitted} admitted plus at most one block (${HELD}: 1 % of ${LIMIT}, under ACCESS_QUOTA_BLOCK ${BLOCK}) of places reserved ahead`,
  );
});

t.test('a revoked key stops within ACCESS_KEY_CACHE_SECONDS plus one read', async (t) => {
  const { key, record } = await keys.create('pro', 'revocation test');
  const api = await apiProcess({ ACCESS_KEY_CACHE_SECONDS: '1' });
  t.teardown(() => stop(api, 'SIGTERM'));
  t.equal((await get(api, key)).status, 404, 'admitted while valid');
  await keys.revoke(record.key_id);
  const revokedAt = Date.now();
  let status = 0;
  while (Date.now() - revokedAt < 10_000) {
    status = (await get(api, key)).status;
    if (status === 401) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const took = Date.now() - revokedAt;
  t.equal(status, 401, 'refused after its revocation');
  t.ok(took <= 1500, `refused ${took} ms after the revocation (cache 1 s)`);
});
