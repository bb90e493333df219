import { randomBytes } from 'node:crypto';
import t from 'tap';
import type { estypes } from '@elastic/elasticsearch';
import { createEngineClient, loadConfig, ReadEngine, type CompositePage, type HitPage } from '../../src/index.js';

// The read engine's walkers against the real engine: an index of three shards holding DOCS
// documents, read in pages of PAGE. (Core's tests cannot use the test helpers, which depend on core.)
const DOCS = 2500;
const PAGE = 1000;

if (process.env.ES_URL === undefined) throw new Error('ES_URL is not set: run tests through `pnpm test`.');
const client = createEngineClient(loadConfig({ overrides: { log: { level: 'silent' } } }));
const index = `test-read-${randomBytes(4).toString('hex')}`;
const other = `${index}-other`;
t.teardown(async () => {
  await client.indices.delete({ index: [index, other] }, { ignore: [404] });
  await client.close();
});

const ids = (pages: HitPage<estypes.SearchHit>[]): number[] => pages.flatMap((p) => p.hits.map((h) => Number(h._id)));
const range = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, i) => from + i);
async function collect<P>(walk: AsyncIterable<P>): Promise<P[]> {
  const pages: P[] = [];
  for await (const page of walk) pages.push(page);
  return pages;
}
/** Whether a point in time is still open: a search on it answers (a closed one is a 404). */
async function pitOpen(id: string): Promise<boolean> {
  return client.search({ pit: { id }, size: 0 }).then(
    () => true,
    () => false,
  );
}

t.before(async () => {
  await client.indices.create({
    index,
    settings: { number_of_shards: 3, number_of_replicas: 0 },
    mappings: { properties: { n: { type: 'long' }, group: { type: 'keyword' }, text: { type: 'keyword' } } },
  });
  const operations = range(0, DOCS).flatMap((n) => [
    { index: { _index: index, _id: String(n) } },
    { n, group: `g${String(n).padStart(5, '0')}`, text: `a "quoted" } value ${n}` },
  ]);
  const bulk = await client.bulk({ operations, refresh: true });
  if (bulk.errors) throw new Error('bulk failed');
  // The same field mapped as a date elsewhere: a text range on both fails that index's shards.
  await client.indices.create({
    index: other,
    settings: { number_of_shards: 1, number_of_replicas: 0 },
    mappings: { properties: { text: { type: 'date' } } },
  });
  await client.index({ index: other, id: 'x', document: { text: '2020-01-01' }, refresh: true });
});

const sorted: estypes.SearchRequest = { index, sort: [{ n: 'asc' }] };

t.test('hits: every document once, in order, in pages of the page size, the last page flagged', async (t) => {
  const pages = await collect(new ReadEngine(client).hits(sorted, { pageSize: PAGE }));
  t.same(
    pages.map((p) => [p.hits.length, p.last]),
    [
      [1000, false],
      [1000, false],
      [500, true],
    ],
  );
  t.same(ids(pages), range(0, DOCS));
  t.same(pages[0]?.after, [999], 'after: the sort values of the page’s last hit');
  // Without a sort no page has an `after`: the walk would stop after its first page, silently.
  t.throws(() => new ReadEngine(client).hits({ index }), /needs a sort/, 'a walk without a sort is refused');
  t.throws(() => new ReadEngine(client).rawHits({ index }), /needs a sort/);
});

t.test('hits: a walk resumed after a page reads on from there, and a limit asks only for what is left', async (t) => {
  const read = new ReadEngine(client);
  const resumed = await collect(read.hits(sorted, { pageSize: PAGE, after: [999] }));
  t.same(ids(resumed), range(1000, DOCS));
  const limited = await collect(read.hits(sorted, { pageSize: PAGE, limit: 1500 }));
  t.same(
    limited.map((p) => [p.hits.length, p.last]),
    [
      [1000, false],
      [500, true],
    ],
    'the second page asks for 500',
  );
  t.same(await collect(read.hits(sorted, { limit: 0 })), [], 'a limit of 0 reads nothing');
});

t.test('hits under a point in time: one view while the index changes; closed at the end unless kept', async (t) => {
  const read = new ReadEngine(client);
  const walk = read.hits({ sort: ['_shard_doc'] }, { pit: { index, keepAlive: '1m' }, pageSize: PAGE });
  const first = await walk.next();
  const pitId = (first.value as HitPage<estypes.SearchHit>).pitId as string;
  t.ok(await pitOpen(pitId), 'the walk opened a point in time');
  // A document written after the walk began is not in its view.
  await client.index({ index, id: 'late', document: { n: DOCS, group: 'late', text: 'late' }, refresh: true });
  t.teardown(() => client.delete({ index, id: 'late', refresh: true }).then(() => undefined));
  const rest = await collect({ [Symbol.asyncIterator]: () => walk });
  const seen = [first.value as HitPage<estypes.SearchHit>, ...rest].flatMap((p) => p.hits.map((h) => h._id));
  t.equal(seen.length, DOCS, 'every document of the view, and not the one written since');
  t.notOk(seen.includes('late'));
  t.notOk(await pitOpen(pitId), 'closed at the end of the walk');

  const kept = await collect(read.hits({ sort: ['_shard_doc'] }, { pit: { index, keepAlive: '1m' }, keepPit: true }));
  const keptId = kept.at(-1)?.pitId as string;
  t.ok(await pitOpen(keptId), 'keepPit: left open for its owner');
  // Resumed on the kept point in time, after its first page: the rest of that same view.
  const resumed = await collect(
    read.hits(
      { sort: ['_shard_doc'] },
      { pit: { id: keptId, keepAlive: '1m' }, keepPit: true, pageSize: 700, after: kept[0]?.hits[699]?.sort },
    ),
  );
  t.equal(resumed.flatMap((p) => p.hits).length, DOCS + 1 - 700, 'the kept view holds the late document');
  await read.closePit(keptId);
  t.notOk(await pitOpen(keptId));
});

t.test('a consumer that stops early aborts the page asked ahead, and the point in time closes', async (t) => {
  const read = new ReadEngine(client);
  let asked = 0;
  const counting = new (class extends ReadEngine {
    override search<T>(request: estypes.SearchRequest, options = {}): Promise<estypes.SearchResponse<T>> {
      asked += 1;
      return super.search<T>(request, options);
    }
  })(client);
  let pitId: string | undefined;
  for await (const page of counting.hits(
    { sort: ['_shard_doc'] },
    { pit: { index, keepAlive: '1m' }, prefetch: true },
  )) {
    pitId = page.pitId;
    t.equal(asked, 2, 'the next page was asked before this one was handed over');
    break;
  }
  t.notOk(await pitOpen(pitId as string), 'closed when the consumer stopped');
  // An aborted signal stops the walk with an abort, not a partial result.
  const controller = new AbortController();
  const walk = read.hits(sorted, { pageSize: PAGE, signal: controller.signal });
  await walk.next();
  controller.abort();
  await t.rejects(walk.next(), 'the next page is refused once aborted');
});

t.test('a shard that fails fails the search; partial results only when the request asks for them', async (t) => {
  const read = new ReadEngine(client);
  const failing: estypes.SearchRequest = { index: [index, other], query: { range: { text: { gte: 'a' } } } };
  await t.rejects(read.search(failing), 'no partial answer');
  const partial = await read.search({ ...failing, allow_partial_search_results: true });
  t.ok((partial._shards.failed ?? 0) > 0, 'asked for: the answer says which shards failed');
  t.ok(partial.hits.hits.length > 0, 'and holds the hits of the others');
});

t.test('raw hits: each document as the engine stored it, resumable like hits', async (t) => {
  const read = new ReadEngine(client);
  const pages = await collect(read.rawHits(sorted, { pageSize: PAGE }));
  const docs = pages.flatMap((p) =>
    p.hits.map((h) => JSON.parse(h.source.toString('utf8')) as { n: number; text: string }),
  );
  t.same(
    docs.map((d) => d.n),
    range(0, DOCS),
  );
  t.equal(docs[7]?.text, 'a "quoted" } value 7');
  const resumed = await collect(read.rawHits(sorted, { pageSize: PAGE, after: pages[1]?.after }));
  t.equal(resumed.flatMap((p) => p.hits).length, 500);
});

t.test('buckets: every bucket of a composite once, in pages, resumable from a page’s after', async (t) => {
  const read = new ReadEngine(client);
  const aggs = (page: { size: number; after?: Record<string, estypes.FieldValue> }) => ({
    groups: { composite: { ...page, sources: [{ group: { terms: { field: 'group' } } }] } },
  });
  const locate = (aggregations: Record<string, unknown>) => aggregations.groups as CompositePage | undefined;
  const pages = await collect(read.buckets({ index }, aggs, locate, { pageSize: PAGE, prefetch: true }));
  const keys = pages.flatMap((p) => p.buckets.map((b) => (b.key as { group: string }).group));
  t.equal(keys.length, DOCS);
  t.equal(new Set(keys).size, DOCS, 'no bucket twice');
  t.same(keys, [...keys].sort(), 'in key order');
  t.ok(pages.at(-1)?.last);
  const resumed = await collect(read.buckets({ index }, aggs, locate, { pageSize: PAGE, after: pages[0]?.after }));
  t.equal(resumed.flatMap((p) => p.buckets).length, DOCS - PAGE);
});

t.test('reads by id: absent is undefined; a missing index throws unless the read allows it', async (t) => {
  const read = new ReadEngine(client, { lookupMs: 2000 });
  t.same(await read.get(index, '7'), { n: 7, group: 'g00007', text: 'a "quoted" } value 7' });
  t.equal(await read.get(index, 'nope'), undefined);
  await t.rejects(read.get(`${index}-missing`, '7'), { code: 'INDEX_NOT_FOUND' });
  t.equal(await read.get(`${index}-missing`, '7', { indexMustExist: false }), undefined);
  const found = await read.mget<{ n: number }>(index, ['1', '2', 'nope', '1']);
  t.same([...found.keys()].sort(), ['1', '2']);
  // The cache: a second read of the same ids asks the engine for none of them.
  let asked = 0;
  const counting = new (class extends ReadEngine {
    override mget<T>(i: string, wanted: readonly string[]): Promise<Map<string, T>> {
      asked += wanted.length;
      return super.mget<T>(i, wanted);
    }
  })(client);
  await counting.mgetCached(index, ['1', 'nope'], 60_000);
  await counting.mgetCached(index, ['1', 'nope', '2'], 60_000);
  t.equal(asked, 3, 'only the id not seen before was asked the second time (a miss is cached too)');
});
