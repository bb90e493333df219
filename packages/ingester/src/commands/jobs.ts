import { createProgress, defineCommand, historyStart, type Command } from '@xle/core';
import { JOB_NAMES, runJob, type JobName } from '../jobs/run.js';
import type { IngestEngine } from '../engine/ingest-engine.js';
import { pruneGuards } from '../pipeline/watermark.js';
import { tokensJobOptions, withIngestEngine } from './context.js';

/** Runs jobs in order, each with its progress; prints what each wrote. */
function runJobs(names: readonly JobName[], refresh: readonly string[], full: boolean): Promise<number> {
  return withIngestEngine(async ({ engine, config, logger }) => {
    const tokens = tokensJobOptions(config, refresh);
    for (const name of names) {
      const progress = createProgress({ logger, label: name, total: 4, unit: 'steps', format: '{step}' });
      const status = await runJob({ engine, onStep: (step, done) => progress.update(done, { step }) }, name, tokens, {
        full,
      });
      progress.stop();
      const changed = status.detail?.changed_ledgers;
      const how = typeof changed === 'number' ? `incremental: ${changed} ledgers new since the last run` : 'full run';
      console.log(
        `${name}: ${status.documents} documents as of ledger ${status.ledger_index} (${status.removed} stale removed; ${how})`,
      );
    }
    if (names.length === JOB_NAMES.length) await pruneStep(engine, historyStart(config));
    return 0;
  });
}

/** The pruner of deletion guards behind the history watermark (pipeline/watermark.ts), with what it did. */
async function pruneStep(engine: IngestEngine, start: number | undefined): Promise<void> {
  if (start === undefined) {
    console.log('guards: not pruned (XRPL_HISTORY_START is not set for this network)');
    return;
  }
  const result = await pruneGuards(engine, { historyStart: start });
  const done =
    result.prunedThrough === undefined ? '' : `${result.pruned} pruned through ledger ${result.prunedThrough}; `;
  const history =
    result.contiguousTo === undefined
      ? `the indexed history does not reach back to ledger ${start} yet, nothing to prune`
      : `history contiguous ${start}-${result.contiguousTo}, watermark ${result.watermark}` +
        (result.dueAt === undefined ? '' : `, its guards pruned from ${result.dueAt}`);
  console.log(`guards: ${done}${history}`);
}

const fullOption = { full: { type: 'boolean' } } as const;
const refreshOption = { 'refresh-toml': { type: 'string', multiple: true }, ...fullOption } as const;

/**
 * `jobs` runs every derived-data job in order; each job also has a command of its own. A job is
 * idempotent: a re-run, or a run after a kill, ends in the same index.
 */
export const jobCommands: Command[] = [
  defineCommand({
    usage: 'jobs [--refresh-toml DOMAIN|all]... [--full]',
    summary:
      `run every derived-data job: ${JOB_NAMES.join(', ')}, in that order; each reads only what changed\n` +
      'since its last run where it can (--full: everything); then prune the deletion guards behind the\n' +
      'history watermark',
    options: refreshOption,
    run: ({ values }) => runJobs(JOB_NAMES, values['refresh-toml'] ?? [], values.full === true),
  }),
  ...JOB_NAMES.map((name) =>
    defineCommand({
      usage: name === 'tokens' ? 'tokens [--refresh-toml DOMAIN|all]... [--full]' : `${name} [--full]`,
      summary:
        name === 'tokens'
          ? "compute the tokens data set; issuers' xrp-ledger.toml come from TOML_DIR, else HTTPS, and are\nfetched again after TOML_MAX_AGE_HOURS, or now with --refresh-toml"
          : `compute the ${name} data set from the indexed ledgers`,
      options: name === 'tokens' ? refreshOption : fullOption,
      run: ({ values }) =>
        runJobs(
          [name],
          ((values as Record<string, unknown>)['refresh-toml'] as string[] | undefined) ?? [],
          values.full === true,
        ),
    }),
  ),
];
