import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { createProgress, defineCommand, historyStart, type Command, type Logger } from '@xle/core';
import { JOB_NAMES, runJob, type JobName, type TokensJobOptions } from '../jobs/run.js';
import { JobsLock } from '../jobs/schedule.js';
import type { IngestEngine } from '../engine/ingest-engine.js';
import { pruneGuards } from '../pipeline/watermark.js';
import { tokensJobOptions, withIngestEngine } from './context.js';

/** How often a run waiting for the jobs lock asks again. */
const LOCK_POLL_MS = 2000;

/** Takes the jobs lock, waiting while another run (`live`'s, another operator's) holds it. */
async function takeJobsLock(lock: JobsLock): Promise<void> {
  let told = false;
  while (!(await lock.acquire())) {
    const holder = await lock.holder();
    if (!told && holder !== undefined) {
      console.log(
        `waiting for the jobs run of ${holder.owner} to end (held until ${new Date(holder.expiresAt).toISOString()})`,
      );
      told = true;
    }
    await sleep(LOCK_POLL_MS);
  }
}

/** Runs jobs in order, each with its progress, under the jobs lock; prints what each wrote. */
function runJobs(names: readonly JobName[], refresh: readonly string[], full: boolean): Promise<number> {
  return withIngestEngine(async ({ engine, config, logger }) => {
    const tokens = tokensJobOptions(config, refresh);
    const lock = new JobsLock(engine, `jobs-${hostname()}-${process.pid}`);
    await takeJobsLock(lock);
    try {
      await runEach(engine, names, tokens, logger, full);
    } finally {
      await lock.release();
    }
    if (names.length === JOB_NAMES.length) await pruneStep(engine, historyStart(config));
    return 0;
  });
}

/** Each job in order, with its progress and what it wrote. */
async function runEach(
  engine: IngestEngine,
  names: readonly JobName[],
  tokens: TokensJobOptions,
  logger: Logger,
  full: boolean,
): Promise<void> {
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
