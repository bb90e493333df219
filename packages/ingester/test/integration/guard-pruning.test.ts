import t from 'tap';
import { createLogger, indexName } from '@xle/core';
import { normalizeLedger, stateChanges, type Json, type LedgerInput } from '@xle/documents';
import { IngestEngine, ingestLedgers, pruneGuards, WATERMARK_ID, type HistoryWatermark } from '../../src/index.js';
import {
  createTestIndices,
  indexContent,
  listFixtureLedgers,
  readFixture,
  shuffled,
  syntheticLedgers,
  type TestIndices,
} from '@xle/test-helpers';

// Deletion guards do not accumulate for ever: once the indexed history runs without a gap from the
// network's first ledger, the guards behind that point are pruned (after a delay), and a replay of
// that history, in any order, writes its transactions again but never brings back a deleted entry
// nor an older state. Checked against one run in ledger order without any pruning.

const logger = createLogger('guard-pruning-test', 'silent');
const templates = listFixtureLedgers().map((file) => normalizeLedger(readFixture<Json>(file)));
// Consecutive ledgers (a contiguous history), whose offers and directories are created and deleted.
const ledgers: LedgerInput[] = [...syntheticLedgers(templates, { transactions: 1500, hashed: false, perLedger: 30 })];
const first = (ledgers[0] as LedgerInput).ledger_index;
const half = ledgers.slice(0, 25);
const middle = (half.at(-1) as LedgerInput).ledger_index;
const last = (ledgers.at(-1) as LedgerInput).ledger_index;
const HOUR = 3_600_000;

/** Entries deleted in the data after an older state of theirs: what a replay without guards would bring back. */
function resurrectable(): number {
  const written = new Set<string>();
  let count = 0;
  for (const ledger of ledgers)
    for (const tx of ledger.transactions)
      for (const change of stateChanges(tx, ledger.ledger_index).objects)
        if (change.doc.deleted !== true) written.add(change.id);
        else if (written.has(change.id)) count += 1;
  return count;
}

async function state(target: TestIndices) {
  return {
    objects: await indexContent(target.client, indexName(target.naming, 'objects')),
    accounts: await indexContent(target.client, indexName(target.naming, 'accounts')),
    nfts: await indexContent(target.client, indexName(target.naming, 'nfts')),
    transactions: await indexContent(target.client, indexName(target.naming, 'transactions')),
  };
}

async function guardsAtOrBelow(target: TestIndices, ledger: number): Promise<number> {
  const index = indexName(target.naming, 'deletions');
  await target.client.indices.refresh({ index });
  return (await target.client.count({ index, query: { range: { ledger_index: { lte: ledger } } } })).count;
}

t.test('guards behind the watermark are pruned after the delay; a replay changes no state', async (t) => {
  t.ok(resurrectable() > 20, `the data deletes ${resurrectable()} entries after an older state of theirs`);
  const reference = await createTestIndices(t);
  await ingestLedgers(ledgers, new IngestEngine(reference.client, reference.naming, logger));
  const expected = await state(reference);
  const totalGuards = await guardsAtOrBelow(reference, last);
  t.ok(totalGuards > 2000, `${totalGuards} guards without pruning`);

  const target = await createTestIndices(t);
  const engine = new IngestEngine(target.client, target.naming, logger);
  const t0 = Date.parse('2026-01-01T00:00:00Z');

  // Nothing is pruned while the history does not reach back to the first ledger.
  await ingestLedgers(half.slice(1), engine);
  const early = await pruneGuards(engine, { historyStart: first, now: t0 });
  t.same(early, { pruned: 0 }, 'no contiguous history from the first ledger: no watermark');

  await ingestLedgers(half.slice(0, 1), engine);
  const published = await pruneGuards(engine, { historyStart: first, now: t0 });
  t.match(published, { contiguousTo: middle, watermark: middle, pruned: 0 }, 'the watermark is published');
  t.equal(published.dueAt, new Date(t0 + HOUR).toISOString(), 'its guards are pruned an hour later');
  const beforeDelay = await pruneGuards(engine, { historyStart: first, now: t0 + HOUR - 1 });
  t.equal(beforeDelay.pruned, 0, 'not before the delay');
  t.ok((await guardsAtOrBelow(target, middle)) > 500, 'the guards are still there');

  // The rest of the history, written after the watermark was published.
  await ingestLedgers(ledgers.slice(25), engine);
  const pruned = await pruneGuards(engine, { historyStart: first, now: t0 + HOUR });
  t.ok(pruned.pruned > 500, `${pruned.pruned} guards pruned through ledger ${middle}`);
  t.match(pruned, { prunedThrough: middle, watermark: last, contiguousTo: last });
  t.equal(await guardsAtOrBelow(target, middle), 0, 'no guard left at or below the first watermark');
  t.ok((await guardsAtOrBelow(target, last)) > 0, 'the guards above it wait for their own delay');
  const all = await pruneGuards(engine, { historyStart: first, now: t0 + 2 * HOUR + 1 });
  t.equal(all.prunedThrough, last);
  t.equal(await guardsAtOrBelow(target, last), 0, 'every guard of a history without gaps is pruned');
  const recorded = await engine.get<HistoryWatermark>('ingest-state', WATERMARK_ID);
  t.match(recorded, { kind: 'watermark', ledger_index: last, pruned_through: last });
  t.same(await state(target), expected, 'the state and transactions of one run without pruning');

  // A replay of the whole history, in two orders, with a lost transaction and a lost activation.
  const tx = (ledgers[3] as LedgerInput).transactions[0] as Json;
  const found = await target.client.search({
    index: indexName(target.naming, 'transactions'),
    query: { ids: { values: [String(tx.hash)] } },
  });
  const range = found.hits.hits[0]?._index as string;
  await target.client.delete({ index: range, id: String(tx.hash), refresh: true });
  const created = ledgers
    .flatMap((ledger) =>
      ledger.transactions.flatMap((one) => stateChanges(one, ledger.ledger_index).accounts.filter((c) => c.activation)),
    )
    .at(0);
  t.ok(created !== undefined, 'an account is created in the data');
  const accounts = indexName(target.naming, 'accounts');
  const held = await target.client.get<Json>({ index: accounts, id: String(created?.id) });
  const { parent: _parent, initial_balance: _balance, inception: _inception, ...bare } = held._source as Json;
  await target.client.index({
    index: accounts,
    id: held._id,
    document: bare,
    version: held._version as number,
    version_type: 'external_gte',
    refresh: true,
  });
  // Long after the deletions, the engine itself no longer remembers them (`index.gc_deletes`, 5
  // minutes on objects): only the watermark keeps their older states out. Made so here.
  const objects = indexName(target.naming, 'objects');
  await target.client.indices.putSettings({ index: objects, settings: { index: { gc_deletes: '0s' } } });
  await target.client.indices.flush({ index: objects });
  await target.client.indices.refresh({ index: objects });
  for (const seed of [11, 424242])
    await ingestLedgers(shuffled(ledgers, seed), new IngestEngine(target.client, target.naming, logger));
  t.same(
    await state(target),
    expected,
    'no deleted entry back, no older state, the lost transaction and activation back',
  );
  t.equal(await guardsAtOrBelow(target, last), 0, 'the replay wrote no guard behind the watermark');
});
