import t from 'tap';
import { decodeCtid, encodeCtid, isCtid } from '../../src/index.js';
import { readFixture } from '@xle/test-helpers';

t.test('bit layout per XLS-37', async (t) => {
  t.equal(encodeCtid({ ledgerIndex: 0x0123456, transactionIndex: 0x0789, networkId: 0x0abc }), 'C012345607890ABC');
  t.equal(encodeCtid({ ledgerIndex: 0x0fffffff, transactionIndex: 0xffff, networkId: 0xffff }), 'CFFFFFFFFFFFFFFF');
  t.same(decodeCtid('C012345607890abc'), { ledgerIndex: 0x0123456, transactionIndex: 0x0789, networkId: 0x0abc });
});

t.test('matches the ctid rippled itself returned for a mainnet transaction', async (t) => {
  const { result } = readFixture<{
    result: { ctid: string; ledger_index: number; meta: { TransactionIndex: number } };
  }>('rpc/xrpl-dev-portal/tx.ws-response.json');
  t.equal(
    encodeCtid({ ledgerIndex: result.ledger_index, transactionIndex: result.meta.TransactionIndex, networkId: 0 }),
    result.ctid,
  );
});

t.test('out-of-range parts have no ctid', async (t) => {
  t.equal(encodeCtid({ ledgerIndex: 0x10000000, transactionIndex: 0, networkId: 0 }), undefined);
  t.equal(encodeCtid({ ledgerIndex: 1, transactionIndex: 0x10000, networkId: 0 }), undefined);
  t.equal(encodeCtid({ ledgerIndex: 1, transactionIndex: 0, networkId: -1 }), undefined);
  t.equal(encodeCtid({ ledgerIndex: 1.5, transactionIndex: 0, networkId: 0 }), undefined);
});

t.test('recognises ctids', async (t) => {
  t.ok(isCtid('C363B1DD00000000'));
  t.notOk(isCtid('D363B1DD00000000'));
  t.notOk(isCtid('C363B1DD0000000'));
  t.throws(() => decodeCtid('nope'), RangeError);
});
