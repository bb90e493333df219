import { DataNotReadyError, type IndexKind } from '@xle/core';
import type { IngestEngine } from '../engine/ingest-engine.js';
import { buildAmendmentDocs, loadKnownAmendments, readAmendmentSources, readAmendmentVotes } from './amendments.js';
import { buildBalanceDocs, readTopBalances } from './balances.js';
import { readAsOf, recordJobRun, replaceDataSet, type AsOf, type DataSetDocument, type JobStatus } from './data-set.js';
import { buildFactDocs, readFactInputs } from './facts.js';
import { buildMetricDocs, readDailyInputs } from './metrics.js';
import type { ScoreConfig } from './token-score.js';
import { buildTokenDocs } from './tokens/build.js';
import { readTokenInputs } from './tokens/read.js';
import type { TomlSource } from './toml.js';

export interface JobContext {
  engine: IngestEngine;
  /** Called as each step of the job starts (the CLI's progress). */
  onStep?: (step: string, done: number, of: number) => void;
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

/**
 * A derived data set: the index it owns, how its inputs are read from the indexed ledgers (as of
 * the newest one), and how its documents are built from them (pure).
 */
export interface DataSetJob<I> {
  kind: IndexKind;
  read: (engine: IngestEngine, asOf: AsOf) => Promise<I>;
  build: (inputs: I, asOf: AsOf) => DataSetDocument[];
  /** What the run record adds about its inputs (the validator list it used). */
  detail?: Record<string, unknown>;
}

/** The jobs of `pnpm ingest jobs`, in the order they run; the tokens job takes its settings. */
export function dataSetJobs(tokens: TokensJobOptions) {
  return {
    amendments: {
      kind: 'amendments',
      read: async (engine) => ({ ...(await readAmendmentSources(engine)), votes: await readAmendmentVotes(engine) }),
      build: (inputs, asOf) =>
        buildAmendmentDocs(loadKnownAmendments(), inputs.transactions, inputs.entry, asOf, inputs.votes),
    } satisfies DataSetJob<
      Awaited<ReturnType<typeof readAmendmentSources>> & { votes: Awaited<ReturnType<typeof readAmendmentVotes>> }
    >,
    facts: { kind: 'facts', read: readFactInputs, build: buildFactDocs } satisfies DataSetJob<
      Awaited<ReturnType<typeof readFactInputs>>
    >,
    metrics: { kind: 'metrics', read: readDailyInputs, build: buildMetricDocs } satisfies DataSetJob<
      Awaited<ReturnType<typeof readDailyInputs>>
    >,
    balances: {
      kind: 'balances',
      read: (engine) => readTopBalances(engine),
      build: (accounts, asOf) => buildBalanceDocs(accounts, asOf),
    } satisfies DataSetJob<Awaited<ReturnType<typeof readTopBalances>>>,
    tokens: {
      kind: 'tokens',
      read: (engine, asOf) =>
        readTokenInputs(engine, asOf, {
          source: tokens.toml,
          maxAgeMs: tokens.tomlMaxAgeMs,
          ...(tokens.refresh === undefined ? {} : { refresh: tokens.refresh }),
          ...(tokens.now === undefined ? {} : { now: tokens.now }),
          logger: engine.logger,
        }),
      build: (inputs, asOf) => buildTokenDocs(inputs, asOf, tokens.score),
    } satisfies DataSetJob<Awaited<ReturnType<typeof readTokenInputs>>>,
  };
}

export type JobName = keyof ReturnType<typeof dataSetJobs>;
export const JOB_NAMES: readonly JobName[] = ['amendments', 'facts', 'metrics', 'balances', 'tokens'];

export function isJobName(name: string | undefined): name is JobName {
  return name !== undefined && (JOB_NAMES as readonly string[]).includes(name);
}

/**
 * Runs one data-set job to completion: reads its inputs as of the newest indexed ledger, builds
 * its documents with deterministic ids, replaces its index's content with them, then records the
 * run. Running it again, or again after a kill, ends in the same index; nothing indexed yet is a
 * DATA_NOT_READY.
 */
export async function runDataSetJob<I>(ctx: JobContext, name: string, job: DataSetJob<I>): Promise<JobStatus> {
  const { engine } = ctx;
  const started = Date.now();
  ctx.onStep?.('reading the newest indexed ledger', 0, 4);
  const asOf = await readAsOf(engine);
  if (asOf === undefined) throw new DataNotReadyError(`the ${name} job: no ledger is indexed yet`);
  ctx.onStep?.(`reading the inputs of ${name} as of ledger ${asOf.ledger_index}`, 1, 4);
  const inputs = await job.read(engine, asOf);
  ctx.onStep?.(`computing ${name}`, 2, 4);
  const documents = job.build(inputs, asOf);
  ctx.onStep?.(`writing ${documents.length} documents`, 3, 4);
  const { written, removed } = await replaceDataSet(engine, job.kind, documents);
  const status = await recordJobRun(engine, {
    job: name,
    ledger_index: asOf.ledger_index,
    documents: written,
    removed,
    detail: { millis: Date.now() - started, as_of: asOf.close_time, ...job.detail },
  });
  ctx.onStep?.('done', 4, 4);
  engine.logger.info({ job: name, ledger: asOf.ledger_index, documents: written, removed }, 'job complete');
  return status;
}

/** Runs one job of `pnpm ingest jobs` by name. */
export function runJob(ctx: JobContext, name: JobName, tokens: TokensJobOptions): Promise<JobStatus> {
  return runDataSetJob(ctx, name, dataSetJobs(tokens)[name] as DataSetJob<unknown>);
}
