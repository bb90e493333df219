import t from 'tap';
import type { estypes } from '@elastic/elasticsearch';
import { indexName, ReadEngine } from '@xle/core';
import { createTestIndices, type TestIndices } from '@xle/test-helpers';
import { Engine } from '../../src/engine.js';
import { LABEL_TTL_MS, labelBook, lookupLabels } from '../../src/enrich/labels.js';

/** The real read engine, counting the requests it sends. */
class CountingReads extends ReadEngine {
  lookups: string[][] = [];
  searches = 0;
  override async mget<T>(index: string, ids: readonly string[]): Promise<Map<string, T>> {
    this.lookups.push([...ids]);
    return super.mget<T>(index, ids);
  }
  override async search<T>(request: estypes.SearchRequest, options = {}): Promise<estypes.SearchResponse<T>> {
    this.searches += 1;
    return super.search<T>(request, options);
  }
}

const LABELLED = 'rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw';
const PLAIN = 'rvYAfWj5gh67oV6fW32ZzP3Aw4Eubs59B';
const OTHER = 'rP5J7x4HyHKQUUfrfzvuq28iLwiKPf7yv5';

async function writeLabel(target: TestIndices, account: string, name: string): Promise<void> {
  await target.client.index({
    index: indexName(target.naming, 'names'),
    id: account,
    document: { account, name, verified: true, source: 'test', version: name, updated_at: new Date().toISOString() },
    refresh: 'wait_for',
  });
}

t.test('labels: the whole names index in memory, read again only when an import changed it', async (t) => {
  const target = await createTestIndices(t);
  await writeLabel(target, LABELLED, 'Sender');
  const reads = new CountingReads(target.client);
  const engine = new Engine(reads, target.naming);
  let clock = 0;
  const book = labelBook(engine, { now: () => clock });
  const first = await lookupLabels(engine, [LABELLED, PLAIN, LABELLED, undefined]);
  t.same(first.get(LABELLED), { account: LABELLED, name: 'Sender', verified: true });
  t.notOk(first.has(PLAIN));
  t.same(reads.lookups, [], 'no lookup by id');
  t.equal(reads.searches, 2, 'the first answer waits for the book: its fingerprint, then one page');
  await lookupLabels(engine, [LABELLED, PLAIN, OTHER]);
  t.equal(reads.searches, 2, 'within LABEL_TTL_MS, answers cost no engine request');

  await writeLabel(target, OTHER, 'Other');
  clock += LABEL_TTL_MS;
  const during = await lookupLabels(engine, [OTHER]);
  t.notOk(during.has(OTHER), 'the request that starts a check is answered from the book it has');
  await book.settled();
  t.equal(reads.searches, 4, 'the changed fingerprint, then the names read again');
  t.same((await lookupLabels(engine, [OTHER])).get(OTHER), { account: OTHER, name: 'Other', verified: true });

  clock += LABEL_TTL_MS;
  await lookupLabels(engine, [OTHER]);
  await book.settled();
  t.equal(reads.searches, 5, 'unchanged: only the fingerprint is read');
  t.same(reads.lookups, []);
});

t.test('labels past the book’s cap: one batched lookup per answer, found or not cached', async (t) => {
  const target = await createTestIndices(t);
  await writeLabel(target, LABELLED, 'Sender');
  await writeLabel(target, OTHER, 'Other');
  const reads = new CountingReads(target.client);
  const engine = new Engine(reads, target.naming);
  labelBook(engine, { max: 1 });
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
