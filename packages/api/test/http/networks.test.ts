import t from 'tap';
import { ApiKeyStore } from '@xle/access';
import {
  applyTemplates,
  createEngineClient,
  deleteTemplatesAndIndices,
  namingOf,
  type Config,
  type DeepPartial,
} from '@xle/core';
import { listFixtureLedgers, readFixture, testConfig, type TestIndices } from '@xle/test-helpers';
import { getJson, ingest, serve } from '../fixtures/serve.js';
import { normalizeLedger } from '@xle/documents';

// Mainnet and testnet side by side, as two processes would serve them from two addresses: the
// same prefix, so only the network part of the index names keeps them apart. Different fixture
// ledgers go into each: the recent ones into mainnet, the historical ones into testnet.
const PAYMENT = 'B0DAF34D43E286943C5BBE79BA2CBDAC9C385E194FE2959DEAAFA4B4C71E505E'; // in ledger 83258110
const HISTORICAL = 11119600;

const access: DeepPartial<Config['access']> = { mode: 'plans', search: 'keys', freePerSecond: 1000 };
const mainConfig = testConfig({ network: 'mainnet', access });
const testConfig_ = testConfig({ network: 'testnet', es: mainConfig.es, access });
const client = createEngineClient(mainConfig);
const mainnet: TestIndices = { config: mainConfig, client, naming: namingOf(mainConfig) };
const testnet: TestIndices = { config: testConfig_, client, naming: namingOf(testConfig_) };
t.teardown(async () => {
  // The component templates are shared by both networks of the prefix: the first call removes the
  // testnet indices and index templates, then fails on components still used by mainnet's.
  await deleteTemplatesAndIndices(client, testnet.naming).catch((error: unknown) => {
    if (!String((error as Error).message).includes('still in use')) throw error;
  });
  await deleteTemplatesAndIndices(client, mainnet.naming);
  await client.close();
});
await applyTemplates(client, mainnet.naming);
await applyTemplates(client, testnet.naming);
const files = listFixtureLedgers();
await ingest(
  mainnet,
  files.filter((f) => f.includes('/recent/')).map((f) => normalizeLedger(readFixture(f))),
);
await ingest(
  testnet,
  files.filter((f) => f.includes('/historical/')).map((f) => normalizeLedger(readFixture(f))),
);
const [main, test] = await Promise.all([serve(t, mainnet), serve(t, testnet)]);

t.test('each address lists only its own network ledgers', async (t) => {
  const [mainList, testList] = await Promise.all([getJson(`${main}/ledgers`), getJson(`${test}/ledgers`)]);
  t.equal(mainList.status, 200);
  t.equal(testList.status, 200);
  const indices = (body: unknown): number[] =>
    (body as { ledgers: { ledger_index: number }[] }).ledgers.map((l) => l.ledger_index);
  t.equal((mainList.body as { current_ledger: number }).current_ledger, 94084608);
  t.ok((testList.body as { current_ledger: number }).current_ledger < 83258110, 'testnet tops out lower');
  t.same(
    indices(mainList.body).filter((i) => indices(testList.body).includes(i)),
    [],
    'no ledger in both lists',
  );
});

t.test('a ledger or transaction of one network is 404 on the other', async (t) => {
  t.equal((await getJson(`${main}/ledger/83258110`)).status, 200);
  t.equal((await getJson(`${test}/ledger/83258110`)).status, 404);
  t.equal((await getJson(`${main}/tx/${PAYMENT}`)).status, 200);
  t.equal((await getJson(`${test}/tx/${PAYMENT}`)).status, 404);
  t.equal((await getJson(`${test}/ledger/${HISTORICAL}`)).status, 200);
  t.equal((await getJson(`${main}/ledger/${HISTORICAL}`)).status, 404);
  const txs = (await getJson(`${test}/ledger/${HISTORICAL}/transactions`)).body as { hash: string }[];
  const hash = txs[0]?.hash;
  t.ok(hash, 'the testnet ledger has transactions');
  t.equal((await getJson(`${test}/tx/${hash}`)).status, 200);
  t.equal((await getJson(`${main}/tx/${hash}`)).status, 404);
});

t.test('API keys and quotas are per network too', async (t) => {
  const { key } = await new ApiKeyStore(client, testnet.naming).create('pro', 'testnet only');
  const onTest = await fetch(`${test}/ledgers`, { headers: { 'X-API-Key': key } });
  t.equal(onTest.status, 200);
  t.equal(onTest.headers.get('x-ratelimit-limit'), '100000');
  const onMain = await fetch(`${main}/ledgers`, { headers: { 'X-API-Key': key } });
  t.equal(onMain.status, 401, 'a testnet key is unknown on mainnet');
});
