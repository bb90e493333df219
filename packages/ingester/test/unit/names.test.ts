import t from 'tap';
import { recordsVersion, readNameRecords, validateNameRecords } from '../../src/index.js';
import { fixturesDir } from '@xle/core';
import { readFileSync } from 'node:fs';

t.test('the real gateways list becomes one valid label per account', async (t) => {
  const path = `${fixturesDir}/tokens/gateways.rippled-historical-database.json`;
  const { records, problems } = validateNameRecords(readNameRecords(path, readFileSync(path, 'utf8')));
  t.same(problems, []);
  t.ok(records.length >= 60, `${records.length} labels`);
  t.match(
    records.find((r) => r.account === 'rvYAfWj5gh67oV6fW32ZzP3Aw4Eubs59B'),
    { name: 'Bitstamp', domain: 'bitstamp.net', desc: /^Issuer of .*USD/ },
  );
  t.match(
    records.find((r) => r.account === 'rMwjYedjc7qqtKYVLiAccJSmCwih4LnE2q'),
    { name: 'SnapSwap / BTC 2 Ripple', desc: 'Issuer of USD, EUR, GBP; Issuer of BTC' },
    'one operator, two brands',
  );
});

t.test('CSV with a header row', async (t) => {
  const csv =
    '\uFEFFaccount,name,desc,domain,twitter,verified\nrsw3nDRopQQZDrZjzawak7hDz2gLwCPszw, Alice ,a desc,example.com,@alice,true\n';
  const { records, problems } = validateNameRecords(readNameRecords('labels.csv', csv));
  t.same(problems, []);
  t.same(records, [
    {
      account: 'rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw',
      name: 'Alice',
      desc: 'a desc',
      domain: 'example.com',
      twitter: 'alice',
      verified: true,
    },
  ]);
});

t.test('every problem is reported with its record and field', async (t) => {
  const { problems } = validateNameRecords([
    { account: 'rsw3nDRopQQZDrZjzawak7hDz2gLwCPszx', name: 'bad checksum' },
    { account: 'rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw', name: '' },
    {
      account: 'rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y',
      name: 'ok',
      domain: 'not a domain',
      verified: 'maybe',
      colour: 'red',
    },
    { account: 'rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y', name: 'again' },
    'nope',
  ]);
  t.same(
    problems.map((p) => `${p.record}:${p.field}`),
    ['1:account', '2:name', '3:colour', '3:domain', '3:verified', '4:account', '5:'],
  );
  t.throws(() => readNameRecords('x.json', '{"not":"an array"}'), { message: /array/ });
});

t.test('the version depends on the content only', async (t) => {
  const a = [
    { account: 'rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw', name: 'A' },
    { account: 'rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y', name: 'B' },
  ];
  t.equal(recordsVersion(a), recordsVersion([...a].reverse()));
  t.not(recordsVersion(a), recordsVersion([{ ...a[0]!, name: 'A2' }, a[1]!]));
});
