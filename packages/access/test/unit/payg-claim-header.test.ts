import t from 'tap';
import {
  formatPaymentClaim,
  hasPaymentClaim,
  MAX_DROPS,
  parsePaymentClaim,
  type PaymentClaim,
} from '../../src/index.js';

const CHANNEL = '5DB01B7FFED6B67E6B0414DED11E051D2EE2B7619CE0EAA6286D67A3A4D5BDB3';
const SIGNATURE =
  '304402204EF0AFB78AC23ED1C472E74F4299C0C21F1B21D07EFC0A3838A420F76D783A400220154FB11B6F54320666E4C36CA7F686C16A3A0456800BBC43746F34AF50290064';
const KEY = '023693F15967AE357D0327974AD46FE3C127113B1110D6044FD41E723689F81CC6';

function header(parts: Record<string, string>): string {
  return Object.entries(parts)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');
}
const valid = { channel: CHANNEL, amount: '1000000', signature: SIGNATURE, public_key: KEY };

t.test('a well-formed claim parses, in any order, with any spacing and case', async (t) => {
  const expected: PaymentClaim = { channel: CHANNEL, amountDrops: 1_000_000n, signature: SIGNATURE, publicKey: KEY };
  t.same(parsePaymentClaim(header(valid)), expected);
  t.same(
    parsePaymentClaim(
      `  PUBLIC_KEY = ${KEY.toLowerCase()}\t;amount=1000000;signature=${SIGNATURE.toLowerCase()} ; Channel=${CHANNEL.toLowerCase()} `,
    ),
    expected,
    'hex is normalised to upper case, keys are case-insensitive',
  );
  t.same(parsePaymentClaim(formatPaymentClaim(expected)), expected, 'formatPaymentClaim round-trips');
  const ed = `ED${'1'.repeat(64)}`;
  t.equal(parsePaymentClaim(header({ ...valid, public_key: ed, signature: 'AB'.repeat(64) })).publicKey, ed);
  t.equal(parsePaymentClaim(header({ ...valid, amount: MAX_DROPS.toString() })).amountDrops, MAX_DROPS);
});

t.test('anything else is CLAIM_MALFORMED (402)', async (t) => {
  const cases: [string, string][] = [
    ['empty', ''],
    ['no pairs', 'hello'],
    ['missing amount', header({ channel: CHANNEL, signature: SIGNATURE, public_key: KEY })],
    ['missing channel', header({ amount: '1', signature: SIGNATURE, public_key: KEY })],
    ['duplicate key', `${header(valid)}; amount=2`],
    ['unknown key', `${header(valid)}; memo=x`],
    ['trailing separator', `${header(valid)};`],
    ['short channel', header({ ...valid, channel: CHANNEL.slice(2) })],
    ['non-hex channel', header({ ...valid, channel: `${CHANNEL.slice(1)}G` })],
    ['zero amount', header({ ...valid, amount: '0' })],
    ['leading zero', header({ ...valid, amount: '0100' })],
    ['decimal amount', header({ ...valid, amount: '1.5' })],
    ['negative amount', header({ ...valid, amount: '-100' })],
    ['amount above the XRP supply', header({ ...valid, amount: (MAX_DROPS + 1n).toString() })],
    ['odd-length signature', header({ ...valid, signature: `${SIGNATURE}0` })],
    ['too long signature', header({ ...valid, signature: 'AB'.repeat(73) })],
    ['key of another kind', header({ ...valid, public_key: `04${KEY.slice(2)}` })],
    ['short key', header({ ...valid, public_key: KEY.slice(0, 64) })],
    ['two headers joined by Node', `${header(valid)}, ${header(valid)}`],
    ['too long', `${header(valid)}${' '.repeat(600)}`],
  ];
  for (const [name, value] of cases) {
    t.throws(() => parsePaymentClaim(value), { status: 402, code: 'CLAIM_MALFORMED' }, name);
  }
  t.throws(() => parsePaymentClaim(header({ ...valid, amount: '0' })), {
    message: 'Malformed Payment-Claim header: "amount" is not valid.',
    details: { header: 'Payment-Claim' },
  });
});

t.test('hasPaymentClaim is true for any non-empty header', async (t) => {
  const ctx = (value: string) => ({ get: (name: string) => (name === 'Payment-Claim' ? value : '') });
  t.equal(hasPaymentClaim(ctx('')), false);
  t.equal(hasPaymentClaim(ctx('x')), true);
  t.equal(hasPaymentClaim(ctx(header(valid))), true);
});
