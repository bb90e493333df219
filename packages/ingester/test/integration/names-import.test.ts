import t from 'tap';
import { createLogger, indexName } from '@xle/core';
import { importNames, IngestEngine } from '../../src/index.js';
import { createTestIndices } from '@xle/test-helpers';

t.test('an import replaces its source as a whole, other sources stay', async (t) => {
  const { client, naming } = await createTestIndices(t);
  const engine = new IngestEngine(client, naming, createLogger('names-test', 'silent'));
  const alice = { account: 'rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw', name: 'Alice' };
  const bob = { account: 'rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y', name: 'Bob' };
  const carol = { account: 'rvYAfWj5gh67oV6fW32ZzP3Aw4Eubs59B', name: 'Carol' };
  const first = await importNames(engine, 'list-a', [alice, bob]);
  t.match(first, { written: 2, removed: 0 });
  await importNames(engine, 'list-b', [carol]);
  const again = await importNames(engine, 'list-a', [alice, bob]);
  t.match(again, { version: first.version, removed: 0 }, 'the same file is the same version and changes nothing');
  const smaller = await importNames(engine, 'list-a', [{ ...alice, name: 'Alice Ltd' }]);
  t.match(smaller, { written: 1, removed: 1 });
  const all = await client.search<{ account: string; name: string; source: string }>({
    index: indexName(naming, 'names'),
    size: 10,
    sort: [{ account: 'asc' }],
  });
  t.same(
    all.hits.hits.map((h) => [h._source?.account, h._source?.name, h._source?.source]),
    [
      [alice.account, 'Alice Ltd', 'list-a'],
      [carol.account, 'Carol', 'list-b'],
    ],
  );
});
