import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { fixturesDir } from '@xle/core';
import {
  directoryTomlSource,
  httpTomlSource,
  isPublicAddress,
  normalizeDomain,
  parseTomlText,
  refreshToml,
  tokenMetaFromToml,
  type TomlResult,
  type TomlSource,
} from '../../src/index.js';
import type { Json } from '@xle/documents';

const fixture = (name: string): string => readFileSync(join(fixturesDir, 'tokens/toml', name), 'utf8');
const RLUSD_ISSUER = 'rMxCKbEDwqr76QuheSUMdEGf4B9xJ8m5De';
const BAG_ISSUER = 'rNeYbfb9EDV8c7mNfUuooEEYYzMcEuDFbr';

t.test('domains: public DNS names only', async (t) => {
  t.same(normalizeDomain('Example.COM'), { domain: 'example.com' });
  t.same(normalizeDomain('https://ripple.com/'), { domain: 'ripple.com' });
  t.same(normalizeDomain('ripple.com.'), { domain: 'ripple.com' });
  for (const bad of [
    'localhost',
    '127.0.0.1',
    '[::1]',
    'intranet',
    'a.local',
    'x.internal',
    'bad_name.com',
    '',
    'a'.repeat(300),
  ])
    t.match(normalizeDomain(bad), { reason: /not a public domain name/ }, JSON.stringify(bad).slice(0, 30));
});

t.test('public addresses only', async (t) => {
  for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111']) t.ok(isPublicAddress(address), address);
  for (const address of [
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '224.0.0.1',
    'not an ip',
  ])
    t.notOk(isPublicAddress(address), address);
});

t.test('the real XLS-26 files', async (t) => {
  const rlusd = parseTomlText(fixture('XLS-0026-RLUSD-example.xrp-ledger.toml'));
  t.ok('data' in rlusd);
  const data = (rlusd as { data: Json }).data;
  const meta = tokenMetaFromToml(
    data,
    { code: 'RLUSD', currency: '524C555344000000000000000000000000000000', issuer: RLUSD_ISSUER },
    false,
  );
  t.same(meta.token, {
    trust_level: 2,
    weblinks: [
      { url: 'https://ripple.com', title: 'Official Website', type: 'website' },
      { url: 'https://x.com/ripple', type: 'social' },
    ],
    name: 'Ripple USD',
    description: (data.TOKENS as Json[])[0]!.desc,
    icon: 'https://ripple.com/assets/rlusd-logo.png',
  });
  t.match(meta.issuer, {
    name: 'Ripple',
    description: "We're building the Internet of Value.",
    trust_level: 1,
    kyc: false,
  });
  const byHex = tokenMetaFromToml(
    data,
    { code: 'XYZ', currency: '524C555344000000000000000000000000000000', issuer: RLUSD_ISSUER },
    true,
  );
  t.equal(byHex.token.name, 'Ripple USD', 'a toml naming the hex code matches too');
  t.equal(byHex.issuer.kyc, true);
  const stranger = tokenMetaFromToml(
    data,
    { code: 'RLUSD', currency: '524C555344000000000000000000000000000000', issuer: BAG_ISSUER },
    false,
  );
  t.same(
    [stranger.token.trust_level, stranger.issuer.trust_level, stranger.token.name],
    [0, 0, undefined],
    'a toml that does not list the account says nothing of it',
  );

  const bag = parseTomlText(fixture('bagtoken.xrp-ledger.toml'));
  t.ok('data' in bag, 'CRLF line endings parse');
  const bagMeta = tokenMetaFromToml(
    (bag as { data: Json }).data,
    { code: 'BAG', currency: '0000000000000000000000004241470000000000', issuer: BAG_ISSUER },
    false,
  );
  t.match(bagMeta.token, {
    name: '$BAG',
    icon: 'https://getthebag.io/logo.png',
    trust_level: 2,
    weblinks: [{ url: 'https://getthebag.io', type: 'website' }],
  });
  t.match(bagMeta.issuer, { description: 'Official $BAG token issuer (mint address)', trust_level: 1 });
  t.match(parseTomlText('[[TOKENS]\nissuer = 1'), { reason: /^malformed TOML/ });
  t.match(parseTomlText('modified = 1979-05-27T07:32:00Z'), { data: { modified: '1979-05-27T07:32:00.000Z' } });
  t.same(
    parseTomlText('big = 9007199254740993\nsmall = 7'),
    { data: { big: '9007199254740993', small: 7 } },
    'integers past 2^53 stay exact',
  );
  t.match(parseTomlText('a.b.c.d.e.f.g.h.i = 1'), { reason: /nested deeper than 8 levels/ });
  t.ok('data' in parseTomlText('a.b.c.d.e.f.g.h = 1'), 'eight levels are kept');
});

t.test('fetching over HTTP: every outcome recorded, none thrown', async (t) => {
  const rlusd = fixture('XLS-0026-RLUSD-example.xrp-ledger.toml');
  const server: Server = createServer((req, res) => {
    const domain = (req.url ?? '').split('/')[1];
    if (domain === 'ok.example.com') res.end(rlusd);
    else if (domain === 'big.example.com') {
      // No content-length: the cap must hold while streaming.
      for (let i = 0; i < 10; i += 1) res.write('#'.repeat(500));
      res.end();
    } else if (domain === 'declared.example.com') {
      res.writeHead(200, { 'content-length': '999999' });
      res.end();
    } else if (domain === 'slow.example.com') setTimeout(() => res.end(rlusd), 2000);
    else if (domain === 'moved.example.com') {
      res.writeHead(301, { location: 'http://127.0.0.1:1/' });
      res.end();
    } else if (domain === 'broken.example.com') {
      res.writeHead(500);
      res.end();
    } else if (domain === 'garbage.example.com') res.end('<html>not toml</html>');
    else {
      res.writeHead(404);
      res.end();
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(() => server.close());
  const port = (server.address() as AddressInfo).port;
  const source = httpTomlSource({
    urlTemplate: `http://127.0.0.1:${port}/{domain}/xrp-ledger.toml`,
    timeoutMs: 300,
    maxBytes: 2048,
    allowPrivateAddresses: true,
  });
  const outcome = async (domain: string): Promise<TomlResult> => source.fetch(domain);
  t.match(await outcome('ok.example.com'), { outcome: 'ok', data: { ISSUERS: [{ address: RLUSD_ISSUER }] } });
  t.match(await outcome('missing.example.com'), { outcome: 'not_found', reason: /404/ });
  t.match(await outcome('big.example.com'), { outcome: 'too_large', reason: /over 2048 bytes/ });
  t.match(await outcome('declared.example.com'), { outcome: 'too_large', reason: /999999 bytes/ });
  t.match(await outcome('slow.example.com'), { outcome: 'timeout', reason: /300 ms/ });
  t.match(await outcome('moved.example.com'), { outcome: 'http_error', reason: /redirects/ });
  t.match(await outcome('broken.example.com'), { outcome: 'http_error', reason: /500/ });
  t.match(await outcome('garbage.example.com'), { outcome: 'invalid' });
  const vacant = createServer();
  vacant.listen(0, '127.0.0.1');
  await once(vacant, 'listening');
  const vacantPort = (vacant.address() as AddressInfo).port;
  vacant.close();
  await once(vacant, 'close');
  const closed = httpTomlSource({
    urlTemplate: `http://127.0.0.1:${vacantPort}/{domain}`,
    timeoutMs: 1000,
    allowPrivateAddresses: true,
  });
  const guarded = httpTomlSource({ urlTemplate: `http://localhost:${port}/{domain}/xrp-ledger.toml`, timeoutMs: 1000 });
  t.match(
    await guarded.fetch('ok.example.com'),
    { outcome: 'forbidden_address', reason: /localhost resolves to .*not a public address/ },
    'by default a name resolving to a private address is never connected to',
  );
  t.match(await closed.fetch('ok.example.com'), { outcome: 'unreachable', reason: /ECONNREFUSED/ });
  for (const r of [await outcome('ok.example.com'), await outcome('missing.example.com')])
    t.ok(Date.parse(r.fetched_at) > 0, 'each result says when it was fetched');
});

t.test('reading from a folder', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'xle-toml-unit-'));
  writeFileSync(join(dir, 'ripple.com.toml'), fixture('XLS-0026-RLUSD-example.xrp-ledger.toml'));
  writeFileSync(join(dir, 'huge.com.toml'), 'x'.repeat(4096));
  const source = directoryTomlSource(dir, { maxBytes: 2048 });
  t.match(await source.fetch('ripple.com'), { outcome: 'ok', data: { TOKENS: [{ currency: 'RLUSD' }] } });
  const huge = await source.fetch('huge.com');
  t.match(huge, { outcome: 'too_large' });
  const nothing = await source.fetch('nothing.com');
  t.match(nothing, { outcome: 'not_found', reason: /file:nothing\.com\.toml/ });
  // What readers of the API see names the file, never the server's folders.
  t.notOk(huge.reason?.includes(dir), `no server path in "${huge.reason}"`);
  t.notOk(nothing.reason?.includes(dir), `no server path in "${nothing.reason}"`);
});

t.test('refresh: cached while fresh, fetched again when old or asked for', async (t) => {
  const fetched: string[] = [];
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const now = (): Date => new Date(clock);
  const source: TomlSource = {
    describe: (d) => d,
    fetch: async (domain) => {
      fetched.push(domain);
      return { domain, outcome: 'not_found', reason: 'none', fetched_at: now().toISOString() };
    },
  };
  const first = await refreshToml(['a.com', 'b.com'], new Map(), { source, maxAgeMs: 3600_000, now });
  t.same(fetched.sort(), ['a.com', 'b.com']);
  clock += 1800_000;
  fetched.length = 0;
  const second = await refreshToml(['a.com', 'b.com'], first, { source, maxAgeMs: 3600_000, now });
  t.same(fetched, [], 'fresh results are reused');
  t.same(second, first);
  await refreshToml(['a.com', 'b.com'], first, { source, maxAgeMs: 3600_000, now, refresh: new Set(['b.com']) });
  t.same(fetched, ['b.com'], 'a refresh asked for one domain fetches that one');
  clock += 3600_000;
  fetched.length = 0;
  await refreshToml(['a.com', 'b.com'], first, { source, maxAgeMs: 3600_000, now });
  t.same(fetched.sort(), ['a.com', 'b.com'], 'old results are fetched again');
  fetched.length = 0;
  await refreshToml(['a.com'], first, { source, maxAgeMs: 1e12, now, refresh: 'all' });
  t.same(fetched, ['a.com']);
});

t.test('a failed fetch keeps the last good file, and says where and when each came from', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'xle-toml-unit-'));
  const file = join(dir, 'ripple.com.toml');
  writeFileSync(file, fixture('XLS-0026-RLUSD-example.xrp-ledger.toml'));
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const now = (): Date => new Date(clock);
  const source = directoryTomlSource(dir, { now });
  const good = (await refreshToml(['ripple.com'], new Map(), { source, maxAgeMs: 3600_000, now })).get('ripple.com');
  t.match(good, {
    outcome: 'ok',
    source: 'file:ripple.com.toml',
    fetched_at: '2026-01-01T00:00:00.000Z',
    data_fetched_at: '2026-01-01T00:00:00.000Z',
    data: { TOKENS: [{ currency: 'RLUSD' }] },
  });
  clock += 86_400_000;
  writeFileSync(file, 'this = is = not toml');
  const cache = new Map([['ripple.com', good as TomlResult]]);
  const failed = (await refreshToml(['ripple.com'], cache, { source, maxAgeMs: 3600_000, now })).get('ripple.com');
  t.match(failed, {
    outcome: 'invalid',
    reason: /malformed TOML/,
    source: 'file:ripple.com.toml',
    fetched_at: '2026-01-02T00:00:00.000Z',
    data_fetched_at: '2026-01-01T00:00:00.000Z',
    data: { TOKENS: [{ currency: 'RLUSD' }] },
  });
  rmSync(file);
  const gone = (await refreshToml(['ripple.com'], new Map(), { source, maxAgeMs: 3600_000, now })).get('ripple.com');
  t.match(gone, { outcome: 'not_found' });
  t.equal(gone?.data, undefined, 'no good file ever: no data');
  t.equal(gone?.data_fetched_at, undefined);
});
