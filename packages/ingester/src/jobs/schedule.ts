import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { dataSetCoverage, type JobStatus } from '@xle/documents';
import type { IngestEngine } from '../engine/ingest-engine.js';
import { readIndexedRanges } from '../pipeline/checkpoint.js';
import { readJobRun, readStateMark } from './data-set.js';
import { JOB_NAMES, runJob, type JobName, type TokensJobOptions } from './run.js';

/** The ingest-state document that one jobs run at a time holds. */
const LOCK_ID = 'lock.jobs';

interface LockDoc {
  kind: 'lock';
  owner: string;
  host: string;
  pid: number;
  expires_at: number;
  updated_at: string;
}

/** Whether a process of this host is alive (signal 0 tests without sending). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One run of the data-set jobs at a time, across processes (`live` running them and an operator's
 * `pnpm ingest jobs`): two runs replacing the same data set at once could each delete what the
 * other wrote. A lease in ingest-state taken by compare-and-set and renewed while held (every
 * third of its length); taken over once it has expired, or at once when its holder was a process
 * of this host that is gone (a run killed half-way: the next one ends in the same state as an
 * uninterrupted one, every job being idempotent).
 */
export class JobsLock {
  private renewal: NodeJS.Timeout | undefined;

  constructor(
    private readonly engine: IngestEngine,
    private readonly owner: string,
    private readonly leaseMs = 120_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes the lock when it is free, expired, left by a dead process of this host, or this owner's; false otherwise. */
  async acquire(): Promise<boolean> {
    const held = await this.engine.getTagged<LockDoc>('ingest-state', LOCK_ID);
    if (held !== undefined && held.source.owner !== this.owner && !this.stale(held.source)) return false;
    const doc: LockDoc = {
      kind: 'lock',
      owner: this.owner,
      host: hostname(),
      pid: process.pid,
      expires_at: this.now() + this.leaseMs,
      updated_at: new Date(this.now()).toISOString(),
    };
    const taken = (await this.engine.putIf('ingest-state', LOCK_ID, doc, held?.tag ?? 'absent')) !== undefined;
    if (taken && this.renewal === undefined) {
      this.renewal = setInterval(() => {
        void this.acquire().catch(() => undefined);
      }, this.leaseMs / 3);
      this.renewal.unref();
    }
    return taken;
  }

  /** A lease nobody holds any more: expired, or its holder a process of this host that is gone. */
  private stale(lock: LockDoc): boolean {
    return lock.expires_at <= this.now() || (lock.host === hostname() && !alive(lock.pid));
  }

  /** Who holds the lock and until when, when someone does. */
  async holder(): Promise<{ owner: string; expiresAt: number } | undefined> {
    const held = await this.engine.get<LockDoc>('ingest-state', LOCK_ID);
    return held === undefined || this.stale(held) ? undefined : { owner: held.owner, expiresAt: held.expires_at };
  }

  /** Gives the lock back, if this owner still holds it. */
  async release(): Promise<void> {
    if (this.renewal !== undefined) clearInterval(this.renewal);
    this.renewal = undefined;
    const held = await this.engine.getTagged<LockDoc>('ingest-state', LOCK_ID);
    if (held === undefined || held.source.owner !== this.owner) return;
    // Expired now: free for the next run (a document, not a delete, so the compare-and-set holds).
    await this.engine.putIf('ingest-state', LOCK_ID, { ...held.source, expires_at: 0 }, held.tag);
  }
}

/**
 * The ledger-derived jobs that are behind what is indexed now: their last run read fewer ledgers
 * than every source's checkpoints hold now (newer ones, or older ones a backfill or a file ingest
 * wrote below), or saw another state mark; a job never run is behind too.
 */
export async function jobsBehind(engine: IngestEngine, names: readonly JobName[] = JOB_NAMES): Promise<JobName[]> {
  const [indexed, mark] = await Promise.all([readIndexedRanges(engine), readStateMark(engine)]);
  if (indexed.length === 0) return [];
  const runs = await Promise.all(names.map(async (name) => [name, await readJobRun(engine, name)] as const));
  return runs
    .filter(([, run]: readonly [JobName, JobStatus | undefined]) => {
      if (run === undefined) return true;
      return dataSetCoverage(run, indexed, mark)?.behind ?? true;
    })
    .map(([name]) => name);
}

export interface JobsFollower {
  /** Resolves when the follower has stopped (after the run under way, if any). */
  stop(): Promise<void>;
}

/**
 * Keeps the derived data sets current beside `live`: every `intervalMs`, when any of them is
 * behind what is indexed (the ledgers `live` writes, and those a backfill writes beneath it), runs
 * every job in order under the jobs lock, each reading only what changed since its own last run.
 * A run that fails is logged and tried again at the next tick; the ingest never waits on it.
 */
export function followJobs(
  engine: IngestEngine,
  tokens: TokensJobOptions,
  { intervalMs, owner }: { intervalMs: number; owner: string },
): JobsFollower {
  const lock = new JobsLock(engine, owner);
  const stopped = new AbortController();
  const loop = (async () => {
    while (!stopped.signal.aborted) {
      await sleep(intervalMs, undefined, { signal: stopped.signal }).catch(() => undefined);
      if (stopped.signal.aborted) return;
      try {
        if ((await jobsBehind(engine)).length === 0) continue;
        if (!(await lock.acquire())) continue;
        try {
          for (const name of JOB_NAMES) {
            if (stopped.signal.aborted) break;
            const status = await runJob({ engine }, name, tokens);
            engine.logger.info(
              { job: name, ledger: status.ledger_index, changed_ledgers: status.detail?.changed_ledgers ?? null },
              'data set brought up to date',
            );
          }
        } finally {
          await lock.release();
        }
      } catch (error) {
        engine.logger.warn({ err: error }, 'the data-set jobs failed; tried again at the next interval');
      }
    }
  })();
  return {
    stop: async () => {
      stopped.abort();
      await loop;
    },
  };
}
