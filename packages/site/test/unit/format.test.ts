import t from 'tap';
import {
  amountText,
  answerSource,
  amountView,
  feeText,
  formatChange,
  formatTime,
  formatTokenValue,
  formatValue,
  prettyJson,
  sameAmount,
  shortHash,
  xrpOfDrops,
  type AmountView,
} from '../../src/model/format.js';

t.test('amounts in every XRPL form', async (t) => {
  t.same(amountView('12677660'), { value: '12.67766', code: 'XRP', currency: 'XRP', native: true });
  t.same(
    amountView({
      currency: '785354494B000000000000000000000000000000',
      issuer: 'rJNV9i4Q6zvRhpE2zjxgkvff3eGHQohZht',
      value: '12136',
    }),
    {
      value: '12136',
      code: 'xSTIK',
      currency: '785354494B000000000000000000000000000000',
      native: false,
      issuer: 'rJNV9i4Q6zvRhpE2zjxgkvff3eGHQohZht',
      token: '785354494B000000000000000000000000000000.rJNV9i4Q6zvRhpE2zjxgkvff3eGHQohZht',
    },
  );
  // An AMM pool's Asset: an Issue without value.
  t.match(amountView({ currency: 'XRP' }), { value: '', code: 'XRP', native: true });
  t.match(amountView({ mpt_issuance_id: '0000012FFD9EE5DA93AC614B4DB94D7E0FCE415CA51BED47', value: '10000' }), {
    code: 'MPT',
    mpt: '0000012FFD9EE5DA93AC614B4DB94D7E0FCE415CA51BED47',
  });
  t.equal(amountView('unavailable'), undefined);
  t.equal(amountView(null), undefined);
  t.equal(amountText(amountView({ currency: 'USD', issuer: 'rIssuer', value: '12.5' })!), '12.5 USD.rIssuer');
  t.equal(amountText(amountView('1000000000')!), '1,000 XRP');
});

t.test('numbers are grouped, never rounded', async (t) => {
  t.equal(formatValue('1234567.891'), '1,234,567.891');
  t.equal(formatValue('-0.000012'), '-0.000012');
  t.equal(formatValue('1e-81'), '1e-81');
  t.equal(formatValue('99986441776.131104'), '99,986,441,776.131104');
  t.equal(formatValue(1e6), '1,000,000');
  t.equal(formatValue('abc'), 'abc');
  t.equal(formatChange('12.5'), '+12.5');
  t.equal(formatChange('-12.5'), '-12.5');
  t.equal(xrpOfDrops('12'), '0.000012');
  t.equal(feeText('150000'), '0.15');
  t.equal(feeText(12), '0.000012');
  t.equal(feeText(undefined), '');
});

t.test('hashes, times and JSON for reading', async (t) => {
  t.equal(shortHash('B0DAF34D43E286943C5BBE79BA2CBDAC9C385E194FE2959DEAAFA4B4C71E505E'), 'B0DAF34D…C71E505E');
  t.equal(shortHash('C4F66AFE00000000'), 'C4F66AFE00000000');
  t.equal(formatTime('2023-10-16T13:05:41.000Z'), '2023-10-16 13:05:41 UTC');
  t.equal(formatTime(null), '');
  // A ledger's total_coins is a BigInt above 2^53: written exactly, as the API writes it.
  t.equal(
    prettyJson({ total_coins: 99986441776131104n, n: 'x' }),
    '{\n  "total_coins": 99986441776131104,\n  "n": "x"\n}',
  );
});

t.test('a recorded answer is named with its own ledger and time', async (t) => {
  t.equal(
    answerSource('server_info', { ledger_index: 82521701, ledger_time: '2023-09-13T22:08:48.000Z', taken_at: 'x' }),
    'rippled’s server_info of ledger 82,521,701 (2023-09-13 22:08:48 UTC)',
  );
  t.equal(
    answerSource('fee', { ledger_index: 26575101, ledger_time: null }),
    'rippled’s fee of ledger 26,575,101 (its time not known)',
  );
  t.equal(answerSource('fee', undefined), undefined);
});

t.test('token amounts: 15 significant digits, fewer where the ledger rounding left a tail', async (t) => {
  const cases: [string, string][] = [
    ['4000.000000000001', '4,000'],
    ['3999.999999999999', '4,000'],
    ['-9999.999999999998', '-10,000'],
    ['0.0000999999999999999', '0.0001'],
    ['4150.00000000001', '4,150'],
    ['210387.215500444222757', '210,387.215500444'],
    ['270324.4695317294', '270,324.469531729'],
    ['0.001041958041958041', '0.00104195804195804'],
    ['1.000000012', '1.000000012'],
    ['17366599.150289', '17,366,599.150289'],
    ['0', '0'],
    ['1e-80', '1e-80'],
  ];
  for (const [exact, shown] of cases) t.equal(formatTokenValue(exact), shown, exact);
  t.equal(formatChange('-9999.999999999998', true), '-10,000');
  t.equal(formatChange('-9999.999999999998'), '-9,999.999999999998', 'exact unless a token is said');
});

t.test('the same amount: one asset, one exact value', async (t) => {
  const usd = (value: string) =>
    amountView({ currency: 'USD', issuer: 'rhub8VRN55s94qWKDv6jmDy1pUykJzF3wq', value }) as AmountView;
  t.ok(sameAmount(usd('10'), usd('10.000')));
  t.notOk(sameAmount(usd('10'), usd('10.0000000000000001')));
  t.notOk(sameAmount(amountView('10000000') as AmountView, usd('10')));
});
