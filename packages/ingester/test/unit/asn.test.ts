import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import t from 'tap';
import { repoRoot } from '@xle/core';
import { loadAsnTable, parseAsnTable, withAsn, type NodeDoc } from '../../src/index.js';

const SAMPLE = join(repoRoot, 'test/loaded/fixtures/ip2asn-sample.tsv');

t.test('an iptoasn.com table: each address to the routed range that holds it', async (t) => {
  const table = loadAsnTable(SAMPLE);
  t.same(table.size, { v4: 8, v6: 2 }, 'comments and not-routed ranges are no ranges');
  t.same(table.lookup('88.99.137.170'), { asn: 'AS24940', name: 'HETZNER-AS', country_code: 'DE' });
  // The ends of a range hold, one past them does not.
  t.match(table.lookup('88.99.0.0'), { asn: 'AS24940' });
  t.match(table.lookup('88.99.255.255'), { asn: 'AS24940' });
  t.equal(table.lookup('88.100.0.0'), undefined, 'past the range');
  t.equal(table.lookup('88.98.255.255'), undefined, 'before it');
  t.equal(table.lookup('0.1.2.3'), undefined, 'a not-routed range answers nothing');
  t.equal(table.lookup('169.55.164.30'), undefined, 'no range');
  t.match(table.lookup('::ffff:45.56.78.201'), { asn: 'AS63949' }, 'IPv4-mapped IPv6 as IPv4');
  t.match(table.lookup('::ffff:2d38:4ec9'), { asn: 'AS63949' }, 'the same address written in hex');
  t.equal(
    table.lookup('2a01:4f8::88.99.137.170'),
    table.lookup('2a01:4f8::5863:89aa'),
    'dotted tail of a non-mapped IPv6',
  );
  t.match(table.lookup('2a01:4f8::88.99.137.170'), { asn: 'AS24940' });
  t.match(table.lookup('2a01:4f8:10a:1::2'), { asn: 'AS24940' }, 'IPv6');
  t.equal(table.lookup('2a01:4f9::1'), undefined, 'IPv6 outside every range');
  t.match(table.lookup('AkU+AY9F'), undefined, 'not an address');
  t.equal(table.lookup('54.186.73.52')?.name, 'AMAZON-02', 'a name with spaces kept whole');
  t.equal(table.lookup('173.255.240.113')?.name, 'AKAMAI-LINODE-AP Akamai Connected Cloud');
});

t.test('gzipped as published, CRLF lines, and rows that are not ranges', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'asn-'));
  const gz = join(dir, 'ip2asn-combined.tsv.gz');
  writeFileSync(gz, gzipSync(readFileSync(SAMPLE)));
  t.match(loadAsnTable(gz).lookup('162.243.114.118'), { asn: 'AS14061', country_code: 'US' });
  const odd = parseAsnTable(
    [
      '1.0.0.0\t1.0.0.255\t13335\tUS\tCLOUDFLARENET\r',
      '1.0.1.0\t1.0.0.0\t1\tUS\tbackwards',
      '1.0.2.0\t1.0.2.255\tx\tUS\tnot a number',
      '::1\t1.0.3.255\t2\tUS\tmixed families',
      '1.0.4.0\t1.0.4.255\t4\tNone\tno country',
      '',
    ].join('\n'),
  );
  t.same(odd.size, { v4: 2, v6: 0 });
  t.same(odd.lookup('1.0.0.1'), { asn: 'AS13335', name: 'CLOUDFLARENET', country_code: 'US' });
  t.same(odd.lookup('1.0.4.1'), { asn: 'AS4', name: 'no country' }, '`None` is no country');
});

t.test('a node gets the AS of its address, and nothing else changes', async (t) => {
  const table = loadAsnTable(SAMPLE);
  const node: NodeDoc = {
    public_key: 'n9KcRZYHLU9rhGVwB9e4wEMYsxXvUfgFxtmX25pc1QPNgweqzQf5',
    ip: '198.13.58.221',
    last_seen: '2019-03-02T01:48:50.000Z',
    last_seen_unix: 1551491330,
    crawled_at: '2026-11-27T00:00:00.000Z',
  };
  t.same(withAsn(node, table), { ...node, asn: 'AS20473', isp: 'AS-VULTR' });
  t.equal(withAsn({ ...node, ip: '169.55.164.30' }, table).asn, undefined);
  t.equal(withAsn(node, undefined), node, 'without a table, the node as it was');
});
