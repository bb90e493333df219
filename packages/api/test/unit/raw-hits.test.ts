import t from 'tap';
import { lineWithMember, readRawHits } from '@xle/core';
import { fixtureLedgers } from '@xle/test-loaded';
import { transformTransaction } from '@xle/documents';

/** Real transaction documents, as the ingester indexes them. */
const docs = fixtureLedgers()
  .slice(0, 3)
  .flatMap((l) =>
    l.transactions.map((tx) =>
      transformTransaction(tx, { ledgerIndex: l.ledger_index, closeTime: l.close_time, networkId: 0 }),
    ),
  );

/** Text that would trip a scanner that does not know strings: braces, quotes, escapes, non-ASCII. */
const tricky = {
  memo: 'a } b { c ] [ "quoted" \\ back\\slash \\" still inside',
  emoji: '🪙 XRP → ✓',
  empty: {},
  list: [[], [{}]],
};

const answer = (sources: unknown[], indent?: number): Buffer =>
  Buffer.from(
    JSON.stringify(
      {
        pit_id: 'AbC==',
        _shards: { failed: 0 },
        hits: { hits: sources.map((s, i) => ({ _source: s, sort: [90_000_000 + i, `k"${i}`] })) },
      },
      null,
      indent,
    ),
  );

t.test('each hit’s _source bytes and sort values, compact or pretty-printed', async (t) => {
  const sources = [...docs.slice(0, 50), tricky, {}];
  for (const indent of [undefined, 2]) {
    const read = readRawHits(answer(sources, indent));
    t.equal(read.pitId, 'AbC==');
    t.equal(read.failedShards, 0);
    t.equal(read.hits.length, sources.length);
    read.hits.forEach((hit, i) => {
      t.same(JSON.parse(hit.source.toString('utf8')), sources[i], `hit ${i}: its source`);
      t.same(hit.sort, [90_000_000 + i, `k"${i}`]);
    });
  }
  t.same(readRawHits(Buffer.from('{"hits":{"hits":[]}}')).hits, []);
  t.same(readRawHits(Buffer.from('{"_shards":{"failed":2},"hits":{"hits":[]}}')).failedShards, 2);
});

t.test('a line: the source as it was, one member appended', async (t) => {
  for (const source of [docs[0], tricky, {}]) {
    for (const indent of [undefined, 2]) {
      const bytes = Buffer.from(JSON.stringify(source, null, indent));
      const line = lineWithMember(bytes, '_cursor', JSON.stringify('c1'));
      t.ok(line.toString('utf8').endsWith('}\n'), 'one line');
      if (indent === undefined) {
        const text = line.toString('utf8');
        t.equal(text.indexOf('\n'), text.length - 1, 'no newline inside');
      }
      t.same(JSON.parse(line.toString('utf8')), { ...source, _cursor: 'c1' });
    }
  }
  // Numbers beyond 2^53 keep their digits: nothing is parsed.
  const big = Buffer.from('{"total_coins":99986441776131104123}');
  t.equal(lineWithMember(big, '_cursor', '"x"').toString(), '{"total_coins":99986441776131104123,"_cursor":"x"}\n');
});

t.test('what is not the expected answer is refused, not misread', async (t) => {
  for (const bad of [
    '',
    '[]',
    '{"hits":{"hits":[{"sort":[1]}]}}',
    '{"hits":{"hits":[{"_source":{"a":"b}]}}',
    '{"hits":{"hits":[{"_source":{}}',
  ])
    t.throws(() => readRawHits(Buffer.from(bad)), /not the search answer expected/, JSON.stringify(bad));
});

t.test('a source that is no object is refused', async (t) => {
  t.throws(() => lineWithMember(Buffer.from('null'), '_cursor', '"x"'), /not an object/);
});
