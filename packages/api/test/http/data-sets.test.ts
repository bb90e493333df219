import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { encodeNodePublic } from 'xrpl';
import { createLogger, indexName } from '@xle/core';
import { crawlNodes, importNames, importWalletKyc, loadAsnTable, RippledSource, snapshotNetwork } from '@xle/ingester';
import { readFixture, ReplayRippled, TOML_FIXTURE } from '@xle/test-helpers';
import { TOKEN_SORTS } from '../../src/routes/tokens.js';
import {
  engineOf,
  fixtureLedgers,
  getJson,
  loadedIndices,
  runAllJobs,
  SAMPLE_ASN_TABLE,
  serve,
} from '../fixtures/serve.js';

const RICHEST = 'rUzWJkXyEtT8ekSSxkBYPqCvHpngcy6Fks';
const OTHER = 'rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y';
const AMM = '8CC0774A3BF66D1D22E76BBDA8E8A232E6B6313834301B3B23E8601196AE6455';

t.test('derived data sets, served once their jobs have run', async (t) => {
  const target = await loadedIndices(t);
  const base = await serve(t, target);
  const notReady = await getJson(`${base}/fact/XRP`);
  t.equal(notReady.status, 503);
  t.match(notReady.body, { error: { code: 'DATA_NOT_READY', message: /pnpm ingest facts/ } });
  await runAllJobs(target);
  await importNames(engineOf(target), 'test', [{ account: RICHEST, name: 'Richest in the fixtures' }]);
  // The job-run record is cached for 5 s per engine; a fresh app sees the runs at once.
  const url = await serve(t, target);

  t.test('amendments', async (t) => {
    const all = await getJson(`${url}/amendments`);
    t.equal(all.status, 200);
    const list = all.body as Record<string, unknown>[];
    t.ok(list.length >= 115);
    t.same(
      list.map((a) => a.name),
      list.map((a) => a.name).sort(),
      'ordered by name',
    );
    for (const a of list) {
      t.match(a, { amendment_id: /^[0-9A-F]{64}$/, enabled: Boolean, supported: Boolean }, String(a.name));
      t.ok(a.majority === null || typeof a.majority === 'string');
      if (a.enabled === true) t.match(a, { enabled_on: /^\d{4}-\d\d-\d\dT/, tx_hash: /^[0-9A-F]{64}$/ });
      t.notOk('updated_at' in a);
      t.same(
        a.as_of,
        { ledger_index: 94084608, date: '2025-02-12T00:16:10.000Z', behind: false },
        'as of the newest indexed ledger, with nothing indexed since',
      );
      if (a.enabled === true) t.ok(Number(a.ledger_index) <= 94084608, `${String(a.name)}: enabled at or before it`);
    }
    // Enabled on mainnet after the newest indexed ledger (February 2025): not enabled as of it.
    for (const name of ['Credentials', 'DeepFreeze'])
      t.match(
        list.find((a) => a.name === name),
        { enabled: false },
        `${name} is not enabled as of ledger 94084608`,
      );
    const one = await getJson(`${url}/amendment/${AMM.toLowerCase()}`);
    t.match(one, {
      status: 200,
      body: {
        amendment_id: AMM,
        name: 'AMM',
        introduced: '1.12.0',
        enabled: true,
        enabled_on: '2024-03-22T20:11:41.000Z',
      },
    });
    t.match(await getJson(`${url}/amendment/${'A'.repeat(64)}`), {
      status: 404,
      body: { error: { code: 'NOT_FOUND' } },
    });
  });

  t.test('facts', async (t) => {
    const counts = await getJson(`${url}/fact/ObjectCount`);
    t.equal(counts.status, 200);
    t.match(counts.body, { AccountRoot: /^\d+$/, Offer: /^\d+$/, Amendments: '0', FeeSettings: '0' });
    const xrp = (await getJson(`${url}/fact/XRP`)).body as Record<string, string>;
    t.equal(xrp.total_supply, '99986441776.131104', 'total_coins of ledger 94084608, the newest fixture');
    t.match(await getJson(`${url}/fact/AMM/pools`), { status: 200, body: { value: '1' } });
    // The AMM facts describe the pools /amm/pools lists: their number and the XRP their accounts hold.
    const pools = (await getJson(`${url}/amm/pools?limit=100`)).body as {
      Balance: number | null;
      Asset: { currency?: string };
    }[];
    const amm = (await getJson(`${url}/fact/AMM`)).body as Record<string, string>;
    t.equal(amm.pools, String(pools.length), 'fact/AMM counts the pools /amm/pools lists');
    const xrpPools = pools.filter((p) => p.Asset.currency === 'XRP');
    t.equal(amm.pools_xrp, String(xrpPools.length));
    t.equal(amm.xrp_locked, '39866.687388', "the demo pool's XRP (rP5J7x4HyHKQUUfrfzvuq28iLwiKPf7yv5)");
    t.equal(
      Number(amm.xrp_locked),
      xrpPools.reduce((s, p) => s + (p.Balance ?? 0), 0),
    );
    t.equal(amm.xrp_pools_unindexed, '0');
    t.match(await getJson(`${url}/fact/AMM/nothing`), { status: 404, body: { error: { code: 'NOT_FOUND' } } });
    t.match(await getJson(`${url}/fact/BTC`), { status: 400, body: { error: { code: 'INVALID_PARAMETER' } } });
  });

  t.test('metrics', async (t) => {
    const all = (await getJson(`${url}/metrics/metric`)).body as { date: string; metric: Record<string, number> }[];
    t.ok(all.length > 10);
    t.same(
      all.map((r) => r.date),
      all.map((r) => r.date).sort(),
      'oldest first',
    );
    for (const r of all)
      t.match(r.metric, {
        accounts_created: Number,
        ledger_count: Number,
        ledger_interval: Number,
        payments_count: Number,
        transaction_count: Number,
        tx_per_ledger: Number,
      });
    const day = await getJson(`${url}/metrics/type?from=2025-02-12&to=2025-02-12`);
    t.same(day.body, [
      {
        date: '2025-02-12T00:00:00.000Z',
        type: { AMMDeposit: 1, OfferCancel: 4, OfferCreate: 47, Payment: 18, TrustSet: 12, UNLModify: 1 },
      },
    ]);
    t.match(await getJson(`${url}/metrics/amm?from=2025-02-12`), { body: [{ amm: { AMMDeposit: 1, total: 1 } }] });
    t.match(await getJson(`${url}/metrics/type?from=12-02-2025`), {
      status: 400,
      body: { error: { code: 'INVALID_PARAMETER' } },
    });
    t.match(await getJson(`${url}/metrics/gdp`), { status: 400 });
    t.match(await getJson(`${url}/metrics/metric?from=2025-13-45`), {
      status: 400,
      body: { error: { code: 'INVALID_PARAMETER', details: { parameter: 'from' } } },
    });
  });

  t.test('tokens', async (t) => {
    type Token = Record<string, unknown> & { id: string };
    const all = (await getJson(`${url}/tokens?limit=400`)).body as Token[];
    t.ok(all.length >= 40, `${all.length} tokens`);
    for (const token of all) {
      t.match(
        token,
        {
          id: /^[0-9A-F]{40}\.r\w+$/,
          token: /^.+\.r\w+$/,
          code: String,
          currency: /^[0-9A-F]{40}$/,
          issuer: /^r\w+$/,
          amms: Number,
          holders: Number,
          trustlines: Number,
          createdAt: /^\d{4}-\d\d-\d\dT.*Z$/,
          updatedAt: /^\d{4}-\d\d-\d\dT.*Z$/,
          blackholed: Boolean,
          disabled: Boolean,
          marketcap: Number,
          price: Number,
          supply: Number,
          score: Number,
          meta: { token: { trust_level: Number, weblinks: Array }, issuer: { kyc: Boolean, trust_level: Number } },
          metrics: {
            trustlines: Number,
            holders: Number,
            exchanges_24h: Number,
            exchanges_7d: Number,
            takers_24h: Number,
            takers_7d: Number,
            supply: /^\d+(\.\d+)?$/,
            marketcap: /^\d+(\.\d+)?$/,
            price: /^\d+(\.\d+)?$/,
            volume_24h: /^\d+(\.\d+)?$/,
            volume_7d: /^\d+(\.\d+)?$/,
          },
          toml_status: { outcome: String },
        },
        token.token as string,
      );
      t.notOk('tomldata' in token || '_toml' in token || 'ledger_index' in token, 'list items omit tomldata');
      t.ok(token.IssuingAccount === null || typeof token.IssuingAccount === 'object');
    }
    const ordered = (list: Token[], key: string, direction: 'asc' | 'desc'): boolean =>
      list.every((token, i) => {
        if (i === 0) return true;
        const [a, b] = [list[i - 1]![key], token[key]] as [string | number, string | number];
        const [x, y] = typeof a === 'string' ? [a.toLowerCase(), String(b).toLowerCase()] : [a, b];
        if (x === y) return list[i - 1]!.id < token.id;
        return direction === 'asc' ? x < y : x > y;
      });
    t.ok(ordered(all, 'score', 'desc'), 'by score, highest first, by default');
    for (const sort of TOKEN_SORTS)
      for (const direction of ['asc', 'desc'] as const) {
        const list = (await getJson(`${url}/tokens?sort=${sort}&direction=${direction}&limit=400`)).body as Token[];
        t.equal(list.length, all.length);
        if (sort === 'price' || sort === 'marketcap') {
          // The tokens with a price in order, then those without one (price_source null), either way.
          const priced = list.filter((k) => k.price_source !== null);
          const unpriced = list.slice(priced.length);
          t.ok(ordered(priced, sort, direction), `sort=${sort} direction=${direction}: ${priced.length} priced`);
          t.ok(
            unpriced.every((k) => k.price_source === null && k.price === 0 && k.marketcap === 0),
            `sort=${sort} direction=${direction}: ${unpriced.length} without a price, last, at 0`,
          );
          t.ok(ordered(unpriced, 'id', 'asc'), 'those without a price by id');
        } else t.ok(ordered(list, sort, direction), `sort=${sort} direction=${direction}`);
      }
    t.ok(
      all.some((k) => k.price_source === 'amm') && all.some((k) => k.price_source === null),
      'tokens priced by a pool, and tokens without a price',
    );
    const byCode = (await getJson(`${url}/tokens?sort=code&limit=400`)).body as Token[];
    t.ok(ordered(byCode, 'code', 'asc'), 'code sorts ascending by default');
    const page = (await getJson(`${url}/tokens?sort=holders&limit=5&offset=7`)).body as Token[];
    const full = (await getJson(`${url}/tokens?sort=holders&limit=400`)).body as Token[];
    t.same(
      page.map((p) => p.id),
      full.slice(7, 12).map((p) => p.id),
      'offset N, limit M: records N to N+M-1',
    );

    const { issuer, code } = TOML_FIXTURE.listed;
    const one = await getJson(`${url}/token/${code}.${issuer}`);
    t.match(one, {
      status: 200,
      body: {
        token: `${code}.${issuer}`,
        meta: { token: { name: 'Ripple Fox CNY', trust_level: 2 }, issuer: { name: 'Ripple Fox' } },
        tomldata: { TOKENS: [{ currency: code }] },
        toml_status: {
          domain: TOML_FIXTURE.listed.domain,
          outcome: 'ok',
          fetched_at: /Z$/,
          // Where the metadata came from, and when the shown data was fetched.
          source: `file:${TOML_FIXTURE.listed.domain}.toml`,
          data_fetched_at: /Z$/,
        },
      },
    });
    const hex = ((one.body as Token).currency as string).toLowerCase();
    t.same((await getJson(`${url}/token/${hex}.${issuer}`)).body, one.body, 'the hex code (any case) finds it too');
    const plain = all.find((x) => (x.toml_status as Record<string, unknown>).outcome === 'not_found')!;
    t.match(await getJson(`${url}/token/${plain.token}`), { status: 200, body: { tomldata: null } });
    t.match(await getJson(`${url}/token/ZZZ.${issuer}`), { status: 404, body: { error: { code: 'NOT_FOUND' } } });
    t.match(await getJson(`${url}/token/USD.notanaddress`), {
      status: 400,
      body: { error: { code: 'INVALID_PARAMETER' } },
    });
    t.match(await getJson(`${url}/tokens?direction=up`), {
      status: 400,
      body: { error: { code: 'INVALID_PARAMETER' } },
    });
    t.match(await getJson(`${url}/tokens?offset=10000&limit=400`), { status: 200, body: [] });
  });

  t.test('balances', async (t) => {
    const top = (await getJson(`${url}/balances?limit=3`)).body as {
      account: string;
      balance: number;
      name: unknown;
    }[];
    t.same(top[0], {
      account: RICHEST,
      balance: 184093379143331,
      name: { account: RICHEST, name: 'Richest in the fixtures', _id: RICHEST, __v: 0 },
    });
    t.equal(top.length, 3);
    t.ok(top[0]!.balance >= top[1]!.balance && top[1]!.balance >= top[2]!.balance);
    t.equal(top[1]?.name, null);
    const next = (await getJson(`${url}/balances?limit=2&offset=1`)).body as { account: string }[];
    t.same(
      next.map((b) => b.account),
      top.slice(1).map((b) => b.account),
    );
    const all = (await getJson(`${url}/balances`)).body as unknown[];
    t.ok(all.length > 400, 'every account of the fixtures, up to 10,000');
    t.match(await getJson(`${url}/balances?limit=10001`), { status: 400 });
  });

  t.test('network: snapshots of recorded mainnet answers keep their own ledger and time', async (t) => {
    t.match(await getJson(`${url}/network/fee`), { status: 503, body: { error: { code: 'DATA_NOT_READY' } } });
    const rippled = new ReplayRippled();
    await rippled.start();
    rippled.recordedServerInfo = true;
    const source = new RippledSource({ url: rippled.url, logger: createLogger('test', 'silent'), attempts: 1 });
    t.teardown(async () => {
      await source.close();
      await rippled.stop();
    });
    const taken = await snapshotNetwork(engineOf(target), source, rippled.url);
    t.same(
      taken.map((s) => s._id),
      ['fee.26575101', 'server_info.82521701'],
    );
    const fresh = await serve(t, target);
    const recordedFee = readFixture<{ examples: { method: string; response: { result: unknown } }[] }>(
      'rpc/xrpl-dev-portal/doc-examples.json',
    ).examples.find((e) => e.method === 'fee')?.response.result;
    const fee = (await getJson(`${fresh}/network/fee`)).body as Record<string, unknown>;
    const { snapshot: feeSnapshot, indexed: feeIndexed, ...asGiven } = fee;
    t.same(asGiven, recordedFee, 'the fee answer as rippled gave it');
    // Which ledgers are the server's and which this service's: the snapshot's, and the indexed span.
    const indexedLedgers = fixtureLedgers().map((l) => l.ledger_index);
    const indexedSpan = {
      ledger_index_min: Math.min(...indexedLedgers),
      ledger_index_max: Math.max(...indexedLedgers),
    };
    // The fee answer gives no time and its ledger is not indexed here: its time is not known.
    t.same(feeSnapshot, {
      ledger_index: 26575101,
      ledger_time: null,
      taken_at: (feeSnapshot as { taken_at: string }).taken_at,
      server: rippled.url,
    });
    t.match(feeSnapshot, { taken_at: /^\d{4}-\d\d-\d\dT/ });
    t.same(feeIndexed, indexedSpan, 'what this service has indexed, beside the server’s open ledger');
    const info = (await getJson(`${fresh}/network/server_info`)).body as Record<string, unknown>;
    // server_info as recorded: its own validated ledger and the server's clock when it answered,
    // though this service has indexed newer ledgers (94084608) since.
    t.same(info.snapshot, {
      ledger_index: 82521701,
      ledger_time: '2023-09-13T22:08:48.000Z',
      taken_at: (feeSnapshot as { taken_at: string }).taken_at,
      server: rippled.url,
    });
    t.same(info.indexed, indexedSpan);
    t.match(info, {
      info: {
        build_version: '1.12.0',
        // The recorded reserves and base fee, at the recorded ledger, with its hash.
        validated_ledger: {
          seq: 82521701,
          hash: '5825332DC66029ECCD896CACB3BBB79E4F5372A8DCA91AA2874A1A1A87B79F84',
          base_fee_xrp: 0.00001,
          reserve_base_xrp: 10,
          reserve_inc_xrp: 2,
          age: 4,
        },
        peers: 22,
        complete_ledgers: '32570-82521701',
        time: '2023-Sep-13 22:08:48.097189 UTC',
      },
    });
    t.same((await getJson(`${fresh}/network/server_versions`)).body, ['1.12.0']);
    await snapshotNetwork(engineOf(target), source, rippled.url);
    t.equal(
      (await target.client.count({ index: indexName(target.naming, 'network') })).count,
      2,
      'the same snapshot twice is the same two documents',
    );
  });

  t.test('nodes: a crawl of a server answering the recorded /crawl', async (t) => {
    const crawl = readFixture<{ server: { pubkey_node: string }; overlay: { active: { public_key: string }[] } }>(
      'rpc/xrpl-dev-portal/peer-crawler.crawl.json',
    );
    const server = createServer((req, res) => {
      res.writeHead(req.url === '/crawl' ? 200 : 404, { 'content-type': 'application/json' });
      res.end(req.url === '/crawl' ? JSON.stringify(crawl) : '{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const seed = `http://127.0.0.1:${(server.address() as AddressInfo).port}/crawl`;
    // Depth 1 also asks each peer's own /crawl: none is reachable from here, and each failure is counted.
    const result = await crawlNodes(engineOf(target), [seed], {
      depth: 1,
      maxServers: 50,
      timeoutMs: 300,
      concurrency: 10,
      logger: createLogger('test', 'silent'),
      asn: loadAsnTable(SAMPLE_ASN_TABLE),
    });
    // Every peer but one has an address the table routes; the crawled server itself has none.
    t.same(result, { nodes: 11, crawled: 1, failed: 10, withAsn: 9 });
    const fresh = await serve(t, target);
    const nodes = (await getJson(`${fresh}/nodes`)).body as Record<string, unknown>[];
    t.equal(nodes.length, 11, 'the server and its 10 active peers');
    const peer = crawl.overlay.active[0]!;
    const key = encodeNodePublic(Buffer.from(peer.public_key, 'base64'));
    t.match(
      nodes.find((n) => n.public_key === key),
      {
        ip: '88.99.137.170',
        asn: 'AS24940',
        isp: 'HETZNER-AS',
        port: 51235,
        complete_ledgers: '45498918-45500918',
        version: 'rippled-1.2.1',
        server_version: '1.2.1',
        // The recorded crawl was made in 2019 (its server.time), whenever it is replayed.
        last_seen: '2019-03-02T01:48:50.000Z',
        last_seen_unix: Date.UTC(2019, 2, 2, 1, 48, 50) / 1000,
        crawled_at: /^20\d\d-/,
      },
    );
    const byIp = (ip: string): Record<string, unknown> | undefined => nodes.find((n) => n.ip === ip);
    t.match(byIp('::ffff:45.56.78.201'), { asn: 'AS63949' }, 'an IPv4-mapped address is looked up as IPv4');
    t.match(byIp('54.202.12.93'), { asn: 'AS16509', isp: 'AMAZON-02' });
    t.notOk('asn' in (byIp('169.55.164.30') ?? {}), 'an address no routed range holds has no asn');
    t.notOk('asn' in (nodes.find((n) => n.ip === undefined) ?? {}), 'nor a node without an address');
    t.match(await getJson(`${fresh}/node/${crawl.server.pubkey_node}`), {
      status: 200,
      body: { server_version: '1.2.1' },
    });
    t.match(await getJson(`${fresh}/node/n9KAa2zVWjPHgfzsE3iZ8HAbzJtPrnoh4H2M2HgE7dfqtvyEb1KJ`), { status: 404 });
    t.match(await getJson(`${fresh}/node/xyz`), { status: 400 });
    t.ok(
      ((await getJson(`${fresh}/network/server_versions`)).body as string[]).includes('1.2.1'),
      'node versions are listed',
    );
  });

  t.test('wallet KYC: DATA_NOT_READY until an import, then the status of each account', async (t) => {
    t.match(await getJson(`${url}/account/${OTHER}/walletkyc`), {
      status: 503,
      body: { error: { code: 'DATA_NOT_READY', message: /pnpm kyc import/ } },
    });
    await importWalletKyc(engineOf(target), 'test', [{ account: RICHEST, kycApproved: true }]);
    const fresh = await serve(t, target);
    t.same((await getJson(`${fresh}/account/${RICHEST}/walletkyc`)).body, { account: RICHEST, kycApproved: true });
    t.same((await getJson(`${fresh}/account/${OTHER}/walletkyc`)).body, { account: OTHER, kycApproved: false });
    t.match(await getJson(`${fresh}/account/rBAD/walletkyc`), { status: 400 });
  });
});
