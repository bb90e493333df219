import t from 'tap';
import { normalizeLedger, type Json, type LedgerInput } from '@xle/documents';
import { listFixtureLedgers, readFixture, syntheticLedgers } from '@xle/test-helpers';

// bench:scale times the derived jobs while the history grows, on a ledger state that levels off as
// mainnet's does (objectSlots). The state is counted here from the generated metadata alone, as
// the ingester keeps it: an entry lives from the node that creates or modifies it to the node that
// deletes it.

const templates: LedgerInput[] = listFixtureLedgers().map((file) => normalizeLedger(readFixture<Json>(file)));
const MARKS = [25_000, 50_000, 100_000];

/** Live entries other than AccountRoots after each of MARKS transactions. */
function liveState(objectSlots?: number): number[] {
  const live = new Set<string>();
  const sizes: number[] = [];
  let made = 0;
  const set = syntheticLedgers(templates, {
    transactions: MARKS[MARKS.length - 1] as number,
    hashed: false,
    perLedger: 30,
    ...(objectSlots === undefined ? {} : { objectSlots }),
  });
  for (const ledger of set)
    for (const tx of ledger.transactions) {
      for (const node of ((tx.metaData as Json).AffectedNodes ?? []) as Json[]) {
        const [kind, inner] = Object.entries(node)[0] as [string, Json];
        if (inner.LedgerEntryType === 'AccountRoot') continue;
        if (kind === 'DeletedNode') live.delete(inner.LedgerIndex as string);
        else live.add(inner.LedgerIndex as string);
      }
      made += 1;
      if (made === MARKS[sizes.length]) sizes.push(live.size);
    }
  return sizes;
}

t.test('unbounded, the generated state grows with the history', async (t) => {
  const [first, , last] = liveState();
  t.ok((last as number) > 3 * (first as number), `${first} entries at ${MARKS[0]}, ${last} at ${MARKS[2]}`);
});

t.test('with objectSlots, it levels off: four times the history, at most a quarter more state', async (t) => {
  const bounded = liveState(8);
  const unbounded = liveState();
  const [first, second, last] = bounded as [number, number, number];
  t.ok(last <= first * 1.25, `${first} entries at ${MARKS[0]}, ${last} at ${MARKS[2]}`);
  t.ok(last - second <= second - first, 'each doubling adds no more than the one before');
  t.ok(last < (unbounded[2] as number) / 2, 'far below the unbounded state');
});

t.test('the same options make the same ledgers', async (t) => {
  const ids = (): string[] =>
    [...syntheticLedgers(templates, { transactions: 2_000, hashed: false, objectSlots: 8 })].flatMap((l) =>
      l.transactions.flatMap((tx) =>
        (((tx.metaData as Json).AffectedNodes ?? []) as Json[]).map(
          (node) => (Object.values(node)[0] as Json).LedgerIndex as string,
        ),
      ),
    );
  t.same(ids(), ids());
});
