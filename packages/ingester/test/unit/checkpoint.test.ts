import t from 'tap';
import { addToRanges, gapsOf } from '../../src/index.js';

t.test('ranges merge neighbours and overlaps, in any order', async (t) => {
  t.same(addToRanges([], [5, 3, 4, 10]), [
    { from: 3, to: 5 },
    { from: 10, to: 10 },
  ]);
  t.same(
    addToRanges(
      [
        { from: 3, to: 5 },
        { from: 10, to: 10 },
      ],
      [6, 9],
    ),
    [
      { from: 3, to: 6 },
      { from: 9, to: 10 },
    ],
  );
  t.same(addToRanges([{ from: 1, to: 100 }], [50]), [{ from: 1, to: 100 }], 'a replayed ledger changes nothing');
  t.same(addToRanges([{ from: 7, to: 8 }], [7, 8, 1]), [
    { from: 1, to: 1 },
    { from: 7, to: 8 },
  ]);
});

t.test('gaps between ranges', async (t) => {
  t.same(
    gapsOf([
      { from: 3, to: 5 },
      { from: 10, to: 12 },
      { from: 14, to: 14 },
    ]),
    [
      { from: 6, to: 9 },
      { from: 13, to: 13 },
    ],
  );
  t.same(gapsOf([{ from: 1, to: 2 }]), []);
});
