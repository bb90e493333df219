import t from 'tap';
import { loadConfig } from '@xle/core';
import { planLimitsOf, secondsUntilUtcMidnight, utcDay } from '../../src/plans/plans.js';
import { leaseBlock } from '../../src/plans/quota-leases.js';

t.test('the UTC day and the seconds to its end', async (t) => {
  const lastMs = Date.parse('2026-03-01T23:59:59.999Z');
  t.equal(utcDay(lastMs), '2026-03-01');
  t.equal(utcDay(lastMs + 1), '2026-03-02', 'the day turns at 00:00 UTC');
  t.equal(secondsUntilUtcMidnight(Date.parse('2026-03-01T00:00:00.000Z')), 86_400);
  t.equal(secondsUntilUtcMidnight(Date.parse('2026-03-01T23:00:00.000Z')), 3600);
  t.equal(secondsUntilUtcMidnight(Date.parse('2026-03-01T23:59:58.200Z')), 2, 'rounded up');
  t.equal(secondsUntilUtcMidnight(lastMs), 1, 'never 0');
});

t.test('limits come from config.access', async (t) => {
  const { access } = loadConfig({ env: {}, file: undefined, cwd: '/nonexistent' });
  t.same(planLimitsOf(access), {
    free: { perDay: 10_000, perSecond: 10 },
    pro: { perDay: 100_000, perSecond: 50 },
    enterprise: { perDay: 1_000_000, perSecond: 200 },
  });
  const custom = loadConfig({
    env: { ACCESS_PRO_PER_DAY: '5', ACCESS_ENTERPRISE_PER_SECOND: '7' },
    cwd: '/nonexistent',
  });
  t.match(planLimitsOf(custom.access), { pro: { perDay: 5 }, enterprise: { perSecond: 7 } });
});

t.test('a quota block is ACCESS_QUOTA_BLOCK, at most 1 % of the daily limit, at least one place', async (t) => {
  const { access } = loadConfig({ env: {}, file: undefined, cwd: '/nonexistent' });
  t.equal(access.quotaBlock, 1000, 'the default block');
  const limits = planLimitsOf(access);
  t.equal(leaseBlock(access.quotaBlock, limits.free.perDay), 100, 'free (10,000 a day): 100');
  t.equal(leaseBlock(access.quotaBlock, limits.pro.perDay), 1000, 'Pro (100,000 a day): 1,000');
  t.equal(leaseBlock(access.quotaBlock, limits.enterprise.perDay), 1000, 'Enterprise: the block itself');
  t.equal(leaseBlock(50, 1000), 10);
  t.equal(leaseBlock(1000, 99), 1, 'a limit under 100: one place at a time');
  t.equal(leaseBlock(1, 1_000_000), 1);
});
