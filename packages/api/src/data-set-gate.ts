import { DataNotReadyError, type DataSetGate } from '@xle/core';
import { addToRanges, dataSetCoverage, type DataSetCoverage, type JobStatus, type LedgerRange } from '@xle/documents';
import type { Engine } from './engine.js';

/** How long a data set's completed-run record is trusted before it is read again. */
const JOB_CACHE_MS = 5_000;

/** How long the indexed ledgers (every source's checkpoint) and the state mark are kept. */
const INDEXED_CACHE_MS = 2_000;

/** The completed run of a job, or undefined before its first one (cached for JOB_CACHE_MS). */
export async function readJobRun(engine: Engine, job: string): Promise<JobStatus | undefined> {
  const id = `job.${job}`;
  // A miss is read again every time: a data set shows as soon as its job has run.
  return (await engine.mgetCached<JobStatus>('ingest-state', [id], JOB_CACHE_MS, { cacheMisses: false })).get(id);
}

/**
 * Every ledger any source has indexed (the checkpoints' ranges, merged) and the state mark (a
 * state snapshot written outside the pipeline changes it): what the data sets' runs are held
 * against. Kept INDEXED_CACHE_MS.
 */
async function indexedNow(engine: Engine): Promise<{ indexed: LedgerRange[]; stateMark: string | null }> {
  return engine.remember('indexed-ledgers', INDEXED_CACHE_MS, async () => {
    const [checkpoints, mark] = await Promise.all([
      engine.search<{ ranges?: LedgerRange[] }>('ingest-state', {
        size: 1000,
        query: { term: { kind: 'checkpoint' } },
        _source: ['ranges'],
      }),
      engine.get<{ state?: string }>('ingest-state', 'state-written'),
    ]);
    return {
      indexed: addToRanges(
        checkpoints.hits.hits.flatMap((hit) => hit._source?.ranges ?? []),
        [],
      ),
      stateMark: mark?.state ?? null,
    };
  });
}

/**
 * What a data set's last run covers against what is indexed now (documents' dataSetCoverage):
 * behind while ledgers indexed since, newer or older, or a state snapshot, are not read yet.
 * Undefined for a data set not computed from the ledgers.
 */
export async function coverageOf(engine: Engine, run: JobStatus): Promise<DataSetCoverage | undefined> {
  if (!Array.isArray(run.detail?.indexed)) return undefined;
  const { indexed, stateMark } = await indexedNow(engine);
  return dataSetCoverage(run, indexed, stateMark);
}

/** The 503 of a resource whose data set is not there yet, naming the command that computes it. */
export function dataNotReady(gate: DataSetGate, resource: string): DataNotReadyError {
  return new DataNotReadyError(`${resource} (computed by \`${gate.command ?? `pnpm ingest ${gate.job}`}\`)`);
}

/**
 * A route's data-set gate: DATA_NOT_READY naming `resource` until the job has completed once;
 * then the headers that say what the answer covers: the ledger its run read up to
 * (`X-Data-As-Of-Ledger`), and for a data set computed from the ledgers whether ledgers indexed
 * since are not in it yet (`X-Data-Behind`, `X-Data-Unread-Ledgers`).
 */
export async function requireDataSet(
  engine: Engine,
  gate: DataSetGate,
  resource: string,
): Promise<Record<string, string>> {
  const run = await readJobRun(engine, gate.job);
  if (run === undefined) throw dataNotReady(gate, resource);
  const headers: Record<string, string> = { 'X-Data-As-Of-Ledger': String(run.ledger_index) };
  const coverage = await coverageOf(engine, run);
  if (coverage !== undefined) {
    headers['X-Data-Behind'] = String(coverage.behind);
    headers['X-Data-Unread-Ledgers'] = String(coverage.unread_ledgers);
  }
  return headers;
}
