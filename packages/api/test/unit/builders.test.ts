import t from 'tap';
import { BadRequestError } from '@xle/core';
import { buildLedgerTxQuery, buildTxLookup } from '../../src/queries/lookups.js';
import { decodeMarker, encodeMarker } from '../../src/queries/markers.js';
import { buildAccountActivityQuery, buildNftActivityQuery } from '../../src/queries/activity.js';
import { obligationsOf, trustLineOf } from '@xle/documents';
import { accountSettings } from '../../src/shapers/account.js';
import { shapeLedger } from '../../src/shapers/ledger.js';
import { shapeTransaction } from '../../src/shapers/transaction.js';

const ACCOUNT = 'rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw';

t.test('account transactions query', async (t) => {
  t.matchSnapshot(buildAccountActivityQuery(ACCOUNT, { limit: 20 }, 94084608), 'default: newest first, pinned range');
  t.matchSnapshot(
    buildAccountActivityQuery(
      ACCOUNT,
      {
        limit: 5,
        type: 'Payment',
        result: 'tesSUCCESS',
        from: '2020-01-01T00:00:00Z',
        destination_tag: 7,
        currency: 'USD',
        direction: 'received',
        forward: true,
      },
      100,
    ),
    'every filter, oldest first',
  );
  t.matchSnapshot(buildAccountActivityQuery(ACCOUNT, { limit: 2 }, 100, [99, 3]), 'a deep page: after the marker');
  t.matchSnapshot(buildNftActivityQuery('00'.repeat(32), 10, true), "an NFT's history, newest first");
});

t.test('markers round-trip and are bound to their account and ordering', async (t) => {
  const marker = { v: 1 as const, account: ACCOUNT, max: 100, after: [99, 3] as [number, number], forward: false };
  t.same(decodeMarker(encodeMarker(marker), ACCOUNT, false), marker);
  t.throws(() => decodeMarker(encodeMarker(marker), 'rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y', false), BadRequestError);
  t.throws(() => decodeMarker(encodeMarker(marker), ACCOUNT, true), BadRequestError);
  t.throws(() => decodeMarker('%%%', ACCOUNT, false), BadRequestError);
  t.throws(
    () => decodeMarker(Buffer.from('{"v":1,"after":["x",1]}').toString('base64url'), ACCOUNT, false),
    BadRequestError,
  );
});

t.test('lookups by hash, ctid and ledger', async (t) => {
  t.same(buildTxLookup('ab'.repeat(32)), { query: { term: { hash: 'AB'.repeat(32) } }, size: 1 });
  t.matchSnapshot(buildTxLookup('c4f66afe00000000'), 'ctid lookup checks the ctid and its parts');
  t.matchSnapshot(buildLedgerTxQuery(83258110), 'a ledger in transaction order');
});

t.test('a trust line from each side', async (t) => {
  const entry = {
    LedgerEntryType: 'RippleState',
    Flags: 0x00100000 | 0x00800000, // lsfLowNoRipple, lsfHighFreeze
    Balance: { currency: 'USD', issuer: 'rrrrrrrrrrrrrrrrrrrrBZbvji', value: '-12.5' },
    LowLimit: { currency: 'USD', issuer: 'rLow1111111111111111111111111', value: '0' },
    HighLimit: { currency: 'USD', issuer: 'rHigh111111111111111111111111', value: '100' },
  };
  t.same(trustLineOf(entry, 'rLow1111111111111111111111111'), {
    account: 'rHigh111111111111111111111111',
    balance: '-12.5',
    currency: 'USD',
    limit: '0',
    limit_peer: '100',
    quality_in: 0,
    quality_out: 0,
    no_ripple: true,
    freeze_peer: true,
  });
  t.same(trustLineOf(entry, 'rHigh111111111111111111111111'), {
    account: 'rLow1111111111111111111111111',
    balance: '12.5',
    currency: 'USD',
    limit: '100',
    limit_peer: '0',
    quality_in: 0,
    quality_out: 0,
    no_ripple_peer: true,
    freeze: true,
  });
});

t.test('shapers', async (t) => {
  t.match(accountSettings({ Flags: 0x00020000 | 0x00800000, TransferRate: 1002000000, _Domain: 'example.com' }), {
    requireDestinationTag: true,
    defaultRipple: true,
    disableMasterKey: false,
    transferRate: 1.002,
    domain: 'example.com',
  });
  t.same(
    shapeLedger(
      {
        ledger_index: 5,
        ledger_hash: 'H',
        parent_hash: 'P',
        close_time: 1,
        close_time_human: 'x',
        tx_count: 0,
        total_coins: '100',
        destroyed_coins: 12,
      },
      { withDestroyed: true },
    ),
    {
      ledger_index: 5,
      ledger_hash: 'H',
      parent_hash: 'P',
      close_flags: 0,
      close_time: 1,
      close_time_human: 'x',
      tx_count: 0,
      total_coins: 100n,
      validated: true,
      destroyed_coins: 12,
    },
  );
  const shaped = shapeTransaction(
    {
      hash: 'A'.repeat(64),
      TransactionType: 'Payment',
      Account: ACCOUNT,
      Amount: { value: '1.5', _value: 1.5, currency: 'XRP', _currency: 'XRP', native: true },
      Fee: 12,
      _Fee: 0.000012,
      date: 750776741,
      _date: '2023-10-16T13:05:41.000Z',
      _accounts: [ACCOUNT],
      meta: { TransactionIndex: 0, TransactionResult: 'tesSUCCESS', _delivered_amount_status: 'unavailable' },
    },
    new Map(),
  );
  t.match(shaped, {
    Amount: '1500000',
    date: '2023-10-16T13:05:41.000Z',
    meta: { delivered_amount: 'unavailable' },
    AccountName: null,
  });
  t.notOk('_Fee' in shaped || '_accounts' in shaped || '_date' in shaped);
});

t.test('obligations are added exactly', async (t) => {
  const line = (currency: string, balance: string) => ({
    account: 'r',
    balance,
    currency,
    limit: '0',
    limit_peer: '0',
    quality_in: 0,
    quality_out: 0,
  });
  t.same(
    obligationsOf([
      line('USD', '-0.1'),
      line('USD', '-0.2'),
      line('USD', '5'),
      line('EUR', '-1e-15'),
      line('EUR', '-9999999999999999e80'),
    ]),
    [
      { currency: 'USD', value: '0.3' },
      {
        currency: 'EUR',
        // 16 nines followed by 80 zeros, plus 1e-15: exact, where doubles would lose the small part.
        value: `9999999999999999${'0'.repeat(80)}.000000000000001`,
      },
    ],
  );
});

t.test('NFT flags and page owners', async (t) => {
  const { parseNftFlags, pageOwner } = await import('@xle/documents');
  t.same(parseNftFlags(0), []);
  t.same(parseNftFlags(0x0b), ['tfBurnable', 'tfOnlyXRP', 'tfTransferable']);
  t.equal(
    pageOwner('4C53D1E11EE197DA72BDEF9F96F06B194C1AEFEB16D22214A6AE7DCE00000034'),
    'rfx2mVhTZzc6bLXKeYyFKtpha2LHrkNZFT',
  );
});
