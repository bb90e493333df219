import t from 'tap';
import { auctionTimeInterval, rippledTimeText } from '@xle/documents';
import { poolSide, shapeAmmInfo, shapeAmmPool } from '../../src/shapers/amm.js';

type Json = Record<string, unknown>;

const AMM = 'rP5J7x4HyHKQUUfrfzvuq28iLwiKPf7yv5';
const ISSUER = 'rwCq6TENSo3Hh9LKipXnLaxaeXBXKubqki';
const PONGO = '504F4E474F000000000000000000000000000000';

const line = (flags: number): Record<string, unknown> => ({
  LedgerEntryType: 'RippleState',
  Flags: flags,
  Balance: { currency: PONGO, issuer: 'rrrrrrrrrrrrrrrrrrrrBZbvji', value: '-4256714378784309e-3', native: false },
  LowLimit: { currency: PONGO, issuer: ISSUER, value: '0', native: false },
  HighLimit: { currency: PONGO, issuer: AMM, value: '0', native: false },
});

t.test('rippled time text, as amm_info prints an expiration', async (t) => {
  // the xrpl.org amm_info example: expiration 2023-Jan-26 00:28:40 UTC
  t.equal(rippledTimeText(728008120), '2023-Jan-26 00:28:40.000000000 UTC');
  t.equal(rippledTimeText(0), '2000-Jan-01 00:00:00.000000000 UTC');
});

t.test('auction slot interval: 20 slices of 72 minutes, none once expired', async (t) => {
  const exp = 791777280;
  t.equal(auctionTimeInterval(exp, exp - 86400), 0, 'the first second of the slot');
  t.equal(auctionTimeInterval(exp, exp - 86400 + 4319), 0);
  t.equal(auctionTimeInterval(exp, exp - 86400 + 4320), 1);
  t.equal(auctionTimeInterval(exp, exp - 1), 19, 'the last second');
  t.equal(auctionTimeInterval(exp, exp), undefined, 'expired');
  t.equal(auctionTimeInterval(exp, exp - 86401), undefined, 'not started');
  t.equal(auctionTimeInterval(100, 50), undefined, 'an expiration below 24 h is never valid');
});

t.test('pool sides: XRP in drops, a token from the AMM side of its trust line, freezes', async (t) => {
  const root = { Balance: { currency: 'XRP', native: true, value: '39866.687388', _value: 39866.687388 } };
  t.same(poolSide({ currency: 'XRP' }, AMM, root, []), { amount: '39866687388' });
  const token = { currency: PONGO, issuer: ISSUER };
  t.same(poolSide(token, AMM, root, [line(0)]), {
    amount: { currency: PONGO, issuer: ISSUER, value: '4256714378784.309' },
    frozen: false,
  });
  t.equal(poolSide(token, AMM, root, [line(0x00400000)]).frozen, true, 'the issuer (low side) froze the line');
  t.equal(poolSide(token, AMM, root, [line(0x00800000)]).frozen, false, "the AMM's own freeze flag is not a freeze");
  t.equal(poolSide(token, AMM, root, [line(0)], 0x00400000).frozen, true, 'a global freeze of the issuer');
  t.same(poolSide(token, AMM, root, []).amount, null, 'no indexed line: unknown, not zero');
  t.same(poolSide({ currency: 'XRP' }, AMM, undefined, []).amount, null, 'no indexed account root: unknown XRP');
});

t.test('AMM info and pool shapes', async (t) => {
  const amm = {
    Account: AMM,
    Asset: { currency: 'XRP', _currency: 'XRP', native: true },
    Asset2: { currency: PONGO, _currency: 'PONGO', native: false, issuer: ISSUER },
    AuctionSlot: {
      Account: 'rbBfeoq9ZzYhwzCzR3ssD2x79GXPrNkXy',
      Expiration: 791777280,
      Price: { currency: 'LP', issuer: AMM, value: '45e6' },
      AuthAccounts: [{ AuthAccount: { Account: ISSUER } }],
    },
    LPTokenBalance: { currency: 'LP', issuer: AMM, value: '3310128109714975e-4', _value: 1, native: false },
    TradingFee: 339,
    VoteSlots: [{ VoteEntry: { Account: ISSUER, VoteWeight: 100000 } }],
    LedgerEntryType: 'AMM',
    Flags: 0,
    index: 'AB',
  };
  const info = shapeAmmInfo(
    amm,
    { amount: '1' },
    { amount: { currency: PONGO, issuer: ISSUER, value: '2' }, frozen: true },
    791777280 - 10,
  );
  t.same(info, {
    account: AMM,
    amount: '1',
    amount2: { currency: PONGO, issuer: ISSUER, value: '2' },
    asset2_frozen: true,
    auction_slot: {
      account: 'rbBfeoq9ZzYhwzCzR3ssD2x79GXPrNkXy',
      discounted_fee: 0,
      expiration: '2025-Feb-02 02:08:00.000000000 UTC',
      price: { currency: 'LP', issuer: AMM, value: '45000000' },
      time_interval: 19,
      auth_accounts: [{ account: ISSUER }],
    },
    lp_token: { currency: 'LP', issuer: AMM, value: '331012810971.4975' },
    trading_fee: 339,
    vote_slots: [{ account: ISSUER, trading_fee: 0, vote_weight: 100000 }],
  });
  const expired = shapeAmmInfo(amm, { amount: '1' }, { amount: null }, 791777280) as {
    auction_slot: Json;
    amount2: unknown;
  };
  t.equal(expired.auction_slot.time_interval, 20, 'an expired slot is in the 20th interval, as amm_info says');
  t.equal(expired.amount2, null, 'an unknown side stays null');
  const { Account: _owner, ...unowned } = amm.AuctionSlot;
  t.notOk(
    'auction_slot' in shapeAmmInfo({ ...amm, AuctionSlot: unowned }, { amount: '1' }, { amount: '2' }, 0),
    'a slot nobody holds is not shown, as amm_info does',
  );
  t.equal(shapeAmmPool(amm, null).Balance, null, 'an unindexed pool account: Balance null');
  const pool = shapeAmmPool(amm, 39866.687388);
  t.match(pool, {
    Account: AMM,
    Asset: { currency: 'XRP' },
    Asset2: { currency: PONGO, issuer: ISSUER },
    LPTokenBalance: { value: '331012810971.4975' },
    Balance: 39866.687388,
  });
  t.notOk(JSON.stringify(pool).includes('"_'), 'no derived fields');
  t.notOk('native' in (pool.Asset as object), 'assets in their ledger form');
});
