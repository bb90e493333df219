import t from 'tap';
import { DEFAULT_DEFINITIONS } from 'ripple-binary-codec';
import { convertHexToString } from 'xrpl';
import { decodeCtid, normalizeLedger, transformTransaction } from '../../src/index.js';
import { listFixtureLedgers, readFixture, readFixtureLedger, readTransactionFixtures } from '@xle/test-helpers';

const ledger = readFixtureLedger('ledgers/recent/ledger-83258110.expanded.json');
const context = { ledgerIndex: Number(ledger.ledger_index), closeTime: ledger.close_time, networkId: 0 };
const docs = ledger.transactions.map((tx) => transformTransaction(tx, context));

t.test('an issued-currency payment from mainnet ledger 83258110', async (t) => {
  const doc = docs.find((d) => d.hash === 'B0DAF34D43E286943C5BBE79BA2CBDAC9C385E194FE2959DEAAFA4B4C71E505E');
  t.ok(doc);
  t.match(doc, {
    TransactionType: 'Payment',
    Account: 'rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw',
    ledger_index: 83258110,
    date: 750776741,
    _date: '2023-10-16T13:05:41.000Z',
    validated: true,
    ctid: 'C4F66AFE00000000',
    Amount: {
      value: '12136',
      _value: 12136,
      currency: '785354494B000000000000000000000000000000',
      _currency: 'xSTIK',
      issuer: 'rJNV9i4Q6zvRhpE2zjxgkvff3eGHQohZht',
      native: false,
    },
  });
  t.same(doc?.DeliverMax, doc?.Amount, 'every Payment has DeliverMax');
  t.notOk('metaData' in (doc ?? {}), 'metadata lives under meta');
  t.matchSnapshot(doc, 'transaction document');
});

t.test('derived fields hold on every transaction of the ledger', async (t) => {
  t.equal(docs.length, 40);
  for (const doc of docs) {
    t.equal(Math.round((doc._Fee as number) * 1e6), Number(doc.Fee), `${doc.hash} _Fee`);
    t.same(decodeCtid(doc.ctid as string), {
      ledgerIndex: 83258110,
      transactionIndex: doc.meta.TransactionIndex,
      networkId: 0,
    });
    if (doc.TransactionType === 'Payment') t.ok(doc.DeliverMax, `${doc.hash} has DeliverMax`);
    t.ok(doc._accounts.includes(doc.Account as string), 'the sender is an affected account');
  }
});

t.test('an unavailable delivered amount stays unavailable', async (t) => {
  const raw = readFixture<{
    tx: Record<string, unknown>;
    meta: Record<string, unknown>;
    hash: string;
    ledger_index: number;
  }>('transactions/mainnet-verified/explorer/Payment_PaymentWithPartial.json');
  const doc = transformTransaction(
    { ...raw.tx, hash: raw.hash, meta: { ...raw.meta, delivered_amount: 'unavailable' } },
    {
      ledgerIndex: raw.ledger_index,
      closeTime: 0,
      networkId: 0,
    },
  );
  t.equal(doc.meta.delivered_amount, undefined, 'no made-up amount');
  t.equal(doc.meta._delivered_amount_status, 'unavailable');
});

t.test('hex fields get decoded twins, the hex stays', async (t) => {
  const doc = transformTransaction(
    {
      TransactionType: 'AccountSet',
      Account: 'rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw',
      Fee: '12',
      Domain: '6578616D706C652E636F6D',
      Memos: [{ Memo: { MemoType: '746578742F706C61696E', MemoData: '68656C6C6F20776F726C64' } }],
      Expiration: 750776741,
      hash: 'A'.repeat(64),
      NetworkID: 21337,
      metaData: { TransactionIndex: 3, TransactionResult: 'tesSUCCESS', AffectedNodes: [] },
    },
    context,
  );
  t.equal(doc._Domain, convertHexToString('6578616D706C652E636F6D'));
  t.equal(doc.Domain, '6578616D706C652E636F6D');
  t.match(doc.Memos, [
    { Memo: { MemoData: '68656C6C6F20776F726C64', _MemoData: 'hello world', _MemoType: 'text/plain' } },
  ]);
  t.equal(doc._Expiration, '2023-10-16T13:05:41.000Z');
  t.same(decodeCtid(doc.ctid as string).networkId, 21337, "the transaction's own NetworkID wins");
});

t.test('the input transaction is never modified', async (t) => {
  const fresh = readFixtureLedger('ledgers/recent/ledger-87704323.json');
  const before = JSON.stringify(fresh.transactions);
  for (const tx of fresh.transactions)
    transformTransaction(tx, { ledgerIndex: 87704323, closeTime: fresh.close_time, networkId: 0 });
  t.equal(JSON.stringify(fresh.transactions), before);
});

t.test('an empty hex field has its decoded twin too (empty); binary bytes have none', async (t) => {
  const doc = transformTransaction(
    {
      TransactionType: 'AccountSet',
      Account: 'rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw',
      Domain: '',
      Memos: [{ Memo: { MemoType: '', MemoData: '00FF' } }],
      hash: 'A'.repeat(64),
      meta: { TransactionIndex: 0, TransactionResult: 'tesSUCCESS', AffectedNodes: [] },
    },
    { ledgerIndex: 94084608, closeTime: 792634570, networkId: 0 },
  );
  t.equal(doc._Domain, '', 'Domain "" → _Domain ""');
  const memo = (doc.Memos as { Memo: Record<string, unknown> }[])[0]!.Memo;
  t.equal(memo._MemoType, '', 'MemoType "" → _MemoType ""');
  t.notOk('_MemoData' in memo, 'control bytes are no text: no twin, the hex stays');
});

t.test(
  'a transaction document holds the ledger’s fields, its derived `_` fields and nothing of its source’s answer',
  async (t) => {
    // What a document may hold beyond the transaction's serialized fields (ripple-binary-codec's
    // definitions.json) and the derived fields, whose names start with `_`.
    const EXTRA = ['hash', 'ledger_index', 'ledger_hash', 'date', 'validated', 'meta', 'ctid', 'DeliverMax'];
    const serialized = new Set(
      Object.entries(DEFAULT_DEFINITIONS.field)
        .filter(([, field]) => (field as { isSerialized?: boolean }).isSerialized === true)
        .map(([name]) => name),
    );
    const records = [
      ...listFixtureLedgers().flatMap((file) => {
        const input = normalizeLedger(readFixture(file));
        return input.transactions.map((tx) => ({
          file,
          tx,
          ledgerIndex: input.ledger_index,
          closeTime: input.close_time,
        }));
      }),
      ...readTransactionFixtures(),
    ];
    const foreign = new Map<string, string>();
    let enveloped = 0;
    for (const { file, tx, ledgerIndex, closeTime } of records) {
      // As a `tx` answer wraps it (the explorer and xrpl.js fixtures are such answers).
      const answer = {
        ...tx,
        warnings: [{ id: 1004, message: 'This is a reporting server.' }],
        status: 'success',
        validated: true,
        inLedger: ledgerIndex,
        close_time_iso: '2020-01-01T00:00:00Z',
      };
      for (const input of [tx, answer]) {
        const doc = transformTransaction(input, { ledgerIndex, closeTime, networkId: 0 });
        for (const key of Object.keys(doc))
          if (!key.startsWith('_') && !serialized.has(key) && !EXTRA.includes(key)) foreign.set(key, file);
      }
      enveloped += 1;
    }
    t.ok(enveloped > 1300, `${enveloped} transactions, each also as a tx answer with warnings and status`);
    t.same(Object.fromEntries(foreign), {}, 'no field beyond the ledger’s own, the derived ones and the listed extras');
    // A field of an amendment newer than the codec's definitions is kept: it is the ledger's.
    const future = transformTransaction(
      { ...(docs[0] as never as Record<string, unknown>), metaData: docs[0]?.meta, NewField2027: 'kept' },
      context,
    );
    t.equal((future as Record<string, unknown>).NewField2027, 'kept');
  },
);
