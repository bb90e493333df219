import t from 'tap';
import { readTransactionFixtures } from '@xle/test-helpers';
import { fixtureLedgers } from '@xle/test-loaded';
import { transactionFlagNames } from '../../src/model/flags.js';

/**
 * Every flag set on a real transaction is shown by its rippled name: the fixture ledgers'
 * transactions and the single-transaction fixtures (EnableAmendment's tfGotMajority and
 * tfLostMajority among them, which xrpl.js's parser leaves out).
 */
t.test('every flag of every fixture transaction has its name', async (t) => {
  const txs = [
    ...fixtureLedgers().flatMap((ledger) => ledger.transactions),
    ...readTransactionFixtures().map((f) => f.tx),
  ];
  const unnamed = new Map<string, number>();
  let flagged = 0;
  for (const tx of txs) {
    const names = transactionFlagNames(tx);
    if (names.length > 0) flagged += 1;
    for (const name of names.filter((n) => n.startsWith('0x'))) {
      const key = `${String(tx.TransactionType)} ${name}`;
      unnamed.set(key, (unnamed.get(key) ?? 0) + 1);
    }
  }
  t.ok(flagged > 500, `${flagged} of ${txs.length} transactions carry flags`);
  t.same([...unnamed], [], 'no flag shown as a number');
  t.same(transactionFlagNames({ TransactionType: 'EnableAmendment', Flags: 0x00020000 }), ['tfLostMajority']);
  t.same(transactionFlagNames({ TransactionType: 'EnableAmendment', Flags: 0x00010000 }), ['tfGotMajority']);
  t.same(transactionFlagNames({ TransactionType: 'Payment', Flags: 0x80020000 }), [
    'tfPartialPayment',
    'tfFullyCanonicalSig',
  ]);
  t.same(
    transactionFlagNames({ TransactionType: 'Payment', Flags: 0x00000100 }),
    ['0x00000100'],
    'a bit no one names is shown, not hidden',
  );
});
