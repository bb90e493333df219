import t from 'tap';
import { boundedMemo } from '../../src/index.js';

t.test('a bounded memo computes each key once while it is remembered, and forgets the oldest first', async (t) => {
  const computed: string[] = [];
  const length = boundedMemo(2, (key) => {
    computed.push(key);
    return key.length;
  });
  t.equal(length('a'), 1);
  t.equal(length('bb'), 2);
  t.equal(length('a'), 1);
  t.same(computed, ['a', 'bb'], 'remembered: not computed again');
  t.equal(length('ccc'), 3);
  t.equal(length('bb'), 2);
  t.same(computed, ['a', 'bb', 'ccc'], 'two kept: "a", the oldest, made room for "ccc"');
  t.equal(length('a'), 1);
  t.same(computed, ['a', 'bb', 'ccc', 'a'], 'a forgotten key is computed again');
});

t.test('a remembered null is an answer, not a miss', async (t) => {
  let calls = 0;
  const nothing = boundedMemo(4, () => {
    calls += 1;
    return null;
  });
  t.equal(nothing('k'), null);
  t.equal(nothing('k'), null);
  t.equal(calls, 1);
});
