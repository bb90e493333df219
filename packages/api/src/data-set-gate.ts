import { DataNotReadyError } from '@xle/core';
import type { Engine } from './engine.js';
import type { JobStatus } from '@xle/documents';

/**
 * The job behind a route's data set. Until that job has completed once, the route answers 503
 * DATA_NOT_READY naming the command that computes it, never an empty 200.
 */
export interface DataSetGate {
  /** The job whose completed run (its `job.<name>` record in ingest-state) makes the data ready. */
  job: string;
  /** The data set's name in the API documentation (default: the job's). */
  name?: string;
  /** The command that computes it (default `pnpm ingest <job>`). */
  command?: string;
}

/** How long a data set's completed-run record is trusted before it is read again. */
const JOB_CACHE_MS = 5_000;
const jobCaches = new WeakMap<Engine, Map<string, { run: JobStatus | undefined; at: number }>>();

/** The completed run behind a data set; throws DATA_NOT_READY naming `resource` until there is one. */
export async function requireDataSet(engine: Engine, gate: DataSetGate, resource: string): Promise<JobStatus> {
  let cache = jobCaches.get(engine);
  if (cache === undefined) jobCaches.set(engine, (cache = new Map()));
  const now = performance.now();
  const hit = cache.get(gate.job);
  let run = hit !== undefined && now - hit.at < JOB_CACHE_MS ? hit.run : undefined;
  if (run === undefined) {
    run = await engine.get<JobStatus>('ingest-state', `job.${gate.job}`);
    cache.set(gate.job, { run, at: now });
  }
  if (run === undefined) throw dataNotReady(gate, resource);
  return run;
}

/** The 503 of a resource whose data set is not there yet, naming the command that computes it. */
export function dataNotReady(gate: DataSetGate, resource: string): DataNotReadyError {
  return new DataNotReadyError(`${resource} (computed by \`${gate.command ?? `pnpm ingest ${gate.job}`}\`)`);
}
