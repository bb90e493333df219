import t from 'tap';
import { Wallet } from 'xrpl';
import { createLogger, indexName, loadConfig, type Client, type Config } from '@xle/core';
import { createSearchApp } from '@xle/search';
import { createTestIndices, type TestIndices, listenForTest, type Teardown } from '@xle/test-helpers';
import { createApp } from '../../src/index.js';
import { claimHeader, createChannel } from '../fixtures/payg.js';

const service = Wallet.generate().classicAddress;
const logger = createLogger('payg-test', 'silent');

async function listen(t: Teardown, callback: ReturnType<ReturnType<typeof createApp>['callback']>): Promise<string> {
  return `${await listenForTest(t, callback)}/api/v1`;
}

function serveApi(t: Teardown, target: { config: Config; client: Client }): Promise<string> {
  return listen(t, createApp({ config: target.config, client: target.client, logger }).callback());
}

async function call(url: string, claim?: string, init: RequestInit = {}): Promise<{ status: number; code?: string }> {
  const headers = new Headers(init.headers);
  if (claim !== undefined) headers.set('Payment-Claim', claim);
  const response = await fetch(url, { ...init, headers });
  const body = (await response.json()) as { error?: { code: string } };
  return body.error === undefined ? { status: response.status } : { status: response.status, code: body.error.code };
}

async function served(target: TestIndices, channel: string): Promise<number> {
  const found = await target.client.get<{ served: number }>(
    { index: indexName(target.naming, 'payg-channels'), id: channel },
    { ignore: [404] },
  );
  return found._source?.served ?? 0;
}

t.test('the API on a pay-as-you-go address: 402 without a claim, exactly N served across two instances', async (t) => {
  const target = await createTestIndices(t, { access: { mode: 'payg', search: 'keys', paygDestination: service } });
  const first = await serveApi(t, target);
  const second = await serveApi(t, target);
  const channel = await createChannel(target, service, 1_000_000n);

  t.match(await call(`${first}/amm/pools`), { status: 402, code: 'PAYMENT_REQUIRED' });
  t.match(await call(`${first}/amm/pools`, 'channel=x'), { status: 402, code: 'CLAIM_MALFORMED' });

  const claim = claimHeader(channel, 60n * 100n);
  const answers = await Promise.all(
    Array.from({ length: 200 }, (_, i) => call(`${i % 2 === 0 ? first : second}/amm/pools`, claim)),
  );
  t.equal(answers.filter((a) => a.status === 200).length, 60);
  t.equal(answers.filter((a) => a.code === 'CLAIM_INSUFFICIENT').length, 140);
  t.equal(await served(target, channel.id), 60);

  const preflight = await fetch(`${first}/amm/pools`, { method: 'OPTIONS' });
  t.equal(preflight.status, 204, 'CORS preflights need no claim');
  for (const open of ['/ping', '/openapi.json', '/docs'])
    t.equal((await fetch(`${first}${open}`)).status, 200, `${open} needs no claim (health checks, documentation)`);

  // Mounted search keeps its own door (SEARCH_ACCESS=keys here): a claim alone is refused, uncharged.
  const search = { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"size":0}' };
  const other = await createChannel(target, service, 1_000_000n);
  t.match(await call(`${first}/search?index=objects`, claimHeader(other, 100n), search), {
    status: 401,
    code: 'API_KEY_REQUIRED',
  });
  t.equal(await served(target, other.id), 0, 'and not charged');
});

t.test('mounted search on a pay-as-you-go address is charged once', async (t) => {
  const target = await createTestIndices(t, { access: { mode: 'payg', search: 'payg', paygDestination: service } });
  const base = await serveApi(t, target);
  const channel = await createChannel(target, service, 1_000_000n);
  const search = { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"size":0}' };
  t.match(await call(`${base}/search?index=objects`, undefined, search), { status: 402, code: 'PAYMENT_REQUIRED' });
  t.equal((await call(`${base}/search?index=objects`, claimHeader(channel, 100n), search)).status, 200);
  t.equal(await served(target, channel.id), 1);
});

t.test('the search app alone follows access.search', async (t) => {
  const target = await createTestIndices(t, { access: { mode: 'plans', search: 'payg', paygDestination: service } });
  const channel = await createChannel(target, service, 1_000_000n);
  const base = await listen(t, createSearchApp({ ...target, logger }).callback());
  const search = { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"size":0}' };
  t.match(await call(`${base}/search?index=objects`, undefined, search), { status: 402, code: 'PAYMENT_REQUIRED' });
  t.equal((await call(`${base}/search?index=objects`, claimHeader(channel, 200n), search)).status, 200);
  t.equal((await call(`${base}/search?index=objects`, claimHeader(channel, 200n), search)).status, 200);
  t.match(await call(`${base}/search?index=objects`, claimHeader(channel, 200n), search), {
    status: 402,
    code: 'CLAIM_INSUFFICIENT',
  });

  const either = await createTestIndices(t, {
    access: { mode: 'plans', search: 'keys+payg', paygDestination: service },
  });
  const paid = await createChannel(either, service, 1_000_000n);
  const both = await listen(t, createSearchApp({ ...either, logger }).callback());
  t.equal(
    (await call(`${both}/search?index=objects`, claimHeader(paid, 100n), search)).status,
    200,
    'keys+payg: a claim',
  );
  t.not((await call(`${both}/search?index=objects`, undefined, search)).status, 200, 'keys+payg: neither');
  t.equal(await served(either, paid.id), 1);
});

t.test('a pay-as-you-go address without a destination does not start', async (t) => {
  const config = loadConfig({ env: {}, overrides: { access: { mode: 'payg' } } });
  t.throws(() => createApp({ config, client: {} as Client, logger }), { code: 'CONFIG_INVALID' });
  const search = loadConfig({ env: {}, overrides: { access: { mode: 'plans', search: 'keys+payg' } } });
  t.throws(() => createSearchApp({ config: search, client: {} as Client, logger }), { code: 'CONFIG_INVALID' });
});
