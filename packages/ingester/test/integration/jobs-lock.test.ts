import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import t from 'tap';
import { createLogger, indexName } from '@xle/core';
import { createTestIndices } from '@xle/test-helpers';
import { IngestEngine } from '../../src/index.js';
import { JobsLock } from '../../src/jobs/schedule.js';

/**
 * One jobs run at a time: a second run waits while the first holds the lease, and takes it at
 * once from a run of this host that was killed (its process gone), or from one whose lease expired.
 */
const target = await createTestIndices(t);
const engine = new IngestEngine(target.client, target.naming, createLogger('jobs-lock-test', 'silent'));

t.test('the lease is held, given back, and taken from a process that is gone', async (t) => {
  const a = new JobsLock(engine, 'a');
  const b = new JobsLock(engine, 'b');
  t.ok(await a.acquire(), 'a takes the free lock');
  t.ok(await a.acquire(), 'and takes it again (renews)');
  t.notOk(await b.acquire(), 'b may not while a holds it');
  t.match(await b.holder(), { owner: 'a' });
  await a.release();
  t.ok(await b.acquire(), 'b takes it once a gave it back');
  await b.release();

  // A run killed half-way: its process is gone, its lease not expired.
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
  await target.client.index({
    index: indexName(target.naming, 'ingest-state'),
    id: 'lock.jobs',
    document: {
      kind: 'lock',
      owner: 'killed',
      host: hostname(),
      pid: Number(dead),
      expires_at: Date.now() + 3_600_000,
      updated_at: new Date().toISOString(),
    },
    refresh: true,
  });
  t.equal(await a.holder(), undefined, 'a lease of a process that is gone holds nothing');
  t.ok(await a.acquire(), 'and is taken at once');
  await a.release();

  // A lease of another host, expired.
  const clock = { now: Date.now() };
  const c = new JobsLock(engine, 'c', 1000, () => clock.now);
  const d = new JobsLock(engine, 'd', 1000, () => clock.now);
  t.ok(await c.acquire());
  t.notOk(await d.acquire());
  clock.now += 1500;
  t.ok(await d.acquire(), 'an expired lease is taken over');
  await d.release();
  await c.release();
});
