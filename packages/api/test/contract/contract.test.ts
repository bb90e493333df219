import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import Compile from 'typebox/compile';
import { fixturesDir, indexName, repoRoot } from '@xle/core';
import { METRIC_IDS } from '@xle/documents';
import { importWalletKyc, loadValidatorList, runValidatorsJob, verifyValidatorList } from '@xle/ingester';
import { createTestIndices, syntheticLedgers } from '@xle/test-helpers';
import {
  engineOf,
  fixtureLedgers,
  getJson,
  ingest,
  loadedIndices,
  loadNetworkData,
  runAllJobs,
  serve,
} from '../fixtures/serve.js';

/**
 * The contract, walked: every GET operation of the published OpenAPI document is called on the
 * fixture data with real ids, and each 200 body is checked against the schema the document
 * publishes for it (the server checks it too: the suite runs with api.validateResponses).
 */
type Json = Record<string, unknown>;

const target = await loadedIndices(t);
await runAllJobs(target);
const engine = engineOf(target);
await importWalletKyc(engine, 'test', [{ account: 'rUzWJkXyEtT8ekSSxkBYPqCvHpngcy6Fks', kycApproved: true }]);
const list = verifyValidatorList(await loadValidatorList(join(fixturesDir, 'validators/xrpl-dev-portal/vl.json')), {
  allowExpired: true,
});
await runValidatorsJob({ engine }, { name: 'vl.ripple.com', list });
// The network snapshots and the node crawl, from recorded mainnet answers replayed locally.
await loadNetworkData(engine);
const base = await serve(t, target);
const doc = (await getJson(`${base}/openapi.json`)).body as {
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json>; securitySchemes: Record<string, Json> };
};

/** Real ids of the fixture data for each path parameter, read from the API's own lists. */
async function exampleIds(): Promise<Record<string, string[]>> {
  const first = async <T>(path: string, pick: (body: never) => T): Promise<T> => {
    const answer = await getJson(`${base}${path}`);
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status}`);
    return pick(answer.body as never);
  };
  const tokens = await first('/tokens', (b: Json[]) => b.slice(0, 3).map((x) => `${x.currency}.${x.issuer}`));
  const pools = await first('/amm/pools', (b: Json[]) => b.slice(0, 3).map((x) => String(x.Account)));
  const ledgerTxs = await first('/ledger/94084608/transactions', (b: Json[]) => b);
  const nft = await first('/account/rfx2mVhTZzc6bLXKeYyFKtpha2LHrkNZFT/nfts', (b: Json[]) => b);
  const validators = await first('/validatorregistry', (b: Json[]) => b.slice(0, 2).map((x) => String(x.master_key)));
  const nodes = await first('/nodes', (b: Json[]) => b.slice(0, 2).map((x) => String(x.public_key)));
  const amendments = await first('/amendments', (b: Json[]) => b.slice(0, 2).map((x) => String(x.amendment_id)));
  return {
    ACCOUNT: [
      'rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw',
      'rUzWJkXyEtT8ekSSxkBYPqCvHpngcy6Fks',
      'rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y',
      'rGhDCgik9CwiNpcNnYHkEHcMgw2dkLgtNB', // an escrow's owner
      'rfx2mVhTZzc6bLXKeYyFKtpha2LHrkNZFT', // an NFT owner
      'rHTaDFHJng6YVtThvv522LmJfkocBVkK6Z', // created in the loaded ledgers
      'rJR7gjNe3DpJ7kpB4CHBxjDKfwVMpTKPpj', // its activation not indexed
    ],
    HASH: ledgerTxs.slice(0, 12).map((x) => String(x.hash)),
    LEDGER_INDEX: ['94084608', '83258110'],
    // One minted in the loaded ledgers (its history has the mint), one only seen on its page.
    NFTOKEN_ID: ['000827102D192F0A3AAA1EDE5AC7F33892E95FBA16D2221497299CA200000B08', String(nft[0]?.NFTokenID)],
    AMM_ACCOUNT: pools,
    OBJECT_ID: [
      'DBA5231FDE231A51F94640F890BF8FFDA45586EDBBD0ECCEAF532ADB8AC01A6F', // an Escrow
      '4C53D1E11EE197DA72BDEF9F96F06B194C1AEFEB16D22214A6AE7DCE00000034', // an NFTokenPage
    ],
    AMENDMENT_ID: amendments,
    NAMESPACE_ID: ['XRP'],
    FACT_ID: ['total_supply'],
    METRIC_ID: [...METRIC_IDS],
    NODE_PUBLIC_KEY: nodes,
    VALIDATOR_PUBLIC_KEY: validators,
    PUBLIC_KEY: validators,
    TOKEN: tokens,
    TOKEN_ID: ['USD'],
    // Close times of two fixture ledgers (94084608, 83258110), and an instant between ledgers.
    DATE: ['2025-02-12T00:16:10Z', '2023-10-16T13:05:41Z', '2024-06-01'],
    // Required query parameters, by `?name`.
    '?issuer': [...new Set(nft.map((x) => String(x.Issuer)))],
  };
}

const isEmptyObject = (schema: Json): boolean =>
  schema.type === 'object' &&
  Object.keys((schema.properties as Json | undefined) ?? {}).length === 0 &&
  schema.patternProperties === undefined;

t.test('every operation publishes a 200 schema that says something', async (t) => {
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const content = ((operation.responses as Json)['200'] as Json).content as Record<string, { schema: Json }>;
      const json = content['application/json'];
      if (json === undefined) continue; // CSV and other media types only
      t.notOk(isEmptyObject(json.schema), `${method.toUpperCase()} ${path}`);
      if (json.schema.type === 'array') t.notOk(isEmptyObject(json.schema.items as Json), `${path} items`);
    }
  }
  t.match(doc.components.securitySchemes.ApiKey, { type: 'apiKey', in: 'header', name: 'X-API-Key' });
  t.ok(doc.paths['/api/v1/ping']?.get, '/ping is described');
});

/** An answer cut for the document: every array to its first two items (still valid for its schema). */
const cut = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.slice(0, 2).map(cut)
    : typeof value === 'object' && value !== null
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cut(v)]))
      : value;
const EXAMPLES_FILE = `${repoRoot}packages/api/openapi-examples.json`;
const examples: Record<string, unknown> = {};

t.test('every GET on the fixture data answers 200 with a body its published schema accepts', async (t) => {
  const ids = await exampleIds();
  let checked = 0;
  for (const [path, methods] of Object.entries(doc.paths)) {
    const operation = methods.get;
    if (operation === undefined) continue;
    const content = ((operation.responses as Json)['200'] as Json).content as Record<string, { schema: Json }>;
    const schema = content['application/json']?.schema;
    if (schema === undefined) continue;
    const check = Compile(schema as never);
    const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
    const rounds = Math.max(1, ...names.map((n) => ids[n]?.length ?? 0));
    for (let i = 0; i < rounds; i += 1) {
      let url = path.replace('/api/v1', '');
      const pick = (name: string): string => {
        const values = ids[name];
        if (values === undefined || values.length === 0) throw new Error(`no example id for ${name}`);
        return encodeURIComponent(values[i % values.length] as string);
      };
      for (const name of names) url = url.replace(`{${name}}`, pick(name));
      const required = ((operation.parameters ?? []) as Json[]).filter((p) => p.in === 'query' && p.required === true);
      if (required.length > 0)
        url += `?${required.map((p) => `${String(p.name)}=${pick(`?${String(p.name)}`)}`).join('&')}`;
      const answer = await getJson(`${base}${url}`);
      // Exact or refused: a balance at the newest ledger lies past the gaps between the fixture
      // ledgers, so these answer their documented refusal (their 200s are walked below).
      if (answer.status === 422 && (operation.responses as Json)['422'] !== undefined) {
        t.match(answer.body, { error: { code: 'HISTORY_INCOMPLETE', details: { complete_from_ledger: null } } }, url);
        continue;
      }
      t.equal(answer.status, 200, `GET ${url}`, { body: answer.body });
      if (answer.status !== 200) continue;
      const errors = [...check.Errors(answer.body)].slice(0, 5);
      t.same(errors, [], `GET ${url} matches its schema`);
      if (examples[path] === undefined) examples[path] = cut(answer.body);
      checked += 1;
    }
  }
  // Balances are known at the ledger an account was created (its history starts there); a
  // history over days needs consecutive ledgers, which the fixtures do not have around any
  // account's creation: that example comes from synthetic ledgers made from them, consecutive.
  const contiguous = await createTestIndices(t);
  await ingest(contiguous, syntheticLedgers(fixtureLedgers(), { transactions: 1000, seed: 'contract' }));
  const contiguousBase = await serve(t, contiguous);
  const start = await contiguous.client.search<{ account: string }>({
    index: indexName(contiguous.naming, 'balance-changes'),
    size: 1,
    query: { term: { history_start: true } },
    sort: [{ ledger_index: 'asc' }],
  });
  const born = String(start.hits.hits[0]?._source?.account);
  for (const [path, at, url] of [
    ['/api/v1/account/{ACCOUNT}/balances', base, '/account/rHTaDFHJng6YVtThvv522LmJfkocBVkK6Z/balances?ledger=1021029'],
    ['/api/v1/account/{ACCOUNT}/balance_history', contiguousBase, `/account/${born}/balance_history?interval=day`],
  ] as const) {
    const answer = await getJson(`${at}${url}`);
    t.equal(answer.status, 200, `GET ${url}`, { body: answer.body });
    const schema = (
      ((doc.paths[path]?.get?.responses as Json)['200'] as Json).content as Record<string, { schema: Json }>
    )['application/json']?.schema;
    t.same([...Compile(schema as never).Errors(answer.body)].slice(0, 5), [], `GET ${url} matches its schema`);
    examples[path] = cut(answer.body);
    checked += 1;
  }
  t.ok(checked >= 60, `${checked} answers checked`);
  if (process.env.UPDATE_OPENAPI_EXAMPLES === '1')
    writeFileSync(EXAMPLES_FILE, `${JSON.stringify(examples, null, 2)}\n`);
});

t.test('each GET shows a real answer as its example, and the example matches the schema', async (t) => {
  for (const [path, methods] of Object.entries(doc.paths)) {
    const content = (((methods.get?.responses as Json | undefined)?.['200'] as Json | undefined)?.content ??
      {}) as Record<string, { schema: Json; example?: unknown }>;
    const json = content['application/json'];
    if (json === undefined) continue;
    t.not(json.example, undefined, `${path} has an example (UPDATE_OPENAPI_EXAMPLES=1 writes them)`);
    t.same([...Compile(json.schema as never).Errors(json.example)].slice(0, 3), [], `${path}: its example fits`);
  }
});

t.test('the fields the contract promises, where they used to be missing or inexact', async (t) => {
  const get = async (path: string): Promise<Json> => {
    const answer = await getJson(`${base}${path}`);
    t.equal(answer.status, 200, path);
    return answer.body as Json;
  };
  // Created in the loaded ledgers: rippled left Flags and OwnerCount (0) out of the metadata.
  t.match(await get('/account/rHTaDFHJng6YVtThvv522LmJfkocBVkK6Z'), {
    Flags: 0,
    OwnerCount: 0,
    ownerCount: 0,
    parent: 'rJR7gjNe3DpJ7kpB4CHBxjDKfwVMpTKPpj',
    inception: '2013-06-11T20:01:20.000Z',
  });
  // Its activation is not indexed: the activation's fields are there, null.
  t.match(await get('/account/rJR7gjNe3DpJ7kpB4CHBxjDKfwVMpTKPpj'), {
    parent: null,
    initial_balance: null,
    inception: null,
    ledger_index: null,
    tx_hash: null,
    parentName: null,
  });
  const ancestry = await get('/account/rHTaDFHJng6YVtThvv522LmJfkocBVkK6Z/ancestry');
  t.match((ancestry.ancestry as Json[])[0], {
    account: 'rJR7gjNe3DpJ7kpB4CHBxjDKfwVMpTKPpj',
    inception: null,
    ledger_index: null,
  });
  // An escrow created in the loaded ledgers (to its own account: no DestinationNode).
  const [escrow] = (await get('/account/rGhDCgik9CwiNpcNnYHkEHcMgw2dkLgtNB/escrows')) as unknown as Json[];
  t.match(escrow, { Flags: 0, OwnerNode: '0' });
  const object = await get('/object/DBA5231FDE231A51F94640F890BF8FFDA45586EDBBD0ECCEAF532ADB8AC01A6F');
  t.match(object, { ledger_hash: /^[0-9A-F]{64}$/ });
  // A pseudo-transaction has no signing key: the field is there, null.
  const pseudo = ((await get('/ledger/94084608/transactions')) as unknown as Json[]).find(
    (tx) => tx.TransactionType === 'UNLModify',
  );
  t.match(pseudo, { SigningPubKeyAccount: null });
  // No validation was collected: the agreement says so, it does not count misses.
  const validator = await get('/validator/nHB5kpvUaEpvCtwu31fMf6dTuuCNnWRctWrV3UEZ9rbtPdpvbUvJ');
  for (const window of ['agreement_1h', 'agreement_24h', 'agreement_30day'])
    t.match(validator[window], { missed: 0, total: 0, score: '0.00000', incomplete: true }, window);
});
