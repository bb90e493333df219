import type { Client, IndexKind, IndexNaming, Logger } from '@xle/core';
import { DataNotReadyError } from '@xle/core';
import { buildAmendmentDocs, loadKnownAmendments, readAmendmentSources, readAmendmentVotes } from './amendments.js';
import { buildBalanceDocs, readTopBalances } from './balances.js';
import { readAsOf, recordJobRun, replaceDataSet, type AsOf, type DataSetDocument, type JobStatus } from './data-set.js';
import { buildFactDocs, readFactInputs } from './facts.js';
import { buildMetricDocs, readDailyInputs } from './metrics.js';
import type { ScoreConfig } from './token-score.js';
import type { TomlSource } from './toml.js';
import { buildTokenDocs, readTokenInputs } from './tokens.js';

export interface JobContext {
  client: Client;
  naming: IndexNaming;
  logger: Logger;
  /** Called as each step of the job starts (the CLI's progress bar). */
  onStep?: (step: string, done: number, of: number) => void;
  /** The tokens job's settings (the CLI builds them from the configuration). */
  tokens: TokensJobOptions;
}

export interface TokensJobOptions {
  toml: TomlSource;
  /** A domain's toml result older than this is fetched again. */
  tomlMaxAgeMs: number;
  /** Domains whose toml is fetched now whatever its age (`all`: every domain). */
  refresh?: 'all' | ReadonlySet<string>;
  score: ScoreConfig;
  now?: () => Date;
}

interface JobSpec {
  /** The index the job's data set lives in; the job owns all of it. */
  kind: IndexKind;
  compute: (ctx: JobContext, asOf: AsOf) => Promise<DataSetDocument[]>;
}

/**
 * The derived data sets. Each job reads the indexed ledgers (as of the newest one), computes its
 * whole data set with deterministic ids, and replaces its index's content with it; running it
 * again, or again after a kill, ends in the same indices.
 */
export const JOBS = {
  amendments: {
    kind: 'amendments',
    compute: async ({ client, naming }, asOf) => {
      const { transactions, entry } = await readAmendmentSources(client, naming);
      const votes = await readAmendmentVotes(client, naming);
      return buildAmendmentDocs(loadKnownAmendments(), transactions, entry, asOf, votes);
    },
  },
  facts: {
    kind: 'facts',
    compute: async ({ client, naming }, asOf) => buildFactDocs(await readFactInputs(client, naming, asOf), asOf),
  },
  metrics: {
    kind: 'metrics',
    compute: async ({ client, naming }, asOf) => buildMetricDocs(await readDailyInputs(client, naming), asOf),
  },
  balances: {
    kind: 'balances',
    compute: async ({ client, naming }, asOf) => buildBalanceDocs(await readTopBalances(client, naming), asOf),
  },
  tokens: {
    kind: 'tokens',
    compute: async ({ client, naming, logger, tokens: options }, asOf) => {
      const inputs = await readTokenInputs(client, naming, asOf, {
        source: options.toml,
        maxAgeMs: options.tomlMaxAgeMs,
        ...(options.refresh === undefined ? {} : { refresh: options.refresh }),
        ...(options.now === undefined ? {} : { now: options.now }),
        logger,
      });
      return buildTokenDocs(inputs, asOf, options.score);
    },
  },
} satisfies Record<string, JobSpec>;

export type JobName = keyof typeof JOBS;
export const JOB_NAMES = Object.keys(JOBS) as JobName[];

export function isJobName(name: string | undefined): name is JobName {
  return name !== undefined && Object.hasOwn(JOBS, name);
}

/** Runs one job to completion and records the run; nothing indexed yet is a DATA_NOT_READY. */
export async function runJob(ctx: JobContext, name: JobName): Promise<JobStatus> {
  const job: JobSpec = JOBS[name];
  const started = Date.now();
  ctx.onStep?.('reading the newest indexed ledger', 0, 3);
  const asOf = await readAsOf(ctx.client, ctx.naming);
  if (asOf === undefined) throw new DataNotReadyError(`the ${name} job: no ledger is indexed yet`);
  ctx.onStep?.(`computing ${name} as of ledger ${asOf.ledger_index}`, 1, 3);
  const documents = await job.compute(ctx, asOf);
  ctx.onStep?.(`writing ${documents.length} documents`, 2, 3);
  const { written, removed } = await replaceDataSet(ctx.client, ctx.naming, job.kind, documents);
  const status = await recordJobRun(ctx.client, ctx.naming, {
    job: name,
    ledger_index: asOf.ledger_index,
    documents: written,
    removed,
    detail: { millis: Date.now() - started, as_of: asOf.close_time },
  });
  ctx.onStep?.('done', 3, 3);
  ctx.logger.info({ job: name, ledger: asOf.ledger_index, documents: written, removed }, 'job complete');
  return status;
}
