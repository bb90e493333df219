import t from 'tap';
import { BurstLimiter } from '../../src/plans/burst-limiter.js';

t.test('a fixed one-second window per client', async (t) => {
  const burst = new BurstLimiter();
  const at = 1_000_000_000_000;
  t.same(
    [1, 2, 3, 4].map(() => burst.take('a', 3, at + 10)),
    [true, true, true, false],
  );
  t.ok(burst.take('b', 3, at + 999), 'other clients have their own window');
  t.notOk(burst.take('a', 3, at + 999), 'still the same second');
  t.ok(burst.take('a', 3, at + 1000), 'the next second starts afresh');
});
