import t from 'tap';
import { parseCompleteLedgers, refuseRange } from '../../src/index.js';

t.test('complete_ledgers as rippled writes it', async (t) => {
  t.same(parseCompleteLedgers('32570-94000000'), [{ from: 32570, to: 94000000 }]);
  t.same(parseCompleteLedgers('empty'), []);
  t.same(parseCompleteLedgers('90000000-90000100,90000102, 90000104-90000200'), [
    { from: 90000000, to: 90000100 },
    { from: 90000102, to: 90000102 },
    { from: 90000104, to: 90000200 },
  ]);
  t.same(parseCompleteLedgers('5-7,1-4'), [{ from: 1, to: 7 }], 'merged and sorted');
  t.throws(() => parseCompleteLedgers('32570-x'));
  t.throws(() => parseCompleteLedgers('9-3'));
});

t.test('a range the source cannot serve is refused, saying what it has', async (t) => {
  const full = { text: '32570-94000000', complete: parseCompleteLedgers('32570-94000000'), validated: 94000000 };
  t.equal(refuseRange({ from: 40000, to: 94000000 }, full, 'wss://s'), undefined);
  t.match(
    refuseRange({ from: 40000, to: 99_999_999_999 }, full, 'wss://s'),
    /99999999999 is beyond the source's newest validated ledger 94000000 \(wss:\/\/s has ledgers 32570-94000000/,
  );
  const recent = {
    text: '93000000-94000000',
    complete: parseCompleteLedgers('93000000-94000000'),
    validated: 94000000,
  };
  t.match(refuseRange({ from: 40000, to: 93000010 }, recent, 'wss://s'), /lacks 40000-92999999 .*full-history/);
  const holes = { text: '1-10,12-20', complete: parseCompleteLedgers('1-10,12-20'), validated: 20 };
  t.match(refuseRange({ from: 5, to: 15 }, holes, 'wss://s'), /lacks 11 /);
  t.match(refuseRange({ from: 5, to: 15 }, { ...holes, validated: undefined }, 'wss://s'), /no validated ledger/);
});
