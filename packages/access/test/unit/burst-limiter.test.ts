import t from 'tap';
import { BurstLimiter } from '../../src/plans/burst-limiter.js';

t.test('a fixed one-second window per client', async (t) => {
  const burst = new BurstLimiter();
  const at = 1_000_000_000_000;
  t.same(
    [1, 2, 3, 4].map(() => burst.take('a', 3, at + 10)),
    [
      { allowed: true, remaining: 2 },
      { allowed: true, remaining: 1 },
      { allowed: true, remaining: 0 },
      { allowed: false, remaining: 0 },
    ],
    'each answer says what the window has left',
  );
  t.ok(burst.take('b', 3, at + 999).allowed, 'other clients have their own window');
  t.notOk(burst.take('a', 3, at + 999).allowed, 'still the same second');
  t.same(burst.take('a', 3, at + 1000), { allowed: true, remaining: 2 }, 'the next second starts afresh');
});
