import t from 'tap';
import BigNumber from 'bignumber.js';
import fc from 'fast-check';
import { readFixture } from '@xle/test-helpers';
import {
  amountParts,
  holdingSumOf,
  obligationsOf,
  sumOfParts,
  trustLineFields,
  trustLineOf,
  type Json,
  type PartSums,
} from '../../src/index.js';

const STATE_FILES = [
  'ledger-state/ledger-32570-accountState.rhd.json',
  'ledger-state/ledgerFull38129-with-accountState.xrpljs.json',
  'ledger-state/ledger_data-71448944-page.sengelbert.json',
];

function rippleStates(value: unknown, out: Json[] = []): Json[] {
  if (Array.isArray(value)) for (const item of value) rippleStates(item, out);
  else if (typeof value === 'object' && value !== null) {
    const record = value as Json;
    if (record.LedgerEntryType === 'RippleState' && typeof record.index === 'string') out.push(record);
    else for (const child of Object.values(record)) rippleStates(child, out);
  }
  return out;
}

/** Every trust line of the fixture state files, deduplicated by entry id (two files hold one ledger's state). */
const lines = [
  ...new Map(STATE_FILES.flatMap((file) => rippleStates(readFixture(file))).map((e) => [e.index, e])).values(),
];

/**
 * What each token's holders hold, written here from rippled's rule and not from the code under
 * test: the balance is the low account's; positive, the low account holds the high account's
 * token; negative, the high account holds the low account's (RippleState,
 * https://xrpl.org/docs/references/protocol/ledger-data/ledger-entry-types/ripplestate).
 */
function holdingsByToken(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of lines) {
    const balance = line.Balance as { currency: string; value: string };
    if (balance.currency.startsWith('03')) continue; // LP tokens
    const value = balance.value;
    if (/^0(\.0*)?$/.test(value) || /^-0(\.0*)?$/.test(value)) continue;
    const negative = value.startsWith('-');
    const issuer = ((negative ? line.LowLimit : line.HighLimit) as { issuer: string }).issuer;
    const key = `${balance.currency}.${issuer}`;
    out.set(key, [...(out.get(key) ?? []), negative ? value.slice(1) : value]);
  }
  return out;
}

t.test('every fixture trust line: its exact parts are its balance, digit for digit', async (t) => {
  t.ok(lines.length >= 200, `${lines.length} trust lines`);
  let checked = 0;
  for (const line of lines) {
    const fields = trustLineFields(line);
    if (fields._holding === undefined || fields._holding === 0) continue;
    const e = fields._holding_e as number;
    const hi = fields._holding_hi as number;
    const lo = fields._holding_lo as number;
    const value = (line.Balance as { value: string }).value.replace(/^-/, '');
    t.ok(hi >= 1e7 && hi < 1e8 && lo >= 0 && lo < 1e8, `${line.index as string}: a normalised mantissa`);
    t.equal(new BigNumber(hi).times(1e8).plus(lo).shiftedBy(e).toFixed(), new BigNumber(value).toFixed());
    checked += 1;
  }
  t.ok(checked >= 50, `${checked} lines hold something`);
});

t.test(
  'supply: the parts summed as the engine sums them equal the exact decimal sum of the fixture lines',
  async (t) => {
    const byToken = holdingsByToken();
    t.ok(byToken.size >= 20, `${byToken.size} tokens`);
    let inexactDoubles = 0;
    for (const [token, values] of byToken) {
      // The engine's sum aggregation: per exponent, a double accumulating the integer parts.
      const perExponent = new Map<number, PartSums>();
      let doubles = 0;
      for (const value of values) {
        const parts = amountParts(value);
        if (parts === undefined) throw new Error(`${token}: ${value} has no parts`);
        const sums = perExponent.get(parts.e) ?? { e: parts.e, hi: 0, lo: 0 };
        sums.hi += parts.hi;
        sums.lo += parts.lo;
        perExponent.set(parts.e, sums);
        doubles += Number(value);
      }
      const exact = values.reduce((sum, v) => sum.plus(v), new BigNumber(0));
      t.equal(sumOfParts(perExponent.values()).toFixed(), exact.toFixed(), `${token}: ${values.length} holdings`);
      const asAggregation = {
        exponents: {
          buckets: [...perExponent.values()].map((s) => ({ key: s.e, hi: { value: s.hi }, lo: { value: s.lo } })),
        },
      };
      t.equal(holdingSumOf(asAggregation).toFixed(), exact.toFixed(), `${token}: read from an aggregation's buckets`);
      if (!new BigNumber(doubles).eq(exact)) inexactDoubles += 1;
    }
    t.ok(inexactDoubles > 0, `a sum of doubles misses the exact supply of ${inexactDoubles} of ${byToken.size} tokens`);
  },
);

t.test('obligations: an issuer owes the exact decimal sum of its holders’ balances', async (t) => {
  const byToken = holdingsByToken();
  const issuers = new Set([...byToken.keys()].map((k) => k.split('.')[1] as string));
  let compared = 0;
  for (const issuer of issuers) {
    const own = lines.filter((l) => [l.LowLimit, l.HighLimit].some((limit) => (limit as Json).issuer === issuer));
    const owed = obligationsOf(own.map((l) => trustLineOf(l, issuer)));
    for (const { currency, value } of owed) {
      const hex = [...byToken.keys()].find((k) => k.endsWith(`.${issuer}`) && trustLineCurrency(k) === currency);
      const expected = (byToken.get(hex ?? '') ?? []).reduce((sum, v) => sum.plus(v), new BigNumber(0));
      t.equal(value, expected.toFixed(), `${currency} of ${issuer}`);
      compared += 1;
    }
  }
  t.ok(compared >= 20, `${compared} obligations`);
});

const trustLineCurrency = (key: string): string => key.split('.')[0] as string;

t.test('parts of any 16-digit amount sum exactly, where doubles do not', async (t) => {
  const amount = fc
    .tuple(fc.bigInt({ min: 10n ** 15n, max: 10n ** 16n - 1n }), fc.integer({ min: -96, max: 80 }))
    .map(([m, e]) => new BigNumber(m.toString()).shiftedBy(e));
  fc.assert(
    fc.property(fc.array(amount, { minLength: 1, maxLength: 50 }), (values) => {
      const sums = new Map<number, PartSums>();
      for (const v of values) {
        const p = amountParts(v);
        if (p === undefined) return false;
        const s = sums.get(p.e) ?? { e: p.e, hi: 0, lo: 0 };
        s.hi += p.hi;
        s.lo += p.lo;
        sums.set(p.e, s);
      }
      return sumOfParts(sums.values()).eq(values.reduce((a, b) => a.plus(b), new BigNumber(0)));
    }),
  );
  t.equal(amountParts('0'), undefined, 'nothing held: no parts');
  t.equal(amountParts('-1'), undefined, 'a negative: no parts');
  t.equal(amountParts('1.2345678901234567'), undefined, '17 digits: not an XRPL amount');
  t.same(amountParts('4000.000000000001'), { e: -12, hi: 40000000, lo: 1 });
  t.throws(
    () => sumOfParts([{ e: 0, hi: 2 ** 53 + 2, lo: 0 }]),
    RangeError,
    'a sum the engine could not keep exact is refused',
  );
});
