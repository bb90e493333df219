import t from 'tap';
import { createLogger, indexName } from '@xle/core';
import { normalizeLedger, parseStatePage } from '@xle/documents';
import {
  DEFAULT_SCORE_CONFIG,
  directoryTomlSource,
  IngestEngine,
  ingestLedgers,
  readJobRun,
  runJob,
  seedState,
  subtractRanges,
  type JobName,
} from '../../src/index.js';
import {
  comparableDataSet,
  createTestIndices,
  indexContent,
  listFixtureLedgers,
  makeTomlDir,
  readAllDocuments,
  readFixture,
  transactionLedgers,
  type TestIndices,
} from '@xle/test-helpers';

const logger = createLogger('jobs-incremental-test', 'silent');
const tokens = { toml: directoryTomlSource(makeTomlDir()), tomlMaxAgeMs: 3600_000, score: DEFAULT_SCORE_CONFIG };
const ledgers = listFixtureLedgers()
  .map((file) => normalizeLedger(readFixture(file)))
  .sort((a, b) => a.ledger_index - b.ledger_index);
// The first run sees every other ledger; the second adds the rest: older and newer ledgers alike,
// as a backfill of old ranges beside the live tip does.
// Real EnableAmendment pseudo-transactions (an amendment enabled, one gaining a majority, one
// losing it), each in a ledger of its own at its real index, spread over both halves.
const amendmentLedgers = transactionLedgers((tx) => tx.TransactionType === 'EnableAmendment');
const first = [...ledgers.filter((_, i) => i % 2 === 0), ...amendmentLedgers.filter((_, i) => i % 2 === 0)];
const second = [...ledgers.filter((_, i) => i % 2 === 1), ...amendmentLedgers.filter((_, i) => i % 2 === 1)];
const INCREMENTAL: JobName[] = ['amendments', 'metrics', 'tokens'];

const computed = comparableDataSet;

const engineOf = (target: TestIndices) => new IngestEngine(target.client, target.naming, logger);
const run = (target: TestIndices, name: JobName, full = false) =>
  runJob({ engine: engineOf(target) }, name, tokens, { full });

t.test(
  'amendments, metrics and tokens read only what changed, and end where a full run over everything ends',
  async (t) => {
    const incremental = await createTestIndices(t);
    await ingestLedgers(first, engineOf(incremental));
    for (const name of INCREMENTAL) {
      const status = await run(incremental, name);
      t.equal(status.detail?.incremental, false, `${name}: the first run reads everything`);
    }
    await ingestLedgers(second, engineOf(incremental), { source: 'second' });

    const newDays = new Set(
      second.map((l) => new Date((l.close_time + 946_684_800) * 1000).toISOString().slice(0, 10)),
    );
    const metrics = await run(incremental, 'metrics');
    const added = new Set(second.map((l) => l.ledger_index).filter((n) => !first.some((l) => l.ledger_index === n)));
    t.match(metrics.detail, { incremental: true, changed_ledgers: added.size });
    const written = await readAllDocuments<{ date: string }>(
      incremental.client,
      indexName(incremental.naming, 'metrics'),
    );
    t.ok(written.length > 0);
    // Only the days the new ledgers closed on were recomputed: four records a day at most.
    t.ok(metrics.documents <= newDays.size * 4, `${metrics.documents} records rewritten for ${newDays.size} days`);
    t.ok(metrics.documents >= newDays.size, 'at least the metric record of each new day');
    const tokensRun = await run(incremental, 'tokens');
    t.match(tokensRun.detail, { incremental: true, changed_ledgers: added.size });
    const amendmentsRun = await run(incremental, 'amendments');
    t.match(amendmentsRun.detail, { incremental: true, changed_ledgers: added.size });
    t.equal(
      (amendmentsRun.detail?.enabling as unknown[]).length,
      amendmentLedgers.length,
      'the run keeps every EnableAmendment transaction found so far, old and new',
    );
    t.ok(amendmentLedgers.length >= 3, `${amendmentLedgers.length} EnableAmendment fixtures`);

    // The same ledgers all at once, and a full run of each job.
    const reference = await createTestIndices(t);
    await ingestLedgers([...first, ...second], engineOf(reference));
    for (const name of INCREMENTAL) await run(reference, name, true);
    for (const name of INCREMENTAL)
      t.same(
        await indexContent(incremental.client, indexName(incremental.naming, name), computed),
        await indexContent(reference.client, indexName(reference.naming, name), computed),
        `${name}: incremental runs equal one full run`,
      );

    // Nothing new: nothing to recompute.
    const idle = await run(incremental, 'metrics');
    t.match(idle.detail, { incremental: true, changed_ledgers: 0 });
    t.equal(idle.documents, 0, 'no day rewritten');
    t.equal(idle.removed, 0);
    t.equal(
      (await readAllDocuments(incremental.client, indexName(incremental.naming, 'metrics'))).length,
      written.length,
      'every day kept',
    );
    // --full reads everything again, to the same result.
    const full = await run(incremental, 'metrics', true);
    t.match(full.detail, { incremental: false, changed_ledgers: null });
    t.same(
      await indexContent(incremental.client, indexName(incremental.naming, 'metrics'), computed),
      await indexContent(reference.client, indexName(reference.naming, 'metrics'), computed),
    );
    const recorded = await readJobRun(engineOf(incremental), 'metrics');
    t.ok(Array.isArray(recorded?.detail?.indexed), 'a run records the ledger ranges it saw');

    // State written by a snapshot changes trust lines and objects without a transaction: the next
    // run of each job reads everything again, and the one after is incremental again.
    const page = 'ledger-state/ledger_data-71448944-page.sengelbert.json';
    async function* pages() {
      yield parseStatePage(readFixture(page), page);
    }
    await seedState(pages(), engineOf(incremental));
    for (const name of INCREMENTAL) {
      const afterSeed = await run(incremental, name);
      t.equal(afterSeed.detail?.incremental, false, `${name}: the run after a state snapshot reads everything`);
      const next = await run(incremental, name);
      t.equal(next.detail?.incremental, true, `${name}: the next run is incremental again`);
    }
  },
);

t.test('ranges: what was indexed since, whatever order it came in', async (t) => {
  t.same(subtractRanges([{ from: 1, to: 100 }], [{ from: 1, to: 100 }]), []);
  t.same(subtractRanges([{ from: 1, to: 100 }], []), [{ from: 1, to: 100 }]);
  t.same(
    subtractRanges(
      [
        { from: 1, to: 100 },
        { from: 200, to: 300 },
      ],
      [
        { from: 10, to: 20 },
        { from: 50, to: 250 },
      ],
    ),
    [
      { from: 1, to: 9 },
      { from: 21, to: 49 },
      { from: 251, to: 300 },
    ],
  );
  t.same(subtractRanges([{ from: 5, to: 5 }], [{ from: 1, to: 4 }]), [{ from: 5, to: 5 }]);
});
