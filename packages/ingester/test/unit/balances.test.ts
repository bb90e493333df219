import t from 'tap';
import { buildBalanceDocs } from '../../src/index.js';

const asOf = { ledger_index: 5, close_time: '2025-01-01T00:00:00.000Z', total_coins: '0' };

t.test('ranked by exact drops, ties by address, cut at the list size', async (t) => {
  const docs = buildBalanceDocs(
    [
      { account: 'rB', xrp: '10.000001' },
      { account: 'rA', xrp: '10.000001' },
      // Equal as doubles, apart in drops: 2^53 + 1 drops is not representable as a double.
      { account: 'rC', xrp: '9007199254.740993' },
      { account: 'rD', xrp: '9007199254.740992' },
      { account: 'rE', xrp: '0.000001' },
    ],
    asOf,
    4,
  );
  t.same(
    docs.map((d) => [d.doc.rank, d.doc.account]),
    [
      [1, 'rC'],
      [2, 'rD'],
      [3, 'rA'],
      [4, 'rB'],
    ],
  );
  t.equal(docs[2]?.doc.balance, 10000001);
  t.equal(docs[0]?._id, 'rC');
});
