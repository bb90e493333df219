import t from 'tap';
import { createLogger, indexName } from '@xle/core';
import { normalizeLedger } from '@xle/documents';
import { createTestIndices, indexContent, listFixtureLedgers, readFixture, runIngestCli } from '@xle/test-helpers';
import { BALANCE_FILL_ID, IngestEngine, ingestLedgers } from '../../src/index.js';

/**
 * The balance-changes data set is written with the transactions; `pnpm ingest balance-changes`
 * builds it for transactions indexed before it existed: the same documents, resumable range by
 * range, and a second run changes nothing.
 */
const target = await createTestIndices(t);
const engine = new IngestEngine(target.client, target.naming, createLogger('balance-fill-test', 'silent'));
const ledgers = listFixtureLedgers().map((file) => normalizeLedger(readFixture(file)));
await ingestLedgers(ledgers, engine);
const alias = indexName(target.naming, 'balance-changes');
const env = { ES_INDEX_PREFIX: target.naming.prefix };
const refresh = async (): Promise<void> => {
  await target.client.indices.refresh({ index: `${alias}-*`, ignore_unavailable: true, allow_no_indices: true });
};
const dropDataSet = async (): Promise<void> => {
  // By name: wildcard deletes are refused by the engine (action.destructive_requires_name).
  const names = Object.keys(await target.client.indices.get({ index: `${alias}-*`, allow_no_indices: true }));
  if (names.length > 0) await target.client.indices.delete({ index: names });
};

const written = await indexContent(target.client, alias);

t.test('written with the transactions, in the ranges of their ledgers', async (t) => {
  t.ok(written.count >= 3000, `${written.count} balance changes`);
  const ranges = await engine.listRanges('balance-changes');
  t.ok(ranges.length >= 5, `${ranges.length} ranges`);
  const transactions = new Set((await engine.listRanges('transactions')).map((r) => r.alias));
  t.ok(
    ranges.every((r) => transactions.has(r.alias.replace('balance-changes', 'transactions'))),
    'each beside the transactions range of the same ledgers',
  );
});

t.test('`ingest balance-changes` after the data set is gone: the same documents', async (t) => {
  await dropDataSet();
  t.equal(await runIngestCli(['balance-changes'], env), 0, 'exit 0');
  await refresh();
  t.same(await indexContent(target.client, alias), written, 'the same documents as written with the data');
  const record = await target.client.get<{ detail: { done: number[] } }>({
    index: indexName(target.naming, 'ingest-state'),
    id: BALANCE_FILL_ID,
  });
  const ranges = await engine.listRanges('transactions');
  t.equal(record._source?.detail.done.length, ranges.length, 'every range recorded done');
});

t.test('a run stopped half-way resumes after the ranges it finished', async (t) => {
  const ranges = await engine.listRanges('transactions');
  const starts = ranges.map((r) => Number(/-(\d{10})$/.exec(r.alias)?.[1])).sort((a, b) => a - b);
  const finished = starts.slice(0, Math.floor(starts.length / 2));
  await dropDataSet();
  // As a run killed after its first half left it: those ranges recorded done (and their documents
  // written: rewritten here, since the data set was dropped to tell what a second run writes).
  await target.client.index({
    index: indexName(target.naming, 'ingest-state'),
    id: BALANCE_FILL_ID,
    document: { kind: 'fill', detail: { done: finished }, updated_at: new Date().toISOString() },
    refresh: true,
  });
  t.equal(await runIngestCli(['balance-changes'], env), 0, 'exit 0');
  await refresh();
  const second = await target.client.search({
    index: alias,
    size: 0,
    track_total_hits: true,
    query: { range: { ledger_index: { lt: (finished[finished.length - 1] ?? 0) + 1_000_000 } } },
  });
  t.equal((second.hits.total as { value: number }).value, 0, 'the ranges recorded done were skipped');
  // The rest: everything, once.
  await target.client.delete({ index: indexName(target.naming, 'ingest-state'), id: BALANCE_FILL_ID, refresh: true });
  t.equal(await runIngestCli(['balance-changes'], env), 0, 'a full run: exit 0');
  await refresh();
  t.same(await indexContent(target.client, alias), written, 'every document once, none twice');
});
