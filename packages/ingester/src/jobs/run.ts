import { DataNotReadyError, type SingleIndexKind } from '@xle/core';
import type { IngestEngine } from '../engine/ingest-engine.js';
import { readIndexedRanges } from '../pipeline/checkpoint.js';
import { buildAmendmentDocs, loadKnownAmendments, readAmendmentSources, readAmendmentVotes } from './amendments.js';
import { buildBalanceDocs, readTopBalances } from './balances.js';
import {
  readAsOf,
  readJobRun,
  readStateMark,
  recordJobRun,
  replaceDataSet,
  replaceDataSetPart,
  type AsOf,
  type Changes,
  type DataSetDocument,
  type JobStatus,
} from './data-set.js';
import { subtractRanges, type LedgerRange } from '../pipeline/checkpoint.js';
import { buildFactDocs, readFactInputs } from './facts.js';
import { buildMetricDocs, metricScope, readDailyInputs } from './metrics.js';
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
 * the newest one, and of what changed since the last run), and how its documents are built from
 * them (pure). A job whose `scope` names ids rebuilt only part of its data set from the changes:
 * those ids are written or deleted, the rest of the index stays; otherwise the index is replaced.
 */
export type { Changes };

export interface DataSetJob<I> {
  kind: SingleIndexKind;
  read: (engine: IngestEngine, asOf: AsOf, changes: Changes) => Promise<I>;
  build: (inputs: I, asOf: AsOf) => DataSetDocument[];
  scope?: (inputs: I) => readonly string[] | 'all';
  /** What the run record adds about its inputs (the validator list it used). */
  detail?: Record<string, unknown>;
  /** What the run record keeps of this run's inputs for the next run to start from (`changes.previous`). */
  remember?: (inputs: I) => Record<string, unknown>;
}

/** The jobs of `pnpm ingest jobs`, in the order they run; the tokens job takes its settings. */
export function dataSetJobs(tokens: TokensJobOptions) {
  return {
    amendments: {
      kind: 'amendments',
      read: async (engine, _asOf, changes) => ({
        ...(await readAmendmentSources(engine, changes)),
        votes: await readAmendmentVotes(engine),
      }),
      build: (inputs, asOf) =>
        buildAmendmentDocs(loadKnownAmendments(), inputs.transactions, inputs.entry, asOf, inputs.votes),
      // The EnableAmendment transactions found so far (a few hundred on mainnet), so that the next
      // run reads only the ledgers indexed since.
      remember: (inputs) => ({ enabling: inputs.transactions }),
    } satisfies DataSetJob<
      Awaited<ReturnType<typeof readAmendmentSources>> & { votes: Awaited<ReturnType<typeof readAmendmentVotes>> }
    >,
    facts: { kind: 'facts', read: readFactInputs, build: buildFactDocs } satisfies DataSetJob<
      Awaited<ReturnType<typeof readFactInputs>>
    >,
    metrics: {
      kind: 'metrics',
      read: (engine, _asOf, changes) => readDailyInputs(engine, changes.since),
      build: buildMetricDocs,
      scope: metricScope,
    } satisfies DataSetJob<Awaited<ReturnType<typeof readDailyInputs>>>,
    balances: {
      kind: 'balances',
      read: (engine) => readTopBalances(engine),
      build: (accounts, asOf) => buildBalanceDocs(accounts, asOf),
    } satisfies DataSetJob<Awaited<ReturnType<typeof readTopBalances>>>,
    tokens: {
      kind: 'tokens',
      read: (engine, asOf, changes) =>
        readTokenInputs(engine, asOf, changes.since, {
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
 * Runs one data-set job to completion: reads what changed since its last run (the ledger ranges
 * every source has indexed, against those the last run saw), makes what was indexed visible,
 * reads its inputs as of the newest indexed ledger, builds its documents with deterministic ids,
 * writes them (the whole index, or only the part the changes touched), then records the run with
 * the ranges it saw. Running it again, or again after a kill, ends in the same index; nothing
 * indexed yet is a DATA_NOT_READY. `full` ignores the last run and reads everything.
 */
export async function runDataSetJob<I>(
  ctx: JobContext,
  name: string,
  job: DataSetJob<I>,
  { full = false }: { full?: boolean } = {},
): Promise<JobStatus> {
  const { engine } = ctx;
  const started = Date.now();
  ctx.onStep?.('reading the newest indexed ledger', 0, 4);
  const indexed = await readIndexedRanges(engine);
  const stateMark = await readStateMark(engine);
  const previous = full ? undefined : await readJobRun(engine, name);
  // State written by a snapshot since the last run is a change no range of ledgers names.
  const sameState = (previous?.detail?.state_mark ?? null) === stateMark;
  const seen = sameState ? (previous?.detail?.indexed as LedgerRange[] | undefined) : undefined;
  const changes: Changes =
    seen === undefined ? {} : { since: subtractRanges(indexed, seen), previous: previous?.detail ?? {} };
  // Every ledger a checkpoint records is acknowledged: a refresh makes all of it searchable, so no
  // recorded ledger is counted as seen while its documents were still invisible. The ledgers seen
  // by the last run were made searchable then: only the ranges of those indexed since are refreshed.
  const stateKinds = ['ledgers', 'transactions', 'accounts', 'objects'] as const;
  if (changes.since === undefined) await engine.refresh(stateKinds);
  else await engine.refreshLedgers(stateKinds, changes.since);
  const asOf = await readAsOf(engine);
  if (asOf === undefined) throw new DataNotReadyError(`the ${name} job: no ledger is indexed yet`);
  ctx.onStep?.(`reading the inputs of ${name} as of ledger ${asOf.ledger_index}`, 1, 4);
  const inputs = await job.read(engine, asOf, changes);
  ctx.onStep?.(`computing ${name}`, 2, 4);
  const documents = job.build(inputs, asOf);
  ctx.onStep?.(`writing ${documents.length} documents`, 3, 4);
  const scope = job.scope?.(inputs) ?? 'all';
  const { written, removed } =
    scope === 'all'
      ? await replaceDataSet(engine, job.kind, documents)
      : await replaceDataSetPart(engine, job.kind, documents, scope);
  const status = await recordJobRun(engine, {
    job: name,
    ledger_index: asOf.ledger_index,
    documents: written,
    removed,
    detail: {
      millis: Date.now() - started,
      as_of: asOf.close_time,
      incremental: changes.since !== undefined,
      changed_ledgers: changes.since?.reduce((n, r) => n + r.to - r.from + 1, 0) ?? null,
      indexed,
      state_mark: stateMark,
      ...job.detail,
      ...job.remember?.(inputs),
    },
  });
  ctx.onStep?.('done', 4, 4);
  engine.logger.info({ job: name, ledger: asOf.ledger_index, documents: written, removed }, 'job complete');
  return status;
}

/** Runs one job of `pnpm ingest jobs` by name. */
export function runJob(
  ctx: JobContext,
  name: JobName,
  tokens: TokensJobOptions,
  options: { full?: boolean } = {},
): Promise<JobStatus> {
  return runDataSetJob(ctx, name, dataSetJobs(tokens)[name] as DataSetJob<unknown>, options);
}
