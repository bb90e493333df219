import t from 'tap';
import { CloseHooks, indexName } from '@xle/core';
import { createTestIndices, type Teardown } from '@xle/test-helpers';
import { ApiKeyStore, counterId } from '../../src/index.js';
import { call, servePlans, testClock, withAccess } from '../fixtures/plans.js';

// One index set for the file; every test counts for client addresses of its own (X-Forwarded-For
// behind one trusted proxy), so the counters never mix.
const target = await createTestIndices(t);
const keys = new ApiKeyStore(target.client, target.naming);
const from = (address: string): Record<string, string> => ({ 'X-Forwarded-For': address });

/** The shared error body of a refusal. */
const errorBody = (code: string, message: string, details: Record<string, unknown>): unknown => ({
  error: { code, message, details },
});

/** The app with these access settings, on a test clock that starts at `at`. */
async function servedAt(t: Teardown, at: string, access: Parameters<typeof withAccess>[1]) {
  const clock = testClock(at);
  const closing = new CloseHooks();
  const base = await servePlans(t, target, withAccess(target.config, access), { now: clock.now, closing });
  return { clock, base, closing };
}

t.test('free plan: exactly the daily limit, then 429 with Retry-After until 00:00 UTC', async (t) => {
  const { base } = await servedAt(t, '2026-05-04T12:00:00.000Z', { freePerDay: 3, freePerSecond: 100 });
  const answers = [];
  for (let i = 0; i < 4; i += 1) answers.push(await call(`${base}/ledgers`, from('198.51.100.1')));
  t.same(
    answers.map((a) => a.status),
    [200, 200, 200, 429],
  );
  t.same(
    answers.map((a) => [a.limit, a.remaining, a.reset]),
    [
      ['3', '2', '43200'],
      ['3', '1', '43200'],
      ['3', '0', '43200'],
      ['3', '0', '43200'],
    ],
    'X-RateLimit-Reset: seconds until the next 00:00 UTC',
  );
  const refused = answers[3];
  t.equal(refused?.retryAfter, '43200');
  t.same(
    refused?.body,
    errorBody('QUOTA_EXCEEDED', 'The free plan allows 3 requests per UTC day; the day resets in 43200 s (00:00 UTC).', {
      plan: 'free',
      limit: 3,
      window: 'day',
      reset: 43200,
    }),
  );
  t.same(
    answers.map((a) => [a.headers.get('ratelimit-policy'), a.headers.get('ratelimit')]),
    [
      ['"second";q=100;w=1, "day";q=3;w=86400', '"second";r=99;t=1, "day";r=2;t=43200'],
      ['"second";q=100;w=1, "day";q=3;w=86400', '"second";r=98;t=1, "day";r=1;t=43200'],
      ['"second";q=100;w=1, "day";q=3;w=86400', '"second";r=97;t=1, "day";r=0;t=43200'],
      ['"second";q=100;w=1, "day";q=3;w=86400', '"second";r=96;t=1, "day";r=0;t=43200'],
    ],
    'the IETF RateLimit fields name both windows: the burst and the day',
  );
  t.match(answers[0]?.body, { access: { plan: 'free', client: '198.51.100.1' } });
  t.match(answers[0]?.headers.get('access-control-expose-headers'), /X-RateLimit-Remaining/);
  const other = await call(`${base}/ledgers`, from('198.51.100.2'));
  t.equal(other.remaining, '2', 'another address has its own quota');
});

t.test('the quota resets at the UTC day boundary (injected clock)', async (t) => {
  const { clock, base, closing } = await servedAt(t, '2026-05-04T23:59:58.500Z', {
    freePerDay: 2,
    freePerSecond: 100,
  });
  const client = from('198.51.100.10');
  t.equal((await call(`${base}/x`, client)).status, 200);
  t.equal((await call(`${base}/x`, client)).status, 200);
  const last = await call(`${base}/x`, client);
  t.equal(last.status, 429);
  t.equal(last.retryAfter, '2', '1.5 s to midnight, rounded up');
  clock.ms = Date.parse('2026-05-04T23:59:59.999Z');
  t.equal((await call(`${base}/x`, client)).status, 429, 'one millisecond before midnight: still refused');
  clock.ms = Date.parse('2026-05-05T00:00:00.000Z');
  const fresh = await call(`${base}/x`, client);
  t.equal(fresh.status, 200, 'midnight UTC: a new day');
  t.same([fresh.remaining, fresh.reset], ['1', '86400']);
  // Closing gives back the places reserved ahead and not used: the counters hold what was admitted.
  await closing.run();
  const usage = indexName(target.naming, 'usage');
  const day1 = await target.client.get<{ count: number }>({
    index: usage,
    id: counterId({ plan: 'free', client: '198.51.100.10', day: '2026-05-04' }),
  });
  const day2 = await target.client.get<{ count: number }>({
    index: usage,
    id: counterId({ plan: 'free', client: '198.51.100.10', day: '2026-05-05' }),
  });
  t.same([day1._source?.count, day2._source?.count], [2, 1], 'one counter per day; refusals are not counted');
});

t.test('two API processes share one counter: never above the limit, exact once they close', async (t) => {
  const clock = testClock('2026-05-06T08:00:00.000Z');
  // Blocks of at most 4 places (1 % of 400 is more): the documented bound on places held unused
  // is processes × block.
  const LIMIT = 400;
  const config = withAccess(target.config, { freePerDay: LIMIT, freePerSecond: 1000, quotaBlock: 4 });
  const closing = [new CloseHooks(), new CloseHooks()];
  const first = await servePlans(t, target, config, { now: clock.now, closing: closing[0] });
  const second = await servePlans(t, target, config, { now: clock.now, closing: closing[1] });
  const client = from('198.51.100.20');
  const answers = await Promise.all(
    Array.from({ length: LIMIT + 30 }, (_, i) => call(`${i % 2 === 0 ? first : second}/x`, client)),
  );
  const ok = answers.filter((a) => a.status === 200);
  const refused = answers.filter((a) => a.status === 429);
  t.ok(ok.length <= LIMIT, `${ok.length} answered: never more than the limit of ${LIMIT}`);
  t.ok(ok.length >= LIMIT - 2 * 4, 'at most processes × block places held unused by the other process');
  t.equal(ok.length + refused.length, LIMIT + 30, 'every other request refused');
  const places = ok.map((a) => LIMIT - Number(a.remaining));
  t.equal(new Set(places).size, ok.length, 'each admitted request saw its own place in the count');
  t.ok(
    refused.every((a) => a.body.error?.code === 'QUOTA_EXCEEDED'),
    'all refusals are the daily quota',
  );
  await Promise.all(closing.map((c) => c.run()));
  const usage = await target.client.get<{ count: number }>({
    index: indexName(target.naming, 'usage'),
    id: counterId({ plan: 'free', client: '198.51.100.20', day: '2026-05-06' }),
  });
  t.equal(usage._source?.count, ok.length, 'closed, both gave back what they held: the counter is what was admitted');
});

t.test('the count survives a restart: a new process continues it', async (t) => {
  const clock = testClock('2026-05-06T09:00:00.000Z');
  const config = withAccess(target.config, { freePerDay: 10, freePerSecond: 100 });
  const client = from('198.51.100.30');
  const closing = new CloseHooks();
  const before = await servePlans(t, target, config, { now: clock.now, closing });
  for (let i = 0; i < 6; i += 1) await call(`${before}/x`, client);
  await closing.run(); // a graceful stop gives back the places it reserved ahead
  const after = await servePlans(t, target, config, { now: clock.now });
  const next = await call(`${after}/x`, client);
  t.same([next.status, next.remaining], [200, '3'], 'the 7th request of the day, wherever it lands');
});

t.test('API keys: plan by key, 401 for malformed, unknown and revoked keys', async (t) => {
  const clock = testClock('2026-05-07T10:00:00.000Z');
  const config = withAccess(target.config, { freePerDay: 1, proPerDay: 5, enterprisePerDay: 7, freePerSecond: 100 });
  const base = await servePlans(t, target, config, { now: clock.now, keyCacheMs: 0 });
  const pro = await keys.create('pro', 'tests');
  const enterprise = await keys.create('enterprise');
  const client = from('198.51.100.40');
  t.equal((await call(`${base}/x`, client)).status, 200);
  t.equal((await call(`${base}/x`, client)).status, 429, 'free quota used up');

  const withKey = await call(`${base}/x`, { ...client, 'X-API-Key': pro.key });
  t.same([withKey.status, withKey.limit, withKey.remaining], [200, '5', '4'], 'the key has its own, larger quota');
  t.match(withKey.body, { access: { plan: 'pro', client: pro.record.key_id, keyId: pro.record.key_id } });
  const bearer = await call(`${base}/x`, { Authorization: `Bearer ${pro.key}` });
  t.same([bearer.status, bearer.remaining], [200, '3'], 'Bearer counts on the same key, from any address');
  const big = await call(`${base}/x`, { 'X-API-Key': enterprise.key });
  t.same([big.limit, big.remaining], ['7', '6']);

  const unknown = await call(`${base}/x`, { 'X-API-Key': `xle_${'A'.repeat(43)}` });
  t.equal(unknown.status, 401);
  t.same(unknown.body, { error: { code: 'INVALID_API_KEY', message: 'The API key is unknown or revoked.' } });
  t.equal(unknown.headers.get('www-authenticate'), 'Bearer realm="api"');
  const malformed = await call(`${base}/x`, { 'X-API-Key': 'letmein' });
  t.match(malformed, { status: 401, body: { error: { code: 'INVALID_API_KEY', details: { reason: String } } } });
  const basic = await call(`${base}/x`, { Authorization: 'Basic dXNlcjpwYXNz' });
  t.match(basic, { status: 401, body: { error: { code: 'INVALID_API_KEY' } } }, 'never downgraded to free');

  t.ok(await keys.revoke(pro.record.key_id));
  const revoked = await call(`${base}/x`, { 'X-API-Key': pro.key });
  t.match(revoked, { status: 401, body: { error: { code: 'INVALID_API_KEY' } } }, 'a revoked key is refused');
  t.notOk(await keys.revoke('key_0000000000000000'), 'revoking an unknown id says so');
});

t.test('per-second bursts: 429 RATE_LIMITED with Retry-After 1, not counted for the day', async (t) => {
  const { clock, base } = await servedAt(t, '2026-05-08T10:00:00.100Z', { freePerDay: 100, freePerSecond: 2 });
  const client = from('198.51.100.50');
  const first = [await call(`${base}/x`, client), await call(`${base}/x`, client), await call(`${base}/x`, client)];
  t.same(
    first.map((a) => a.status),
    [200, 200, 429],
  );
  const burst = first[2];
  t.equal(burst?.retryAfter, '1');
  t.same(
    burst?.body,
    errorBody('RATE_LIMITED', 'The free plan allows 2 requests per second; the window resets in 1 s.', {
      plan: 'free',
      limit: 2,
      window: 'second',
      reset: 1,
    }),
  );
  t.same(
    [burst?.limit, burst?.remaining, burst?.reset],
    ['2', '0', '1'],
    'X-RateLimit-* of a burst refusal describe the limit it hit, not the day',
  );
  t.same(
    [burst?.headers.get('ratelimit-policy'), burst?.headers.get('ratelimit')],
    ['"second";q=2;w=1, "day";q=100;w=86400', '"second";r=0;t=1, "day";r=98;t=50400'],
    'the RateLimit fields still carry the day',
  );
  clock.ms += 1000;
  const later = await call(`${base}/x`, client);
  t.same([later.status, later.remaining], [200, '97'], 'next second: admitted; the refusal was not counted');
});

t.test('ping, openapi.json and docs use no daily quota (bursts still apply)', async (t) => {
  const { clock, base } = await servedAt(t, '2026-05-09T10:00:00.000Z', { freePerDay: 1, freePerSecond: 3 });
  const client = from('198.51.100.60');
  t.equal((await call(`${base}/x`, client)).status, 200);
  t.equal((await call(`${base}/x`, client)).status, 429);
  clock.ms += 1000;
  const ping = await call(`${base}/ping`, client);
  t.same([ping.status, ping.limit], [200, null], 'not metered: no quota headers');
  t.equal((await call(`${base}/openapi.json`, client)).status, 200);
  t.equal((await call(`${base}/docs`, client)).status, 200);
  t.equal((await call(`${base}/ping`, client)).status, 429, 'the fourth request of the second is a burst');
});

t.test('the search door: subscription keys only, per access.search', async (t) => {
  const clock = testClock('2026-05-10T10:00:00.000Z');
  const pro = await keys.create('pro');
  const keysOnly = await servePlans(t, target, withAccess(target.config, { search: 'keys', proPerDay: 10 }), {
    now: clock.now,
    door: 'search',
  });
  const anonymous = await call(`${keysOnly}/search`, from('198.51.100.70'));
  t.same(anonymous.status, 401);
  t.same(anonymous.body, {
    error: { code: 'API_KEY_REQUIRED', message: 'This address needs an API key of a subscription plan.' },
  });
  const keyed = await call(`${keysOnly}/search`, { 'X-API-Key': pro.key });
  t.same([keyed.status, keyed.limit, keyed.remaining], [200, '10', '9'], 'counted on the key');

  const either = await servePlans(t, target, withAccess(target.config, { search: 'keys+payg' }), {
    now: clock.now,
    door: 'search',
  });
  t.equal((await call(`${either}/search`)).status, 401);
  const claim = await call(`${either}/search`, { 'Payment-Claim': 'left to the pay-as-you-go middleware' });
  t.same([claim.status, claim.limit], [200, null], 'a claim is passed on, uncounted here');

  const open = await servePlans(t, target, withAccess(target.config, { search: 'open' }), { door: 'search' });
  t.equal((await call(`${open}/search`)).status, 200);
});
