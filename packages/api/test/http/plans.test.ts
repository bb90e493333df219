import t from 'tap';
import { ApiKeyStore } from '@xle/access';
import { createTestIndices } from '@xle/test-helpers';
import { serve } from '../fixtures/serve.js';

// createApp wires the plans middleware when access.mode is `plans`, and the mounted search
// routes admit subscription keys only. Quota arithmetic is tested in @xle/access.
const target = await createTestIndices(t, {
  access: { mode: 'plans', search: 'keys', freePerDay: 3, freePerSecond: 100 },
});
const base = await serve(t, target);
const { key } = await new ApiKeyStore(target.client, target.naming).create('enterprise');

t.test('the mounted search needs a subscription key', async (t) => {
  const body = JSON.stringify({ query: { match_all: {} } });
  const headers = { 'content-type': 'application/json' };
  const anonymous = await fetch(`${base}/search`, { method: 'POST', body, headers });
  t.equal(anonymous.status, 401);
  t.match(await anonymous.json(), { error: { code: 'API_KEY_REQUIRED' } });
  t.equal(anonymous.headers.get('x-ratelimit-remaining'), null, 'not counted on the free plan of the address');
  const keyed = await fetch(`${base}/search`, { method: 'POST', body, headers: { ...headers, 'X-API-Key': key } });
  t.equal(keyed.status, 200);
  t.equal(keyed.headers.get('x-ratelimit-limit'), '1000000');
});

t.test('REST answers carry the quota headers; the 4th free request of the day is a 429', async (t) => {
  const statuses: number[] = [];
  const remaining: (string | null)[] = [];
  for (let i = 0; i < 4; i += 1) {
    const response = await fetch(`${base}/ledgers`);
    await response.arrayBuffer();
    statuses.push(response.status);
    remaining.push(response.headers.get('x-ratelimit-remaining'));
  }
  t.same(statuses.slice(3), [429]);
  t.same(remaining, ['2', '1', '0', '0']);
  const ping = await fetch(`${base}/ping`);
  t.equal(ping.status, 200, 'ping is not metered');
  const keyed = await fetch(`${base}/ledgers`, { headers: { 'X-API-Key': key } });
  t.not(keyed.status, 429);
  t.equal(keyed.headers.get('x-ratelimit-limit'), '1000000');
  t.match(keyed.headers.get('access-control-expose-headers'), /X-RateLimit-Limit, X-RateLimit-Remaining/);
});
