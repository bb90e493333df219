import t from 'tap';
import { normalizeLedger, transformLedger, transformTransaction, LedgerShapeError } from '../../src/index.js';
import { listFixtureLedgers, readFixture } from '@xle/test-helpers';

t.test('every fixture ledger file normalises, whatever its shape', async (t) => {
  const files = listFixtureLedgers();
  t.equal(files.length, 62);
  for (const file of files) {
    const ledger = normalizeLedger(readFixture(file));
    t.ok(ledger.ledger_index >= 32570, `${file}: ledger index ${ledger.ledger_index}`);
    t.match(ledger.ledger_hash, /^[0-9A-F]{64}$/, `${file}: hash`);
    t.ok(
      ledger.transactions.every((tx) => typeof tx.hash === 'string' && tx.metaData !== undefined),
      `${file}: expanded transactions`,
    );
    const indices = ledger.transactions.map((tx) => (tx.metaData as { TransactionIndex: number }).TransactionIndex);
    t.same(
      indices,
      [...indices].sort((a, b) => a - b),
      `${file}: transaction order`,
    );
  }
});

t.test('the binary ledger decodes to exactly the expanded one', async (t) => {
  const binary = normalizeLedger(readFixture('ledgers/recent/ledger-83258110.binary.json'));
  const expanded = normalizeLedger(readFixture('ledgers/recent/ledger-83258110.expanded.json'));
  t.equal(binary.transactions.length, 40);
  t.same(
    binary.transactions.map((tx) => tx.hash),
    expanded.transactions.map((tx) => tx.hash),
    'hashes computed from the blobs match',
  );
  t.same(transformLedger(binary), transformLedger(expanded));
  const context = { ledgerIndex: binary.ledger_index, closeTime: binary.close_time, networkId: 0 };
  for (let i = 0; i < 40; i += 1) {
    t.same(
      transformTransaction(binary.transactions[i] ?? {}, context),
      transformTransaction(expanded.transactions[i] ?? {}, context),
    );
  }
});

t.test('close times: XRPL epoch, and Unix seconds of the Data API converted', async (t) => {
  const rippled = transformLedger(normalizeLedger(readFixture('ledgers/recent/ledger-83258110.expanded.json')));
  t.equal(rippled.close_time, 750776741);
  t.equal(rippled.close_time_human, '2023-10-16T13:05:41.000Z');
  const dataApi = transformLedger(
    normalizeLedger(readFixture('ledgers/historical/rippled-historical-database/ledger-22027923.json')),
  );
  t.equal(dataApi.close_time_human, '2016-06-21T18:26:32.000Z', 'Unix 1466533592, not a date in 2046');
  t.equal(dataApi.close_time, 1466533592 - 946684800);
});

t.test('the ledger document', async (t) => {
  const doc = transformLedger(normalizeLedger(readFixture('ledgers/recent/ledger-83258110.expanded.json')));
  t.matchSnapshot(doc, 'ledger document');
  t.equal(doc.tx_count, 40);
  t.equal(doc.destroyed_coins, 36014, 'sum of the 40 fees, in drops');
});

t.test('what is not a ledger is a clear error', async (t) => {
  t.throws(() => normalizeLedger([]), LedgerShapeError);
  t.throws(() => normalizeLedger({ ledger: { ledger_index: 'abc' } }), {
    message: /ledger_index is not an unsigned integer/,
  });
  t.throws(() => normalizeLedger({ ledger: { ledger_index: 5, transactions: [] } }), { message: /no ledger hash/ });
  t.throws(
    () =>
      normalizeLedger({
        ledger: {
          ledger_index: 5,
          ledger_hash: 'A'.repeat(64),
          total_coins: '1',
          close_time: 1,
          transactions: ['ABCD'],
        },
      }),
    { message: /not an object \(not expanded\?\)/ },
  );
});
