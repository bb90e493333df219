import t from 'tap';
import { decode, encode } from 'ripple-binary-codec';
import { asRippledJson, normalizeLedger, type Json } from '../../src/index.js';
import { readFixture } from '@xle/test-helpers';

// Answers of current rippled servers (2019-2025): decoded from binary and rewritten, every
// transaction and its metadata read exactly as rippled wrote them.
const RIPPLED_JSON = [
  'ledgers/historical/misc/ledger-45136164.explorer.json',
  'ledgers/recent/ledger-87704323.json',
  'ledgers/recent/ledger-94084608.json',
];

/** The serialized fields only: without rippled's JSON-only additions. */
function serialized(tx: Json): Json {
  const { hash: _hash, metaData: _meta, DeliverMax, ...fields } = tx;
  return fields.Amount === undefined && DeliverMax !== undefined ? { ...fields, Amount: DeliverMax } : fields;
}

t.test('binary decoded and rewritten reads as rippled wrote it', async (t) => {
  let checked = 0;
  for (const file of RIPPLED_JSON) {
    for (const tx of normalizeLedger(readFixture(file)).transactions) {
      const fields = serialized(tx);
      t.same(
        asRippledJson(decode(encode(fields)) as Json, { transaction: true }),
        fields,
        `${file} ${String(tx.hash)}`,
      );
      const { delivered_amount: _synthetic, ...meta } = tx.metaData as Json;
      t.same(asRippledJson(decode(encode(meta)) as Json, { transaction: false }), meta, `${String(tx.hash)} metadata`);
      checked += 1;
    }
  }
  t.equal(checked, 14 + 22 + 83);
});

t.test('a 2015 answer rewritten reads as its binary decoded and rewritten', async (t) => {
  // rippled of 2015 wrote UInt64 fields with 16 digits and path steps with `type_hex`.
  const ledger = normalizeLedger(readFixture('ledgers/historical/rippled-historical-database/ledger-11119607.json'));
  t.match(JSON.stringify(ledger.transactions), /"BookNode":"0000000000000000".*"type_hex"/);
  for (const tx of ledger.transactions) {
    const fields = serialized(tx);
    t.same(
      asRippledJson(decode(encode(fields)) as Json, { transaction: true }),
      asRippledJson(fields, { transaction: true }),
    );
    const meta = tx.metaData as Json;
    t.same(
      asRippledJson(decode(encode(meta)) as Json, { transaction: false }),
      asRippledJson(meta, { transaction: false }),
    );
  }
});

t.test('what is rewritten', async (t) => {
  t.same(
    asRippledJson(
      {
        Account: 'rrrrrrrrrrrrrrrrrrrrrhoLvTp',
        OwnerNode: '0000000000000C80',
        ExchangeRate: '4F0D53FCD0F7C000',
        OutstandingAmount: '1000000000000000',
        LimitAmount: { currency: 'USD', issuer: 'rhub8VRN55s94qWKDv6jmDy1pUykJzF3wq', value: '0.0000000000042475' },
        TakerGets: { currency: 'USD', issuer: 'rhub8VRN55s94qWKDv6jmDy1pUykJzF3wq', value: '1.5' },
        TakerPays: { currency: 'USD', issuer: 'rhub8VRN55s94qWKDv6jmDy1pUykJzF3wq', value: '-100000000000000' },
      },
      { transaction: true },
    ),
    {
      Account: '',
      OwnerNode: 'c80',
      ExchangeRate: '4f0d53fcd0f7c000',
      OutstandingAmount: '1000000000000000',
      LimitAmount: { currency: 'USD', issuer: 'rhub8VRN55s94qWKDv6jmDy1pUykJzF3wq', value: '4247500000000000e-27' },
      TakerGets: { currency: 'USD', issuer: 'rhub8VRN55s94qWKDv6jmDy1pUykJzF3wq', value: '1.5' },
      TakerPays: { currency: 'USD', issuer: 'rhub8VRN55s94qWKDv6jmDy1pUykJzF3wq', value: '-1000000000000000e-1' },
    },
  );
});
