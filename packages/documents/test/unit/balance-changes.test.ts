import BigNumber from 'bignumber.js';
import t from 'tap';
import { getBalanceChanges, type TransactionMetadata } from 'xrpl';
import {
  BALANCE_CHANGE_KINDS,
  balanceChangeDocuments,
  currencyHex,
  type Json,
  normalizeLedger,
  openingBalanceDocuments,
  transformTransaction,
} from '../../src/index.js';
import { listFixtureLedgers, readFixture } from '@xle/test-helpers';

const transactions = listFixtureLedgers().flatMap((file) => {
  const ledger = normalizeLedger(readFixture(file));
  return ledger.transactions.map((tx) => ({
    tx,
    doc: transformTransaction(tx, { ledgerIndex: ledger.ledger_index, closeTime: ledger.close_time, networkId: 0 }),
  }));
});
const metaOf = (tx: Json): Json => (tx.metaData ?? tx.meta) as Json;

/** Sum per `account currency issuer` (XRP's issuer empty); zero sums left out. */
function sums(rows: Array<{ account: string; currency: string; issuer?: string; value: string }>): Map<string, string> {
  const out = new Map<string, BigNumber>();
  for (const row of rows) {
    const key = `${row.account} ${row.currency} ${row.issuer ?? ''}`;
    out.set(key, (out.get(key) ?? new BigNumber(0)).plus(row.value));
  }
  return new Map([...out].filter(([, v]) => !v.isZero()).map(([k, v]) => [k, v.toFixed()]));
}

t.test('every fixture transaction: the documents add up to xrpl.getBalanceChanges', async (t) => {
  let compared = 0;
  let documents = 0;
  const kinds = new Set<string>();
  for (const { tx, doc } of transactions) {
    const ours = balanceChangeDocuments(doc).map((d) => d.doc);
    documents += ours.length;
    for (const d of ours) kinds.add(d.kind);
    const theirs = getBalanceChanges(metaOf(tx) as unknown as TransactionMetadata).flatMap((entry) =>
      entry.balances.map((b) => ({ account: entry.account, currency: b.currency, issuer: b.issuer, value: b.value })),
    );
    // Compared on the 40-hex code (xrpl gives the code as the ledger writes it).
    const written = ours.map((d) => ({
      account: d.account,
      currency: d.currency_hex,
      issuer: d.issuer,
      value: d.value,
    }));
    const theirsHex = theirs.map((b) => ({
      ...b,
      currency: b.currency === 'XRP' ? 'XRP' : (currencyHex(b.currency) ?? b.currency),
    }));
    const mine = sums(written);
    const expected = sums(theirsHex);
    if (!t.same([...mine].sort(), [...expected].sort(), `${doc.hash}`)) break;
    compared += 1;
  }
  t.ok(compared >= 1000, `${compared} transactions compared, ${documents} documents`);
  t.comment(`${compared} transactions compared with xrpl.getBalanceChanges, ${documents} balance-change documents`);
  t.ok(kinds.has('fee') && kinds.has('sent') && kinds.has('received') && kinds.has('dex_trade'), [...kinds].join(' '));
  for (const kind of kinds) t.ok((BALANCE_CHANGE_KINDS as readonly string[]).includes(kind), kind);
});

t.test('balances chain: each change moves the balance before it to the balance after it', async (t) => {
  let chained = 0;
  for (const { doc } of transactions) {
    const docs = balanceChangeDocuments(doc).map((d) => d.doc);
    const last = new Map<string, string>();
    for (const d of docs) {
      const key = `${d.account} ${d.currency_hex} ${d.issuer ?? ''}`;
      const before = last.get(key);
      if (before !== undefined) {
        t.equal(new BigNumber(before).plus(d.value).toFixed(), d.balance, `${doc.hash} ${key}`);
        chained += 1;
      }
      last.set(key, d.balance);
      t.equal(d.ledger_index, doc.ledger_index);
      t.equal(d.hash, doc.hash);
      t.equal(d.date, doc._date);
    }
    t.same(
      docs.map((d) => d.position),
      docs.map((_, i) => i),
      'positions in order',
    );
  }
  t.ok(chained >= 200, `${chained} fee-then-rest pairs chained`);
});

t.test('the fee is its own change, the sender’s first', async (t) => {
  const payment = transactions.find(
    ({ doc }) =>
      doc.TransactionType === 'Payment' &&
      metaOf(doc).TransactionResult === 'tesSUCCESS' &&
      doc.Amount !== undefined &&
      (doc.Amount as Json).native === true,
  );
  t.ok(payment, 'an XRP payment');
  const docs = balanceChangeDocuments(payment!.doc).map((d) => d.doc);
  const sender = docs.filter((d) => d.account === payment!.doc.Account);
  t.equal(sender[0]?.kind, 'fee');
  t.equal(sender[0]?.value, new BigNumber(payment!.doc.Fee as string).shiftedBy(-6).negated().toFixed());
  t.equal(sender[1]?.kind, 'sent');
  t.equal(sender[1]?.counterparty, payment!.doc.Destination);
  const received = docs.find((d) => d.account === payment!.doc.Destination);
  t.equal(received?.kind, 'received');
  t.equal(received?.counterparty, payment!.doc.Account);
  if (typeof payment!.doc.DestinationTag === 'number') t.equal(received?.destination_tag, payment!.doc.DestinationTag);

  const failed = transactions.find(({ doc }) => String(metaOf(doc).TransactionResult).startsWith('tec'));
  t.ok(failed, 'a failed transaction');
  const failedDocs = balanceChangeDocuments(failed!.doc).map((d) => d.doc);
  t.same(
    failedDocs.map((d) => [d.account, d.kind]),
    [[failed!.doc.Account, 'fee']],
    'a failed transaction changes only its fee',
  );
});

t.test('opening balances of a state snapshot', async (t) => {
  const account = openingBalanceDocuments(
    {
      LedgerEntryType: 'AccountRoot',
      index: 'A'.repeat(64),
      Account: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
      Balance: '1000000',
    },
    32570,
    0,
  );
  t.match(account, [
    {
      id: `32570.${'A'.repeat(64)}.A`,
      doc: {
        account: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
        currency: 'XRP',
        value: '1',
        balance: '1',
        kind: 'opening',
        history_start: true,
        date: '2000-01-01T00:00:00.000Z',
      },
    },
  ]);
  const line = openingBalanceDocuments(
    {
      LedgerEntryType: 'RippleState',
      index: 'B'.repeat(64),
      Balance: { currency: 'USD', issuer: 'rrrrrrrrrrrrrrrrrrrrBZbvji', value: '-2.5' },
      LowLimit: { currency: 'USD', issuer: 'rLow', value: '0' },
      HighLimit: { currency: 'USD', issuer: 'rHigh', value: '10' },
    },
    32570,
    undefined,
  ).map((d) => [d.doc.account, d.doc.issuer, d.doc.balance, d.doc.date]);
  t.same(line, [
    ['rLow', 'rHigh', '-2.5', undefined],
    ['rHigh', 'rLow', '2.5', undefined],
  ]);
  t.same(openingBalanceDocuments({ LedgerEntryType: 'Offer', index: 'C'.repeat(64) }, 1, 0), []);
});

t.test('a fee offset by XRP received in the same transaction is still a fee', async (t) => {
  const account = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
  const docs = balanceChangeDocuments({
    hash: 'A'.repeat(64),
    ledger_index: 5,
    _date: '2020-01-01T00:00:00.000Z',
    TransactionType: 'OfferCreate',
    Account: account,
    Fee: '10',
    meta: {
      TransactionIndex: 0,
      TransactionResult: 'tesSUCCESS',
      AffectedNodes: [
        {
          ModifiedNode: {
            LedgerEntryType: 'AccountRoot',
            FinalFields: { Account: account, Balance: '1000', Sequence: 5 },
            PreviousFields: { Sequence: 4 },
          },
        },
      ],
    },
  }).map((d) => [d.doc.kind, d.doc.value, d.doc.balance]);
  t.same(docs, [
    ['fee', '-0.00001', '0.00099'],
    ['dex_trade', '0.00001', '0.001'],
  ]);
});
