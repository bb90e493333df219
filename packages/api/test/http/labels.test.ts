import t from 'tap';
import { indexName, ReadEngine } from '@xle/core';
import { createTestIndices } from '@xle/test-helpers';
import { Engine } from '../../src/engine.js';
import { lookupLabels } from '../../src/enrich/labels.js';

/** The real read engine, counting the lookups it sends. */
class CountingReads extends ReadEngine {
  lookups: string[][] = [];
  override async mget<T>(index: string, ids: readonly string[]): Promise<Map<string, T>> {
    this.lookups.push([...ids]);
    return super.mget<T>(index, ids);
  }
}

const LABELLED = 'rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw';
const PLAIN = 'rvYAfWj5gh67oV6fW32ZzP3Aw4Eubs59B';
const OTHER = 'rP5J7x4HyHKQUUfrfzvuq28iLwiKPf7yv5';

t.test('labels: one batched lookup, then answers (found or not) from the cache', async (t) => {
  const target = await createTestIndices(t);
  await target.client.index({
    index: indexName(target.naming, 'names'),
    id: LABELLED,
    document: { account: LABELLED, name: 'Sender', verified: true, source: 'test', version: '1' },
    refresh: 'wait_for',
  });
  const reads = new CountingReads(target.client);
  const engine = new Engine(reads, target.naming);
  const first = await lookupLabels(engine, [LABELLED, PLAIN, LABELLED, undefined]);
  t.same(first.get(LABELLED), { account: LABELLED, name: 'Sender', verified: true });
  t.notOk(first.has(PLAIN));
  t.same(reads.lookups, [[LABELLED, PLAIN]], 'one lookup, duplicates and missing addresses dropped');
  const second = await lookupLabels(engine, [LABELLED, PLAIN, OTHER]);
  t.same(second.get(LABELLED), first.get(LABELLED), 'a cached label');
  t.same(reads.lookups[1], [OTHER], 'only the address not seen before is looked up');
  await lookupLabels(engine, [PLAIN, LABELLED]);
  t.equal(reads.lookups.length, 2, 'an address without a label is cached too');
});
