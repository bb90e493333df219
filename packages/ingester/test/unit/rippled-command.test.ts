import t from 'tap';
import type { WorkerTotals } from '../../src/index.js';
import { reportBackfill } from '../../src/commands/rippled.js';

const worker = (over: Partial<WorkerTotals>): WorkerTotals => ({
  owner: 'h-1',
  chunks: 2,
  takeovers: 0,
  ledgers: 20,
  documents: 200,
  deadLetters: 0,
  lost: 0,
  gaps: 0,
  filled: 0,
  finished: true,
  cancelled: false,
  ...over,
});

t.test("a backfill's summary names each failed worker, and its exit code says how it ended", async (t) => {
  t.equal(reportBackfill([worker({}), worker({ owner: 'h-2' })]).exitCode, 0, 'every ledger written');
  const failed = reportBackfill([worker({}), worker({ owner: 'h-2', finished: false, error: 'engine gone' })]);
  t.equal(failed.exitCode, 1);
  t.match(failed.lines, ['indexed 40 ledgers, 400 documents', 'worker h-2 failed: engine gone']);
  const gaps = reportBackfill([worker({ gaps: 3, filled: 1 })]);
  t.equal(gaps.exitCode, 1, 'ledgers left as gaps');
  t.match(gaps.lines[0], '3 ledgers left as gaps, 1 gap ledgers filled');
  t.match(gaps.lines[1], 'run the same backfill again');
  t.equal(reportBackfill([worker({ finished: false })]).exitCode, 130, 'stopped by a signal');
  t.equal(reportBackfill([worker({ finished: false, cancelled: true })]).exitCode, 1, 'cancelled');
  t.equal(reportBackfill([worker({ deadLetters: 1 })]).exitCode, 1, 'dead letters');
});
