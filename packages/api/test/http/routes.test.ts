import t from 'tap';
import { createRange, indexName, rangeAlias } from '@xle/core';
import { FIXED_OBJECT_IDS } from '../../src/schemas/params.js';
import { getJson, loadedIndices, serve } from '../fixtures/serve.js';
import { LedgerEntry } from 'xrpl';

const PAYMENT = 'B0DAF34D43E286943C5BBE79BA2CBDAC9C385E194FE2959DEAAFA4B4C71E505E';
const SENDER = 'rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw';
const ISSUER = 'rvYAfWj5gh67oV6fW32ZzP3Aw4Eubs59B'; // Bitstamp, an issuer with many trust lines in the 2015 ledgers
const UNKNOWN_ACCOUNT = 'rrrrrrrrrrrrrrrrrrrrBZbvji';

const target = await loadedIndices(t);
await target.client.index({
  index: indexName(target.naming, 'names'),
  id: SENDER,
  document: {
    account: SENDER,
    name: 'Test sender',
    domain: 'example.com',
    verified: true,
    source: 'test',
    version: '1',
  },
  refresh: 'wait_for',
});
const base = await serve(t, target);

t.test('a ledger with a pseudo-transaction: its empty Account is no label lookup', async (t) => {
  // Ledger 94084608 holds a UNLModify, whose Account rippled writes as "".
  const answer = await getJson(`${base}/ledger/94084608/transactions`);
  t.equal(answer.status, 200);
  const unl = (answer.body as Record<string, unknown>[]).find((tx) => tx.TransactionType === 'UNLModify');
  t.match(unl, { Account: '', AccountName: null });
});

t.test('tx by hash and by ctid: the spec Transaction object', async (t) => {
  const byHash = await getJson(`${base}/tx/${PAYMENT.toLowerCase()}`);
  t.equal(byHash.status, 200, 'hashes are case-insensitive');
  t.match(byHash.body, {
    hash: PAYMENT,
    TransactionType: 'Payment',
    Account: SENDER,
    Amount: {
      currency: '785354494B000000000000000000000000000000',
      issuer: 'rJNV9i4Q6zvRhpE2zjxgkvff3eGHQohZht',
      value: '12136',
    },
    Fee: '12',
    ledger_index: 83258110,
    date: '2023-10-16T13:05:41.000Z',
    validated: true,
    ctid: 'C4F66AFE00000000',
    meta: { TransactionIndex: 0, TransactionResult: 'tesSUCCESS' },
    AccountName: { account: SENDER, name: 'Test sender', verified: true },
    DestinationName: null,
    SigningPubKeyAccount: SENDER,
  });
  const body = byHash.body as Record<string, unknown>;
  t.notOk(
    Object.keys(body).some((k) => k.startsWith('_')),
    'no derived _ fields in the REST shape',
  );
  t.same((await getJson(`${base}/tx/C4F66AFE00000000`)).body, body, 'the ctid finds the same transaction');
  const drops = (await getJson(`${base}/ledger/83258110/transactions`)).body as Record<string, unknown>[];
  t.ok(
    drops.some((tx) => typeof tx.Amount === 'string'),
    'native amounts are drops strings again',
  );
});

t.test('ledgers', async (t) => {
  const list = await getJson(`${base}/ledgers`);
  t.equal(list.status, 200);
  const body = list.body as { current_ledger: number; ledgers: Record<string, unknown>[] };
  t.equal(body.current_ledger, 94084608);
  t.equal(body.ledgers.length, 10);
  t.match(body.ledgers[0], {
    ledger_index: 94084608,
    ledger_hash: /^[0-9A-F]{64}$/,
    close_time_human: /^2025-/,
    tx_count: Number,
    total_coins: Number,
    destroyed_coins: Number,
  });
  // Above 2^53: written as the exact literal rippled reported, not rounded to 99986441776131100.
  const exact = await (await fetch(`${base}/ledger/94084608`)).text();
  t.match(exact, /"total_coins":99986441776131104[,}]/, 'total_coins exact above 2^53');
  const one = await getJson(`${base}/ledger/83258110`);
  t.match(one.body, {
    ledger_index: 83258110,
    close_time: 750776741,
    close_time_resolution: 10,
    parent_close_time: 750776740,
    tx_count: 40,
  });
  t.notOk('destroyed_coins' in (one.body as object), 'destroyed_coins only in the list');
  const hash = (one.body as { ledger_hash: string }).ledger_hash;
  t.same((await getJson(`${base}/ledger/${hash.toLowerCase()}`)).body, one.body, 'by hash');
  const txs = (await getJson(`${base}/ledger/83258110/transactions`)).body as { meta: { TransactionIndex: number } }[];
  t.same(
    txs.map((tx) => tx.meta.TransactionIndex),
    Array.from({ length: 40 }, (_, i) => i),
    'in ledger order',
  );
});

t.test('account info, settings, transactions', async (t) => {
  const info = await getJson(`${base}/account/${SENDER}`);
  t.equal(info.status, 200);
  t.match(info.body, {
    Account: SENDER,
    account: SENDER,
    LedgerEntryType: 'AccountRoot',
    Balance: /^\d+$/,
    nativeBalance: /^\d+(\.\d+)?$/,
    Sequence: Number,
    sequence: Number,
    OwnerCount: Number,
    ownerCount: Number,
    PreviousTxnID: /^[0-9A-F]{64}$/,
    previousAffectingTransactionID: /^[0-9A-F]{64}$/,
    settings: { requireDestinationTag: Boolean, disableMasterKey: Boolean, defaultRipple: Boolean },
    accountName: { name: 'Test sender' },
  });
  const body = info.body as { Balance: string; nativeBalance: string };
  t.equal(Number(body.Balance), Math.round(Number(body.nativeBalance) * 1e6), 'Balance drops and nativeBalance agree');
  t.match((await getJson(`${base}/account/${SENDER}/settings`)).body, { requireDestinationTag: false });
  const txs = await getJson(`${base}/account/${SENDER}/transactions?limit=1`);
  t.match(txs.body, {
    account: SENDER,
    ledger_index_max: 94084608,
    validated: true,
    limit: 1,
    transactions: [{ hash: PAYMENT }],
  });
});

t.test('an activation, the ancestry and the activations list', async (t) => {
  const found = await target.client.search<{ Account: string; parent: string }>({
    index: indexName(target.naming, 'accounts'),
    query: { exists: { field: 'parent' } },
    size: 1,
  });
  const child = found.hits.hits[0]?._source;
  t.ok(child, 'the fixtures activate accounts');
  const info = await getJson(`${base}/account/${child?.Account}`);
  t.match(info.body, {
    parent: child?.parent,
    initial_balance: Number,
    inception: /^\d{4}-/,
    ledger_index: Number,
    tx_hash: /^[0-9A-F]{64}$/,
  });
  const activations = await getJson(`${base}/account/${child?.parent}/activations`);
  t.match(activations.body, { result: 'success', count: Number });
  t.ok((activations.body as { accounts: { account: string }[] }).accounts.some((a) => a.account === child?.Account));
  const ancestry = (await getJson(`${base}/account/${child?.Account}/ancestry`)).body as {
    ancestry: { account: string; depth: number }[];
  };
  t.equal(ancestry.ancestry.at(-1)?.account, child?.Account, 'the queried account comes last');
  t.equal(ancestry.ancestry.at(-1)?.depth, 0);
});

t.test('trust lines, assets and obligations of an issuer', async (t) => {
  const lines = await getJson(`${base}/account/${ISSUER}/trustlines2`);
  t.equal(lines.status, 200);
  const body = lines.body as {
    lines: { account: string; balance: string; currency: string; limit: string; limit_peer: string }[];
  };
  t.ok(body.lines.length > 5, `${body.lines.length} lines`);
  for (const line of body.lines)
    t.match(line, {
      account: /^r/,
      balance: /^-?[\d.e+-]+$/,
      currency: /\w/,
      limit: String,
      limit_peer: String,
      quality_in: Number,
      quality_out: Number,
    });
  const obligations = (await getJson(`${base}/account/${ISSUER}/obligations`)).body as {
    currency: string;
    value: string;
  }[];
  t.ok(
    obligations.some((o) => o.currency === 'USD' && Number(o.value) > 0),
    'Bitstamp owes USD',
  );
  const usd = (await getJson(`${base}/account/${ISSUER}/obligation/USD`)).body;
  t.equal(usd, Number(obligations.find((o) => o.currency === 'USD')?.value), 'a bare number');
  // A 3-character code and its 40-hex form name one token; codes are case-sensitive.
  const usdHex = `${'00'.repeat(12)}${Buffer.from('USD').toString('hex').toUpperCase()}${'00'.repeat(5)}`;
  t.equal((await getJson(`${base}/account/${ISSUER}/obligation/${usdHex}`)).body, usd, 'USD by its 40-hex form');
  t.equal((await getJson(`${base}/account/${ISSUER}/obligation/usd`)).body, 0, 'usd is another currency');
  const holder = body.lines.find((l) => Number(l.balance) < 0)?.account;
  const assets = (await getJson(`${base}/account/${holder}/assets`)).body as {
    counterparty: string;
    currency: string;
    value: string;
  }[];
  t.ok(
    assets.some((a) => a.counterparty === ISSUER && Number(a.value) > 0),
    'the holder sees a positive balance',
  );
});

t.test('offers, escrows and deposit preauths come from the ledger objects', async (t) => {
  const offer = await target.client.search<{ Account: string }>({
    index: indexName(target.naming, 'objects'),
    query: { bool: { filter: [{ term: { LedgerEntryType: 'Offer' } }, { term: { deleted: false } }] } },
    size: 1,
  });
  const maker = offer.hits.hits[0]?._source?.Account;
  const orders = (await getJson(`${base}/account/${maker}/orders`)).body as Record<string, unknown>[];
  t.ok(orders.length > 0);
  t.match(orders[0], {
    specification: {
      direction: /^(buy|sell)$/,
      quantity: { currency: String, value: String },
      totalPrice: { currency: String, value: String },
    },
    properties: { maker, sequence: Number, makerExchangeRate: String },
  });
  const escrow = await target.client.search<{ Account: string }>({
    index: indexName(target.naming, 'objects'),
    query: { term: { LedgerEntryType: 'Escrow' } },
    size: 1,
  });
  const owner = escrow.hits.hits[0]?._source?.Account;
  if (owner !== undefined)
    t.match(((await getJson(`${base}/account/${owner}/escrows`)).body as unknown[])[0], {
      LedgerEntryType: 'Escrow',
      Account: owner,
      Amount: /^\d+$/,
    });
  t.same((await getJson(`${base}/account/${SENDER}/deposit_preauths`)).body, []);
});

t.test('ledger objects by id and by fixed name', async (t) => {
  t.same(
    FIXED_OBJECT_IDS,
    {
      Amendments: LedgerEntry.AMENDMENTS_ID,
      FeeSettings: LedgerEntry.FEE_SETTINGS_ID,
      NegativeUNL: LedgerEntry.NEGATIVE_UNL_ID,
      LedgerHashes: FIXED_OBJECT_IDS.LedgerHashes,
    },
    'the computed ids match xrpl',
  );
  const account = (await getJson(`${base}/account/${SENDER}`)).body as { index: string };
  const object = await getJson(`${base}/object/${account.index.toLowerCase()}`);
  t.match(object.body, {
    index: account.index,
    ledger_index: Number,
    validated: true,
    node: { LedgerEntryType: 'AccountRoot', Account: SENDER, Balance: /^\d+$/ },
  });
  const named = await getJson(`${base}/object/LedgerHashes`);
  t.equal(named.status, 404, 'no LedgerHashes entry was touched by the indexed transactions');
  t.match(named.body, { error: { code: 'NOT_FOUND', details: { index: FIXED_OBJECT_IDS.LedgerHashes } } });
});

t.test('labels', async (t) => {
  const names = await getJson(`${base}/names/well-known`);
  t.same(names.body, [{ account: SENDER, name: 'Test sender', domain: 'example.com', verified: true }]);
});

t.test('routes whose data sets are not computed yet answer DATA_NOT_READY, never an empty 200', async (t) => {
  for (const path of [
    '/tokens',
    '/token/USD.rvYAfWj5gh67oV6fW32ZzP3Aw4Eubs59B',
    // Decoded 160-bit codes are printable text that may hold dots and spaces.
    `/token/${encodeURIComponent('x.AI Coin')}.rvYAfWj5gh67oV6fW32ZzP3Aw4Eubs59B`,
    '/amendments',
    `/amendment/${'A'.repeat(64)}`,
    '/validatorregistry',
    '/validator/nHUFE9prPXPrHcG3SkwP1UzAQbSphqyQkQK9ATXLZsfkezhhda3p',
    '/nodes',
    '/network/fee',
    '/network/server_info',
    '/network/server_versions',
    '/balances',
    '/fact/XRP',
    '/fact/AMM/count',
    '/metrics/metric',
    `/account/${SENDER}/walletkyc`,
  ]) {
    const answer = await getJson(`${base}${path}`);
    t.equal(answer.status, 503, path);
    t.match(answer.body, { error: { code: 'DATA_NOT_READY' } }, path);
    t.ok(answer.headers.get('retry-after'), `${path} Retry-After`);
  }
  const amendment = await getJson(`${base}/amendment/${'A'.repeat(64)}`);
  t.match(
    amendment.body,
    { error: { message: /pnpm ingest amendments/, details: { resource: '/amendment/{AMENDMENT_ID}' } } },
    'the 503 names the route and the command that computes its data',
  );
  const nodes = await getJson(`${base}/nodes`);
  t.match(nodes.body, { error: { message: /pnpm ingest nodes --seed URL/ } });
  const malformed = await getJson(`${base}/amendment/not-an-amendment-id`);
  t.equal(malformed.status, 400, 'a malformed request is a 400 whether or not the data is ready');
  t.match(malformed.body, { error: { code: 'INVALID_PARAMETER' } });
});

t.test('AMM info and the pool list', async (t) => {
  const amm = 'rP5J7x4HyHKQUUfrfzvuq28iLwiKPf7yv5';
  const pongo = { currency: '504F4E474F000000000000000000000000000000', issuer: 'rwCq6TENSo3Hh9LKipXnLaxaeXBXKubqki' };
  const info = await getJson(`${base}/amm/${amm}`);
  t.equal(info.status, 200);
  t.same(
    info.body,
    {
      account: amm,
      amount: '39866687388',
      amount2: { ...pongo, value: '4256714378784.309' },
      asset2_frozen: false,
      auction_slot: {
        account: 'rbBfeoq9ZzYhwzCzR3ssD2x79GXPrNkXy',
        discounted_fee: 33,
        expiration: '2025-Feb-02 02:08:00.000000000 UTC',
        price: { currency: '03ED41506EA49D3D0F6B7C8212D3C5DA22C2C8B1', issuer: amm, value: '45000000' },
        time_interval: 20,
      },
      lp_token: { currency: '03ED41506EA49D3D0F6B7C8212D3C5DA22C2C8B1', issuer: amm, value: '331012810971.4975' },
      trading_fee: 339,
      vote_slots: (info.body as { vote_slots: unknown[] }).vote_slots,
    },
    'balances from the AMM account root and its trust line; the slot expired before the newest ledger: interval 20, as amm_info writes it',
  );
  const votes = (info.body as { vote_slots: { account: string; trading_fee: number; vote_weight: number }[] })
    .vote_slots;
  t.equal(votes.length, 8);
  t.same(votes[0], { account: 'rLPbfj4zv3t7xCVvcGS9QopcxtfT5isS2m', trading_fee: 0, vote_weight: 57686 });
  const pools = await getJson(`${base}/amm/pools`);
  t.equal(pools.status, 200);
  t.match(pools.body, [
    {
      Account: amm,
      Asset: { currency: 'XRP' },
      Asset2: pongo,
      AuctionSlot: { Account: 'rbBfeoq9ZzYhwzCzR3ssD2x79GXPrNkXy', DiscountedFee: 33, Expiration: 791777280 },
      LPTokenBalance: { value: '331012810971.4975' },
      TradingFee: 339,
      VoteSlots: [{ VoteEntry: { Account: 'rLPbfj4zv3t7xCVvcGS9QopcxtfT5isS2m', VoteWeight: 57686 } }],
      index: '33A29FF46A9C5BD2E67936FC7E895026763ECCD54BED68573692253339DA4171',
      Balance: 39866.687388,
    },
  ]);
  t.same((await getJson(`${base}/amm/pools?offset=1`)).body, [], 'offset past the end is an empty page');
  t.match(
    await getJson(`${base}/amm/pools?offset=10000&limit=400`),
    { status: 200, body: [] },
    'the largest offset with the largest limit is a page, not an engine refusal',
  );
});

t.test('a 400 for each malformed parameter kind, naming the parameter', async (t) => {
  const cases: [string, string, string][] = [
    [`/account/rNOTVALID`, 'ACCOUNT', 'INVALID_PARAMETER'],
    [`/account/rsw3nDRopQQZDrZjzawak7hDz2gLwCPszx`, 'ACCOUNT', 'INVALID_PARAMETER'],
    [`/account/0sw3nDRopQQZDrZjzawak7hDz2gLwCPszw/escrows`, 'ACCOUNT', 'INVALID_PARAMETER'],
    [`/tx/XYZ`, 'HASH', 'INVALID_PARAMETER'],
    [`/tx/${'A'.repeat(63)}`, 'HASH', 'INVALID_PARAMETER'],
    [`/ledger/32569`, 'LEDGER_INDEX', 'INVALID_PARAMETER'],
    [`/ledger/4294967296`, 'LEDGER_INDEX', 'INVALID_PARAMETER'],
    [`/ledger/abc`, 'LEDGER_INDEX', 'INVALID_PARAMETER'],
    [`/object/Nope`, 'OBJECT_ID', 'INVALID_PARAMETER'],
    [`/amendment/zz`, 'AMENDMENT_ID', 'INVALID_PARAMETER'],
    [`/validator/xyz`, 'VALIDATOR_PUBLIC_KEY', 'INVALID_PARAMETER'],
    [`/token/USD`, 'TOKEN', 'INVALID_PARAMETER'],
    [`/token/US.rvYAfWj5gh67oV6fW32ZzP3Aw4Eubs59B`, 'TOKEN', 'INVALID_PARAMETER'],
    [`/token/${encodeURIComponent('A\tB')}.rvYAfWj5gh67oV6fW32ZzP3Aw4Eubs59B`, 'TOKEN', 'INVALID_PARAMETER'],
    [`/fact/BTC`, 'NAMESPACE_ID', 'INVALID_PARAMETER'],
    [`/tokens?sort=volume`, 'sort', 'INVALID_PARAMETER'],
    [`/tokens?limit=0`, 'limit', 'INVALID_PARAMETER'],
    [`/tokens?limit=401`, 'limit', 'INVALID_PARAMETER'],
    [`/tokens?offset=-1`, 'offset', 'INVALID_PARAMETER'],
    [`/ledgers?page=2`, 'page', 'UNKNOWN_PARAMETER'],
    [`/account/${SENDER}/transactions?limit=abc`, 'limit', 'INVALID_PARAMETER'],
    [`/account/${SENDER}/transactions?direction=up`, 'direction', 'INVALID_PARAMETER'],
    [`/account/${SENDER}/transactions?from=yesterday`, 'from', 'INVALID_PARAMETER'],
    [`/account/${SENDER}/transactions?from=2024-01-02T00:00:00Z&to=2024-01-01T00:00:00Z`, 'from', 'INVALID_PARAMETER'],
    [`/account/${SENDER}/transactions?marker=bm9wZQ`, 'marker', 'INVALID_PARAMETER'],
    [`/account/${SENDER}/transactions?destination_tag=-1`, 'destination_tag', 'INVALID_PARAMETER'],
    [`/account/${SENDER}/transactions?forward=perhaps`, 'forward', 'INVALID_PARAMETER'],
    [`/amm/pool`, 'AMM_ACCOUNT', 'INVALID_PARAMETER'],
    [`/amm/pools?limit=500`, 'limit', 'INVALID_PARAMETER'],
    [`/amm/pools?sort=tvl`, 'sort', 'UNKNOWN_PARAMETER'],
  ];
  for (const [path, parameter, code] of cases) {
    const answer = await getJson(`${base}${path}`);
    t.equal(answer.status, 400, path);
    t.match(answer.body, { error: { code, details: { parameter } } }, path);
  }
});

t.test('a 404 for unknown ids', async (t) => {
  for (const path of [
    `/account/${UNKNOWN_ACCOUNT}`,
    `/account/${UNKNOWN_ACCOUNT}/settings`,
    `/tx/${'A'.repeat(64)}`,
    `/tx/C000000100000000`,
    `/ledger/50000`,
    `/ledger/${'B'.repeat(64)}`,
    `/ledger/50000/transactions`,
    `/object/${'C'.repeat(64)}`,
    `/amm/${SENDER}`,
    `/amm/rf7g4JWCxu9oE1MKsWTihL9whY75AphCaV`,
  ]) {
    const answer = await getJson(`${base}${path}`);
    t.equal(answer.status, 404, path);
    t.match(answer.body, { error: { code: 'NOT_FOUND' } }, path);
  }
});

type OperationDoc = { responses?: Record<string, { content?: Record<string, { schema?: object }> }> };

t.test('OpenAPI 3.1 from the same schemas, and the docs page', async (t) => {
  const doc = (await getJson(`${base}/openapi.json`)).body as {
    openapi: string;
    paths: Record<string, Record<string, { parameters: { name: string; in: string; schema: { format?: string } }[] }>>;
  };
  t.equal(doc.openapi, '3.1.0');
  t.ok(doc.paths['/api/v1/account/{ACCOUNT}/transactions']?.get);
  t.match(doc.paths['/api/v1/account/{ACCOUNT}']?.get?.parameters, [
    { name: 'ACCOUNT', in: 'path', schema: { format: 'xrpl-address' } },
  ]);
  t.ok(Object.keys(doc.paths).length >= 30, `${Object.keys(doc.paths).length} paths`);
  // Search is mounted on this address (search.mount, the default), so it is described here too.
  t.ok(doc.paths['/api/v1/search']?.post, 'POST /search');
  t.ok(doc.paths['/api/v1/sql']?.post, 'POST /sql');
  // Every JSON answer (NDJSON lines too) is typed: a schema with a type, a reference or a union.
  const untyped: string[] = [];
  let json = 0;
  for (const [path, item] of Object.entries(doc.paths))
    for (const [method, operation] of Object.entries(item as Record<string, OperationDoc>))
      for (const [media, content] of Object.entries(operation.responses?.['200']?.content ?? {})) {
        if (!/json/.test(media)) continue;
        json += 1;
        const s = content.schema ?? {};
        if (!['type', '$ref', 'anyOf', 'oneOf', 'allOf'].some((k) => k in s))
          untyped.push(`${method} ${path} ${media}`);
      }
  t.same(untyped, [], `${json} JSON answers, every one typed`);
  const page = await fetch(`${base}/docs`);
  t.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
  const html = await page.text();
  t.match(html, 'data-url="/api/v1/openapi.json"', 'the reference renders the OpenAPI document');
  t.notMatch(html, /https?:\/\//, 'nothing fetched from another host (no CDN)');
  const src = /<script src="([^"]+)"/.exec(html)?.[1];
  t.match(src, /^\/api\/v1\/docs\/scalar-[\d.]+\.js$/, 'the bundle, served by this process');
  const bundle = await fetch(`${base}${src!.replace('/api/v1', '')}`);
  t.equal(bundle.status, 200);
  t.equal(bundle.headers.get('content-type'), 'text/javascript; charset=utf-8');
  t.match(bundle.headers.get('cache-control'), /immutable/, 'versioned, cached for good');
  t.ok((await bundle.arrayBuffer()).byteLength > 100_000, 'the standalone bundle');
});

t.test('CORS and body caps', async (t) => {
  const preflight = await fetch(`${base}/ledgers`, { method: 'OPTIONS' });
  t.equal(preflight.status, 204);
  t.equal(preflight.headers.get('access-control-allow-origin'), '*');
  const big = await fetch(`${base}/ledgers`, { method: 'POST', body: 'x'.repeat(1024 * 1024 + 1) });
  t.equal(big.status, 413);
  t.match(await big.json(), { error: { code: 'PAYLOAD_TOO_LARGE' } });
});

t.test('NFTs: owned by an account, one NFT, a burned one, bad and unknown ids', async (t) => {
  const { transformTransaction } = await import('@xle/documents');
  const { readTransactionFixtures } = await import('@xle/test-helpers');
  const { parseNFTokenID } = await import('xrpl');
  // Real mainnet burns from the single-transaction fixtures, indexed through the same transform.
  const burns = readTransactionFixtures().filter((f) => f.tx.TransactionType === 'NFTokenBurn');
  for (const burn of burns) {
    const doc = transformTransaction(burn.tx, {
      ledgerIndex: burn.ledgerIndex,
      closeTime: burn.closeTime,
      networkId: 0,
    });
    await createRange(target.client, target.naming, 'transactions', burn.ledgerIndex);
    await target.client.index({
      index: rangeAlias(target.naming, 'transactions', burn.ledgerIndex),
      id: doc.hash,
      document: doc,
      refresh: 'wait_for',
    });
  }
  const owner = 'rfx2mVhTZzc6bLXKeYyFKtpha2LHrkNZFT';
  const owned = (await getJson(`${base}/account/${owner}/nfts`)).body as Record<string, unknown>[];
  t.ok(owned.length >= 40, `${owned.length} NFTs on its pages`);
  const first = owned[0] as { NFTokenID: string };
  const parsed = parseNFTokenID(first.NFTokenID);
  t.match(first, {
    NFTokenID: /^[0-9A-F]{64}$/,
    Issuer: parsed.Issuer,
    NFTokenTaxon: parsed.Taxon,
    TransferFee: parsed.TransferFee,
    Flags: parsed.Flags,
    nft_serial: parsed.Sequence,
    URI: /^[0-9A-F]+$/,
  });
  t.same((await getJson(`${base}/account/${SENDER}/nfts`)).body, [], 'an account without pages owns none');

  const info = await getJson(`${base}/nft/${first.NFTokenID.toLowerCase()}`);
  t.equal(info.status, 200);
  t.match(info.body, {
    nft_id: first.NFTokenID,
    owner,
    is_burned: false,
    issuer: parsed.Issuer,
    nft_taxon: parsed.Taxon,
    nft_serial: parsed.Sequence,
    transfer_fee: parsed.TransferFee,
    flags: parsed.Flags,
    validated: true,
    uri: /^[0-9A-F]+$/,
    ledger_index: Number,
  });
  t.equal(parsed.Flags, 8, 'this collection is transferable only');
  t.same((info.body as { flags_parsed: string[] }).flags_parsed, ['tfTransferable']);

  const burned = burns[0];
  const burnedInfo = await getJson(`${base}/nft/${String(burned?.tx.NFTokenID)}`);
  t.match(burnedInfo.body, {
    nft_id: burned?.tx.NFTokenID,
    is_burned: true,
    owner: burned?.tx.Account,
    ledger_index: burned?.ledgerIndex,
  });

  t.equal((await getJson(`${base}/nft/${'0'.repeat(64)}`)).status, 404);
  const bad = await getJson(`${base}/nft/xyz`);
  t.equal(bad.status, 400);
  t.match(bad.body, { error: { code: 'INVALID_PARAMETER', details: { parameter: 'NFTOKEN_ID' } } });
});
