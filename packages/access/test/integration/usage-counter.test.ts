import t from 'tap';
import { indexName, ReadEngine } from '@xle/core';
import { createTestIndices } from '@xle/test-helpers';
import { counterId, UsageCounter, UsageStore, type CounterKey, type VersionedUsage } from '../../src/index.js';

/**
 * The daily counter's conditional writes on the real engine: a writer that knows the version it
 * wrote last changes the counter in one write, and every way that version can be stale (another
 * writer, places given back, the counter pruned) ends in a read, never in a lost or invented count.
 */
const target = await createTestIndices(t);

/** The real store, counting the real-time reads it makes. */
class CountingStore extends UsageStore {
  reads = 0;
  override read(id: string): Promise<VersionedUsage | undefined> {
    this.reads += 1;
    return super.read(id);
  }
}

let clients = 0;
const freshKey = (): CounterKey => {
  clients += 1;
  return { plan: 'pro', client: `key_${String(clients).padStart(16, '0')}`, day: '2026-11-26' };
};

t.test('a lone writer changes its counter in one write, reading only the first time', async (t) => {
  const store = new CountingStore(new ReadEngine(target.client), target.naming);
  const counter = new UsageCounter(store);
  const key = freshKey();
  t.same(await counter.reserve(key, 10, 1000), { granted: 10, count: 10 });
  t.equal(store.reads, 1, 'the first change reads (nothing is known of the counter yet)');
  t.same(await counter.reserve(key, 20, 1000), { granted: 20, count: 30 });
  await counter.giveBack(key, 5);
  t.equal(store.reads, 1, 'the next changes write from the version this writer wrote');
  t.equal(await counter.peek(key), 25, 'the engine holds every change');
});

t.test('two writers on one counter: each stale version costs a read, no change is lost', async (t) => {
  const storeA = new CountingStore(new ReadEngine(target.client), target.naming);
  const storeB = new CountingStore(new ReadEngine(target.client), target.naming);
  const a = new UsageCounter(storeA);
  const b = new UsageCounter(storeB);
  const key = freshKey();
  let granted = 0;
  for (let i = 0; i < 10; i += 1) {
    granted += (await a.reserve(key, 3, 1_000_000)).granted;
    granted += (await b.reserve(key, 4, 1_000_000)).granted;
  }
  t.equal(granted, 70);
  t.equal(await a.peek(key), 70, 'the counter is the sum of every grant');
  t.ok(
    storeA.reads >= 10 && storeB.reads >= 10,
    `each write after the other writer's read again (${storeA.reads}, ${storeB.reads})`,
  );

  const concurrent = await Promise.all(
    Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).reserve(key, 1, 1_000_000)),
  );
  t.equal(
    concurrent.reduce((n, r) => n + r.granted, 0),
    20,
  );
  t.equal(new Set(concurrent.map((r) => r.count)).size, 20, 'each grant its own place');
  t.equal(await a.peek(key), 90);
});

t.test('at the limit, a writer asks the engine before refusing: places given back elsewhere count', async (t) => {
  const a = new UsageCounter(new UsageStore(new ReadEngine(target.client), target.naming));
  const b = new UsageCounter(new UsageStore(new ReadEngine(target.client), target.naming));
  const key = freshKey();
  const LIMIT = 8;
  let held = 0;
  for (let i = 0; i < 10 && held < LIMIT; i += 1) held += (await a.reserve(key, LIMIT, LIMIT)).granted;
  t.equal(held, LIMIT, 'a holds every place (reservations shrink near the limit)');
  t.same(await a.reserve(key, 1, LIMIT), { granted: 0, count: LIMIT }, 'full');
  await b.giveBack(key, 3);
  t.same(
    await a.reserve(key, 1, LIMIT),
    { granted: 1, count: 6 },
    "b's places, seen although a remembered a full counter",
  );
});

t.test('a remembered counter that was pruned is created again, from zero', async (t) => {
  const store = new UsageStore(new ReadEngine(target.client), target.naming);
  const counter = new UsageCounter(store);
  const key = freshKey();
  t.same(await counter.reserve(key, 5, 100), { granted: 5, count: 5 });
  await target.client.delete({ index: indexName(target.naming, 'usage'), id: counterId(key) });
  t.same(
    await counter.reserve(key, 2, 100),
    { granted: 2, count: 2 },
    'the remembered version conflicts; the read finds nothing',
  );
  t.equal(await counter.peek(key), 2);
});
