import t from 'tap';
import { TtlCache } from '../../src/index.js';

t.test('an entry lives ttlMs, then is gone', async (t) => {
  let now = 0;
  const cache = new TtlCache<string, number>({ ttlMs: 100, now: () => now });
  cache.set('a', 1);
  now = 99;
  t.equal(cache.get('a'), 1, 'still fresh');
  now = 100;
  t.equal(cache.get('a'), undefined, 'expired at ttlMs');
  t.same(cache.size, { entries: 0, weight: 0 }, 'an expired entry read is dropped');
});

t.test('past maxEntries, the oldest set is dropped first', async (t) => {
  const cache = new TtlCache<string, number>({ ttlMs: 1000, maxEntries: 2 });
  cache.set('a', 1);
  cache.set('b', 2);
  cache.set('a', 3); // set again: now the newest
  cache.set('c', 4);
  t.equal(cache.get('b'), undefined, 'b, the oldest, dropped');
  t.equal(cache.get('a'), 3);
  t.equal(cache.get('c'), 4);
});

t.test('weighed: the total weight stays within maxWeight, oldest dropped first', async (t) => {
  const cache = new TtlCache<string, string>({ ttlMs: 1000, maxWeight: 10, weigh: (v) => v.length });
  cache.set('a', 'xxxx');
  cache.set('b', 'yyyy');
  t.same(cache.size, { entries: 2, weight: 8 });
  cache.set('c', 'zzzz');
  t.same(cache.size, { entries: 2, weight: 8 }, '12 > 10: one dropped');
  t.equal(cache.get('a'), undefined, 'the oldest');
  t.equal(cache.get('c'), 'zzzz');
  cache.set('b', 'y');
  t.same(cache.size, { entries: 2, weight: 5 }, 'a replaced value counts its own weight only');
  cache.delete('c');
  t.same(cache.size, { entries: 1, weight: 1 }, 'a deleted entry gives its weight back');
  cache.set('big', 'w'.repeat(11));
  t.equal(cache.get('big'), undefined, 'a value heavier than the whole bound is not kept');
  t.same(cache.size, { entries: 1, weight: 1 }, 'and pushes nothing out');
});

t.test('a weight that is not a finite number of at least 0 is refused', async (t) => {
  for (const weight of [-1, Number.NaN, Infinity]) {
    const cache = new TtlCache<string, number>({ ttlMs: 1000, maxWeight: 10, weigh: () => weight });
    t.throws(() => cache.set('a', 1), RangeError, String(weight));
    t.same(cache.size, { entries: 0, weight: 0 });
  }
});

t.test('ttlMs 0 keeps nothing', async (t) => {
  const cache = new TtlCache<string, number>({ ttlMs: 0 });
  cache.set('a', 1);
  t.equal(cache.get('a'), undefined);
});
