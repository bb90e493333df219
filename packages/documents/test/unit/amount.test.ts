import t from 'tap';
import { dropsToXrp } from 'xrpl';
import { decodeCurrency, dropsToXrpString, isLpTokenCode, normalizeAmount } from '../../src/index.js';

t.test('drops become an exact XRP decimal string', async (t) => {
  const cases: [string, string][] = [
    ['0', '0'],
    ['1', '0.000001'],
    ['1000000', '1'],
    ['1000001', '1.000001'],
    ['2421826800', '2421.8268'],
    ['100000000000000000', '100000000000'],
    ['-12', '-0.000012'],
  ];
  for (const [drops, xrp] of cases) {
    t.equal(dropsToXrpString(drops), xrp, drops);
    t.equal(Number(dropsToXrpString(drops)), Number(dropsToXrp(drops)), `${drops} agrees with xrpl`);
  }
  t.throws(() => dropsToXrpString('1.5'), RangeError);
});

t.test('native amounts', async (t) => {
  t.same(normalizeAmount('2421826800'), {
    value: '2421.8268',
    _value: 2421.8268,
    _drops: '2421826800',
    currency: 'XRP',
    _currency: 'XRP',
    native: true,
  });
  t.equal(normalizeAmount('unavailable'), undefined, 'not an amount');
  t.same(normalizeAmount({ currency: 'XRP' }), { currency: 'XRP', _currency: 'XRP', native: true }, 'an XRP Issue');
});

t.test('issued amounts keep the exact value and the nearest double, across the whole range', async (t) => {
  for (const value of ['1e-81', '9999999999999999e80', '0.000000000000001', '-1234.5678', '1000000000000000e-96']) {
    const doc = normalizeAmount({ currency: 'USD', issuer: 'rvYAfWj5gh67oV6fW32ZzP3Aw4Eubs59B', value });
    t.equal(doc?.value, value, 'exact string kept');
    t.equal(doc?._value, Number(value), 'nearest double, not clamped');
    t.equal(doc?.native, false);
  }
});

t.test('currency codes', async (t) => {
  t.equal(decodeCurrency('USD'), 'USD');
  t.equal(decodeCurrency('0000000000000000000000005553440000000000'), 'USD', 'standard code in hex');
  t.equal(decodeCurrency('785354494B000000000000000000000000000000'), 'xSTIK', 'non-standard code decodes to text');
  t.equal(decodeCurrency('534F4C4F00000000000000000000000000000000'), 'SOLO');
  const lp = '03930D02208264E2E40EC1B0C09E4DB96EE197B1';
  t.ok(isLpTokenCode(lp));
  t.equal(decodeCurrency(lp), 'LP', 'LP tokens are named as such, never decoded as garbage');
  t.equal(
    decodeCurrency('FF00FF00FF00FF00FF00FF00FF00FF00FF00FF00'),
    'FF00FF00FF00FF00FF00FF00FF00FF00FF00FF00',
    'unprintable stays hex',
  );
  const lpAmount = normalizeAmount({ currency: lp, issuer: 'rHUpaqUPbwzKZdzQ8ZQCme18FrgW9pB4am', value: '10' });
  t.equal(lpAmount?._currency, 'LP');
  t.equal(lpAmount?.issuer, 'rHUpaqUPbwzKZdzQ8ZQCme18FrgW9pB4am', 'the pool is identified by its AMM account');
});

t.test('MPT amounts', async (t) => {
  t.same(normalizeAmount({ mpt_issuance_id: '0000012FFD9EE5DA93AC614B4DB94D7E0FCE415CA51BED47', value: '100' }), {
    currency: 'MPT',
    _currency: 'MPT',
    mpt_issuance_id: '0000012FFD9EE5DA93AC614B4DB94D7E0FCE415CA51BED47',
    native: false,
    value: '100',
    _value: 100,
  });
});
