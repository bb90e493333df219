import { createProgress, defineCommand, type Command } from '@xle/core';
import { JOB_NAMES, runJob, type JobName } from '../jobs/run.js';
import { tokensJobOptions, withIngestEngine } from './context.js';

/** Runs jobs in order, each with its progress; prints what each wrote. */
function runJobs(names: readonly JobName[], refresh: readonly string[], full: boolean): Promise<number> {
  return withIngestEngine(async ({ engine, config, logger }) => {
    const tokens = tokensJobOptions(config, refresh);
    for (const name of names) {
      const progress = createProgress({ logger, label: name, total: 4, format: '{step}' });
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
    return 0;
  });
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
      'since its last run where it can (--full: everything)',
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
