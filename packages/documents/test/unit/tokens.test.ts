import BigNumber from 'bignumber.js';
import t from 'tap';
import { getBalanceChanges, type TransactionMetadata } from 'xrpl';
import {
  currencyHex,
  type ExchangeSide,
  exchangesOf,
  type Json,
  normalizeLedger,
  tokenId,
  tokensTouched,
  trustLineFields,
  trustLineSides,
} from '../../src/index.js';
import { listFixtureLedgers, readFixture } from '@xle/test-helpers';

const ISSUER = 'rMwjYedjc7qqtKYVLiAccJSmCwih4LnE2q';
const HOLDER = 'rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y';
const USD_HEX = '0000000000000000000000005553440000000000';

t.test('currency codes map to one 40-hex form', async (t) => {
  t.equal(currencyHex('USD'), USD_HEX);
  t.equal(currencyHex(USD_HEX.toLowerCase()), USD_HEX);
  t.equal(currencyHex('504F4E474F000000000000000000000000000000'), '504F4E474F000000000000000000000000000000');
  t.equal(currencyHex('XRP'), undefined, 'XRP is not an issued token');
  t.equal(currencyHex('0'.repeat(40)), undefined, 'the all-zero code is XRP');
  t.equal(currencyHex('RLUSD'), '524C555344000000000000000000000000000000', 'a text code is its bytes, zero-padded');
  t.equal(currencyHex('US'), undefined);
  t.equal(currencyHex('twenty-one-bytes-long'), undefined);
  t.equal(currencyHex('not a code at all'), undefined);
  t.equal(tokenId('USD', ISSUER), `${USD_HEX}.${ISSUER}`);
});

t.test('trust line sides', async (t) => {
  const line = (balance: string, low: string, high: string, currency = 'USD'): Json => ({
    Balance: { currency, issuer: 'rrrrrrrrrrrrrrrrrrrrBZbvji', value: balance },
    LowLimit: { currency, issuer: HOLDER, value: low },
    HighLimit: { currency, issuer: ISSUER, value: high },
  });
  t.same(trustLineSides(line('12.5', '100', '0')), [
    { token: `${USD_HEX}.${ISSUER}`, issuer: ISSUER, holder: HOLDER, holding: '12.5' },
  ]);
  t.same(
    trustLineSides(line('-3', '0', '10')),
    [{ token: `${USD_HEX}.${HOLDER}`, issuer: HOLDER, holder: ISSUER, holding: '3' }],
    'a negative balance: the high account holds what the low one issued',
  );
  t.same(
    trustLineSides(line('0', '100', '0')).map((s) => [s.holder, s.holding]),
    [[HOLDER, '0']],
    'a zero balance is a trust line of the side that extends a limit',
  );
  t.equal(trustLineSides(line('0', '5', '5')).length, 2, 'both sides trusting: a line of each token');
  t.same(trustLineSides(line('0', '0', '0')), [], 'no balance and no limit: a line of no token');
  t.same(trustLineSides(line('1', '1', '0', '03ED41506EA49D3D0F6B7C8212D3C5DA22C2C8B1')), [], 'LP tokens are left out');
  t.same(trustLineFields(line('1e-81', '1', '0')), {
    _token: [`${USD_HEX}.${ISSUER}`],
    _holder: [HOLDER],
    _holding: 1e-81,
    // 1e-81 = 1000000000000000 × 10^-96: rippled's smallest exponent, the mantissa's upper half 10^7.
    _holding_e: -96,
    _holding_hi: 10000000,
    _holding_lo: 0,
  });
  t.same(trustLineFields({ LedgerEntryType: 'RippleState' }), {}, 'an entry without amounts derives nothing');
});

const fixtureTransactions = listFixtureLedgers().flatMap((file) => {
  const ledger = normalizeLedger(readFixture(file));
  return ledger.transactions.map((tx) => ({ tx, ledger: ledger.ledger_index }));
});
const metaOf = (tx: Json): Json => (tx.metaData ?? tx.meta) as Json;
const exchangesByTx = fixtureTransactions.map(({ tx, ledger }) => ({
  tx,
  exchanges: exchangesOf(tx, metaOf(tx), ledger * 65536 + Number(metaOf(tx).TransactionIndex ?? 0)),
}));

t.test('exchanges of every fixture transaction', async (t) => {
  const all = exchangesByTx.flatMap((e) => e.exchanges);
  const via = (v: string): number => all.filter((x) => x.via === v).length / 2;
  t.ok(via('offer') >= 100, `${via('offer')} offer exchanges`);
  t.ok(via('amm') >= 5, `${via('amm')} AMM swaps`);
  for (const { tx, exchanges } of exchangesByTx) {
    if (exchanges.length === 0) continue;
    t.ok(['Payment', 'OfferCreate'].includes(tx.TransactionType as string), 'only Payments and OfferCreates exchange');
    t.equal(metaOf(tx).TransactionResult, 'tesSUCCESS');
    for (let i = 0; i < exchanges.length; i += 2) {
      const [a, b] = [exchanges[i]!, exchanges[i + 1]!];
      t.same(
        [b.token, b.value, b.counter, b.counter_value],
        [a.counter, a.counter_value, a.token, a.value],
        'mirrored',
      );
      t.ok(new BigNumber(a.value).gt(0) && new BigNumber(a.counter_value).gt(0), 'amounts are positive');
      t.not(a.token, a.counter);
      t.equal(a.taker, tx.Account);
    }
  }
  t.same(
    exchangesOf({ TransactionType: 'OfferCreate', Account: HOLDER }, { TransactionResult: 'tecKILLED' }, 0),
    [],
    'a failed transaction exchanges nothing',
  );
});

/**
 * Cross-check with xrpl's getBalanceChanges, computed independently from the same metadata: what
 * each maker gave and got in XRP equals its XRP balance change (XRP has no transfer fee), and an
 * AMM pool's change in every asset equals what its swaps say.
 */
t.test('makers’ balance changes agree with xrpl.getBalanceChanges', async (t) => {
  let checked = 0;
  for (const { tx, exchanges } of exchangesByTx) {
    if (exchanges.length === 0) continue;
    const expected = new Map<string, BigNumber>();
    const add = (maker: string, asset: string, delta: BigNumber): void => {
      const key = `${maker} ${asset}`;
      expected.set(key, (expected.get(key) ?? new BigNumber(0)).plus(delta));
    };
    const makers = new Map<string, ExchangeSide['via']>();
    // One side of each pair is enough: the maker paid `value` of `token` and got `counter_value` of `counter`.
    for (let i = 0; i < exchanges.length; i += 2) {
      const x = exchanges[i]!;
      makers.set(x.maker, x.via);
      add(x.maker, x.token, new BigNumber(x.value).negated());
      add(x.maker, x.counter, new BigNumber(x.counter_value));
    }
    const actual = new Map<string, BigNumber>();
    for (const { account, balances } of getBalanceChanges(metaOf(tx) as unknown as TransactionMetadata))
      for (const b of balances) {
        const asset = b.currency === 'XRP' ? 'XRP' : tokenId(b.currency, b.issuer ?? '');
        if (asset === undefined) continue;
        const key = `${account} ${asset}`;
        actual.set(key, (actual.get(key) ?? new BigNumber(0)).plus(b.value));
      }
    for (const [key, delta] of expected) {
      const [maker, asset] = key.split(' ') as [string, string];
      if (maker === tx.Account) continue;
      if (asset !== 'XRP' && makers.get(maker) !== 'amm') continue;
      t.equal(actual.get(key)?.toFixed(), delta.toFixed(), `${tx.hash as string}: ${key}`);
      checked += 1;
    }
  }
  t.ok(checked >= 80, `${checked} balance changes checked`);
});

t.test('tokens touched are the tokens of every changed trust line', async (t) => {
  const touched = fixtureTransactions.map(({ tx }) => tokensTouched(metaOf(tx)));
  t.ok(touched.filter((list) => list.length > 0).length >= 50);
  for (const list of touched) for (const id of list) t.match(id, /^[0-9A-F]{40}\.r[1-9A-HJ-NP-Za-km-z]{24,34}$/);
});
