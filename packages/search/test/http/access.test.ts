import t from 'tap';
import { ApiKeyStore } from '@xle/access';
import { createTestIndices } from '@xle/test-helpers';
import { FORMATS, MAX_FETCH_SIZE } from '../../src/index.js';
import { serveSearch } from '../fixtures/serve.js';

// The search API on its own address: subscription keys only (access.search = keys), no free plan.
const target = await createTestIndices(t, { access: { mode: 'plans', search: 'keys', proPerDay: 2 } });
const base = await serveSearch(t, target);
const { key } = await new ApiKeyStore(target.client, target.naming).create('pro');
const body = JSON.stringify({ query: { match_all: {} } });
const post = (headers: Record<string, string> = {}): Promise<Response> =>
  fetch(`${base}/search`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

t.test('no key: 401 API_KEY_REQUIRED', async (t) => {
  const response = await post();
  t.equal(response.status, 401);
  t.same(await response.json(), {
    error: { code: 'API_KEY_REQUIRED', message: 'This address needs an API key of a subscription plan.' },
  });
});

t.test('the OpenAPI document is open to all, and describes what the routes enforce', async (t) => {
  const response = await fetch(`${base}/openapi.json`);
  t.equal(response.status, 200, 'no key needed');
  const doc = (await response.json()) as {
    openapi: string;
    paths: Record<string, Record<string, Record<string, unknown>>>;
  };
  t.equal(doc.openapi, '3.1.0');
  t.same(Object.keys(doc.paths).sort(), ['/api/v1/search', '/api/v1/search/pit', '/api/v1/sql', '/api/v1/sql/close']);
  t.same(Object.keys(doc.paths['/api/v1/search/pit'] ?? {}).sort(), ['delete', 'post']);
  t.match(doc.paths['/api/v1/sql']?.post, {
    parameters: [{ name: 'format', in: 'query', schema: { anyOf: FORMATS.map((f) => ({ const: f })) } }],
    requestBody: {
      content: {
        'application/json': {
          schema: { properties: { fetch_size: { maximum: MAX_FETCH_SIZE } }, additionalProperties: false },
        },
      },
    },
    responses: { '200': { content: { 'text/csv': {}, 'application/cbor': {} } }, '400': {}, '401': {} },
  });
  t.match(doc.paths['/api/v1/search']?.post, {
    parameters: [{ name: 'index', in: 'query' }],
    responses: { '200': {}, '413': {} },
  });
});

t.test('another spelling of the path never passes the door', async (t) => {
  const origin = base.replace(/\/api\/v1$/, '');
  for (const path of ['/API/V1/SEARCH', '/Api/v1/search/pit?index=transactions', '/api/v1/SQL', '/api/V1/search']) {
    const response = await fetch(`${origin}${path}`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
    });
    t.ok([401, 404, 405].includes(response.status), `${path}: ${response.status}`);
  }
});

t.test('a pro key: counted on its daily quota', async (t) => {
  const first = await post({ 'X-API-Key': key });
  t.equal(first.status, 200);
  t.same([first.headers.get('x-ratelimit-limit'), first.headers.get('x-ratelimit-remaining')], ['2', '1']);
  t.equal((await post({ Authorization: `Bearer ${key}` })).status, 200);
  const third = await post({ 'X-API-Key': key });
  t.equal(third.status, 429);
  t.match(await third.json(), { error: { code: 'QUOTA_EXCEEDED' } });
});
