import t from 'tap';
import { belowWatermark, contiguousEnd, type WriteOp } from '../../src/index.js';

t.test('the contiguous history is the range that holds the first ledger', async (t) => {
  const ranges = [
    { from: 32570, to: 40000 },
    { from: 40002, to: 50000 },
  ];
  t.equal(contiguousEnd(ranges, 32570), 40000, 'up to the first gap');
  t.equal(contiguousEnd([{ from: 1, to: 40000 }], 32570), 40000, 'a history that starts earlier counts too');
  t.equal(contiguousEnd([{ from: 32571, to: 40000 }], 32570), undefined, 'a missing first ledger: none');
  t.equal(contiguousEnd([], 32570), undefined);
});

t.test('behind the watermark only ledger state is skipped', async (t) => {
  const op = (index: string, ledgerIndex: number): WriteOp => ({
    index,
    id: `${index}-${ledgerIndex}`,
    doc: {},
    ledgerIndex,
  });
  const ops = [
    op('tx', 5),
    op('objects', 5),
    op('accounts', 10),
    op('deletions', 11),
    op('objects', 11),
    op('nfts', 3),
  ];
  const { kept, skipped } = belowWatermark(ops, 10, new Set(['objects', 'accounts', 'nfts', 'deletions']));
  t.same(
    kept.map((o) => o.id),
    ['tx-5', 'deletions-11', 'objects-11'],
  );
  t.same(
    skipped.map((o) => o.id),
    ['objects-5', 'accounts-10', 'nfts-3'],
  );
  t.equal(belowWatermark(ops, 0, new Set(['objects'])).skipped.length, 0, 'no watermark: nothing skipped');
});
