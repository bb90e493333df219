import { DataNotReadyError, type DataSetGate } from '@xle/core';
import type { JobStatus } from '@xle/documents';
import type { Engine } from './engine.js';

/** How long a data set's completed-run record is trusted before it is read again. */
const JOB_CACHE_MS = 5_000;

/** The completed run of a job, or undefined before its first one (cached for JOB_CACHE_MS). */
export async function readJobRun(engine: Engine, job: string): Promise<JobStatus | undefined> {
  const id = `job.${job}`;
  // A miss is read again every time: a data set shows as soon as its job has run.
  return (await engine.mgetCached<JobStatus>('ingest-state', [id], JOB_CACHE_MS, { cacheMisses: false })).get(id);
}

/** The 503 of a resource whose data set is not there yet, naming the command that computes it. */
export function dataNotReady(gate: DataSetGate, resource: string): DataNotReadyError {
  return new DataNotReadyError(`${resource} (computed by \`${gate.command ?? `pnpm ingest ${gate.job}`}\`)`);
}

/** A route's data-set gate: DATA_NOT_READY naming `resource` until the job has completed once. */
export async function requireDataSet(engine: Engine, gate: DataSetGate, resource: string): Promise<void> {
  if ((await readJobRun(engine, gate.job)) === undefined) throw dataNotReady(gate, resource);
}
