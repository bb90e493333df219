import t from 'tap';
import {
  applyTemplates,
  createLogger,
  indexName,
  rangeAlias,
  rangeIndexOf,
  rangeIndices,
  type RangedKind,
} from '@xle/core';
import { normalizeLedger } from '@xle/documents';
import { IngestEngine, ingestLedgers } from '../../src/index.js';
import { createTestIndices, indexContent, listFixtureLedgers, readFixture } from '@xle/test-helpers';

const logger = createLogger('ranges-test', 'silent');
const ledgers = listFixtureLedgers().map((file) => normalizeLedger(readFixture(file)));
const NEWEST = Math.max(...ledgers.map((l) => l.ledger_index));

t.test('history is written to one index per ledger range, read through one alias per kind', async (t) => {
  const target = await createTestIndices(t, { es: { shards: 2, replicas: 0 } });
  const engine = new IngestEngine(target.client, target.naming, logger, { shards: 2, stateShards: 1, replicas: 0 });
  await engine.applyTemplates();
  await ingestLedgers(ledgers, engine);
  const starts = [...new Set(ledgers.map((l) => Math.floor(l.ledger_index / 1_000_000)))];
  for (const kind of ['transactions', 'ledgers'] as RangedKind[]) {
    const indices = await rangeIndices(target.client, target.naming, kind);
    // Every range the fixtures fall in, plus the first range that `templates apply` creates.
    t.equal(indices.length, new Set([0, ...starts]).size, `${kind}: ${indices.length} range indices`);
    t.ok(
      indices.every((i) => /-\d{10}-g1$/.test(i)),
      'named <alias>-<first ledger>-g<generation>',
    );
    const settings = await target.client.indices.getSettings({ index: indices[1] as string });
    t.match(Object.values(settings)[0]?.settings?.index, { number_of_shards: '2', number_of_replicas: '0' });
  }
  const alias = indexName(target.naming, 'transactions');
  const total = (await target.client.count({ index: alias })).count;
  let sum = 0;
  for (const index of await rangeIndices(target.client, target.naming, 'transactions'))
    sum += (await target.client.count({ index })).count;
  t.ok(total > 1000 && total === sum, `the kind alias reads every range (${total} transactions)`);
  const newest = rangeAlias(target.naming, 'ledgers', NEWEST);
  t.equal(
    (await target.client.get({ index: newest, id: String(NEWEST) }))._id,
    String(NEWEST),
    'a document by id through its range alias',
  );
  // A write always names a range alias with `require_alias`: a missing range is refused, never
  // auto-created as a bare index without its mappings.
  const stray = await target.client.index(
    { index: `${alias}-0099000000`, id: 'x', document: { hash: 'x' }, require_alias: true },
    { ignore: [404] },
  );
  t.match(stray, { status: 404 }, 'a range alias that does not exist is refused');
  t.equal(await rangeIndexOf(target.client, target.naming, 'transactions', 99_000_000), undefined);
});

t.test('a range rebuilt into its next generation and swapped in without downtime', async (t) => {
  const target = await createTestIndices(t);
  const engine = new IngestEngine(target.client, target.naming, logger);
  await ingestLedgers(ledgers, engine);
  const alias = indexName(target.naming, 'transactions');
  const before = await indexContent(target.client, alias);
  const old = await rangeIndexOf(target.client, target.naming, 'transactions', NEWEST);
  t.match(old, /-g1$/);

  // Readers during the rebuild: every answer counts every transaction.
  let reading = true;
  const counts: number[] = [];
  const readers = (async () => {
    while (reading) counts.push((await target.client.count({ index: alias })).count);
  })();
  // A transaction written to the range while it is being copied: caught up after the swap.
  const late = { hash: 'F'.repeat(64), ledger_index: NEWEST, TransactionType: 'Payment' };
  let wrote = false;
  const result = await engine.rebuildRange('transactions', NEWEST, async () => {
    if (wrote) return;
    wrote = true;
    await target.client.index({
      index: rangeAlias(target.naming, 'transactions', NEWEST),
      id: late.hash,
      document: late,
      refresh: true,
    });
  });
  reading = false;
  await readers;
  t.match(result, { from: old, to: /-g2$/ });
  t.ok(result.caughtUp >= 1, `${result.caughtUp} written meanwhile, caught up`);
  t.ok(counts.length > 0 && counts.every((c) => c >= before.count), `${counts.length} reads, none partial`);
  t.equal(await rangeIndexOf(target.client, target.naming, 'transactions', NEWEST), result.to, 'the range alias moved');
  t.notOk(await target.client.indices.exists({ index: old as string }), 'the old generation is deleted');
  const after = (await target.client.get({ index: rangeAlias(target.naming, 'transactions', NEWEST), id: late.hash }))
    ._source;
  t.same(after, late, 'the late write survived the swap');
  await target.client.delete({ index: result.to, id: late.hash, refresh: true });
  t.same(await indexContent(target.client, alias), before, 'the same documents, through the same alias');
  // The next templates apply checks the new generation like any range.
  const applied = await applyTemplates(target.client, target.naming);
  t.ok(
    applied.changes.some((c) => c.name === result.to && c.action === 'unchanged'),
    'the rebuilt index is known to the template check',
  );
});

t.test('an index from before range indices is reported stale, and replaced on request', async (t) => {
  const target = await createTestIndices(t);
  const alias = indexName(target.naming, 'validations');
  // The old layout: one index under the kind's own name.
  const ranges = await rangeIndices(target.client, target.naming, 'validations');
  await target.client.indices.delete({ index: ranges });
  await target.client.indices.create({ index: alias });
  const stale = await applyTemplates(target.client, target.naming);
  t.match(
    stale.changes.find((c) => c.type === 'index' && c.name === alias),
    { action: 'stale', detail: /before range indices/ },
  );
  const replaced = await applyTemplates(target.client, target.naming, { recreateStale: true });
  t.match(
    replaced.changes.find((c) => c.type === 'index' && c.name === alias),
    { action: 'updated', detail: /replaced by range indices/ },
  );
  t.equal((await rangeIndices(target.client, target.naming, 'validations')).length, 1);
  t.ok(await target.client.indices.existsAlias({ name: alias }), 'the kind name is an alias again');
});
