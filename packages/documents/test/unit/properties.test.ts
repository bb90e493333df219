import t from 'tap';
import { convertHexToString, dropsToXrp, xrpToDrops } from 'xrpl';
import {
  decodeCtid,
  isLpTokenCode,
  normalizeLedger,
  rawAmount,
  transformTransaction,
  type AmountDoc,
  type TransactionDoc,
} from '../../src/index.js';
import { listFixtureLedgers, readFixture, readTransactionFixtures } from '@xle/test-helpers';

/** Every transaction of every fixture: the full ledgers and the single-transaction files. */
const docs: { doc: TransactionDoc; rippledCtid?: string; file: string }[] = [];
for (const file of listFixtureLedgers()) {
  const ledger = normalizeLedger(readFixture(file));
  for (const tx of ledger.transactions) {
    docs.push({
      file,
      doc: transformTransaction(tx, { ledgerIndex: ledger.ledger_index, closeTime: ledger.close_time, networkId: 0 }),
    });
  }
}
for (const fixture of readTransactionFixtures()) {
  const entry: { doc: TransactionDoc; rippledCtid?: string; file: string } = {
    file: fixture.file,
    doc: transformTransaction(fixture.tx, {
      ledgerIndex: fixture.ledgerIndex,
      closeTime: fixture.closeTime,
      networkId: 0,
    }),
  };
  if (fixture.ctid !== undefined) entry.rippledCtid = fixture.ctid;
  docs.push(entry);
}

type Amount = {
  value?: string;
  _value?: number;
  currency: string;
  _currency: string;
  native: boolean;
  issuer?: string;
};
function amountsOf(doc: TransactionDoc): [string, Amount][] {
  const found: [string, Amount][] = [];
  const visit = (path: string, value: unknown): void => {
    if (typeof value !== 'object' || value === null) return;
    if ('native' in value && '_currency' in value) found.push([path, value as Amount]);
    else if (!Array.isArray(value) && path.split('.').length < 2)
      for (const [k, v] of Object.entries(value)) visit(path ? `${path}.${k}` : k, v);
  };
  visit('', doc);
  return found;
}

t.test('there are many fixture transactions', async (t) => {
  t.ok(docs.length > 1300, `${docs.length} transactions`);
});

t.test('_Fee * 1e6 == Fee, checked against xrpl.dropsToXrp', async (t) => {
  for (const { doc } of docs) {
    if (doc.Fee === undefined) continue;
    t.equal(Math.round((doc._Fee as number) * 1e6), Number(doc.Fee), `${doc.hash}`);
    t.equal(doc._Fee, Number(dropsToXrp(String(doc.Fee))), `${doc.hash} agrees with xrpl`);
  }
});

t.test(
  'every ctid decodes back to (ledger_index, TransactionIndex, NetworkID), and equals rippled’s own',
  async (t) => {
    let compared = 0;
    for (const { doc, rippledCtid } of docs) {
      const txIndex = doc.meta.TransactionIndex;
      if (typeof txIndex !== 'number') continue;
      const parts = decodeCtid(doc.ctid as string);
      t.same(parts, {
        ledgerIndex: doc.ledger_index,
        transactionIndex: txIndex,
        networkId: typeof doc.NetworkID === 'number' ? doc.NetworkID : 0,
      });
      if (rippledCtid !== undefined) {
        const theirs = decodeCtid(rippledCtid);
        t.same(
          [theirs.ledgerIndex, theirs.transactionIndex],
          [parts.ledgerIndex, parts.transactionIndex],
          `${doc.hash} matches rippled`,
        );
        if (typeof doc.NetworkID === 'number' || theirs.networkId === 0) t.equal(doc.ctid, rippledCtid.toUpperCase());
        compared += 1;
      }
    }
    t.ok(compared >= 30, `${compared} compared with rippled's ctid`);
  },
);

t.test('amounts: native exactly when XRP, exact values, printable _currency', async (t) => {
  let seen = 0;
  for (const { doc } of docs) {
    for (const [path, amount] of amountsOf(doc)) {
      seen += 1;
      t.equal(amount.native, amount.currency === 'XRP' && amount.issuer === undefined, `${doc.hash} ${path} native`);
      t.match(amount._currency, /^[\p{L}\p{N}\p{P}\p{S} ]+$/u, `${doc.hash} ${path} printable`);
      if (amount.value !== undefined) t.equal(amount._value, Number(amount.value), `${doc.hash} ${path} _value`);
    }
  }
  t.ok(seen > 2000, `${seen} amounts`);
});

t.test('every Payment has DeliverMax', async (t) => {
  for (const { doc } of docs) if (doc.TransactionType === 'Payment') t.ok(doc.DeliverMax, doc.hash);
});

t.test('a delivered amount is only ever what the metadata says', async (t) => {
  for (const { doc } of docs) {
    const meta = doc.meta as { delivered_amount?: Amount; _delivered_amount_status?: string };
    t.notOk(meta.delivered_amount !== undefined && meta._delivered_amount_status !== undefined, doc.hash);
  }
});

t.test('amounts and currencies agree with xrpl’s own helpers', async (t) => {
  let natives = 0;
  let hexCodes = 0;
  for (const { doc } of docs) {
    for (const [path, amount] of amountsOf(doc)) {
      if (amount.native && amount.value !== undefined) {
        t.equal(xrpToDrops(amount.value), rawAmount(amount as AmountDoc), `${doc.hash} ${path} drops`);
        natives += 1;
      }
      const code = amount.currency;
      if (/^[0-9A-F]{40}$/i.test(code) && !isLpTokenCode(code) && !code.startsWith('00')) {
        const text = convertHexToString(code).replace(/\0+$/, '');
        if (/^[\p{L}\p{N}\p{P}\p{S} ]+$/u.test(text)) t.equal(amount._currency, text, `${doc.hash} ${path} currency`);
        hexCodes += 1;
      }
    }
  }
  t.ok(natives > 500, `${natives} native amounts`);
  t.ok(hexCodes > 10, `${hexCodes} 160-bit currency codes`);
});
