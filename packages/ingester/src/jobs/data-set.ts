import { randomUUID } from 'node:crypto';
import type { estypes } from '@elastic/elasticsearch';
import type { SingleIndexKind } from '@xle/core';
import type { AsOf, DataSetDocument, JobStatus } from '@xle/documents';
import type { WriteOp } from '../writes.js';
import type { LedgerRange } from '../pipeline/checkpoint.js';
import type { IngestEngine } from '../engine/ingest-engine.js';

export type { AsOf, DataSetDocument, JobStatus };

/**
 * What changed since a job's last run: the ledgers indexed since (by any source, backfills of old
 * ranges included), or undefined for a first or full run, which reads everything.
 */
export interface Changes {
  since?: LedgerRange[];
  /** What the last run recorded of its inputs (its `remember`), with `since`. */
  previous?: Record<string, unknown>;
}

export interface ReplaceResult {
  written: number;
  removed: number;
}

/**
 * Writes documents of a data set under their ids and makes them searchable; a document the engine
 * refuses is recorded as a dead letter and fails the call, so a job never records a run whose data
 * set is incomplete.
 */
export async function writeDocuments(
  engine: IngestEngine,
  kind: SingleIndexKind,
  documents: readonly DataSetDocument[],
): Promise<void> {
  const index = engine.index(kind);
  const ops: WriteOp[] = documents.map((d) => ({ index, id: d._id, doc: d.doc, ledgerIndex: 0 }));
  const written = await engine.write(ops, { refresh: true });
  if (written.deadLetters > 0)
    throw new Error(`the ${kind} index refused ${written.deadLetters} documents (recorded in dead-letters)`);
}

/**
 * Makes the `kind` index hold exactly `documents`: every document is (re)written under its
 * deterministic id, then every other document is deleted. A run killed half-way leaves each
 * document whole (old or new), and the next run ends in the same state as an uninterrupted one,
 * so a job is idempotent and resumable by running it again. Stale documents are found with a
 * point in time and deleted by id, because `_delete_by_query` lives in a module not every
 * deployment has.
 */
export async function replaceDataSet(
  engine: IngestEngine,
  kind: SingleIndexKind,
  documents: readonly DataSetDocument[],
): Promise<ReplaceResult> {
  await writeDocuments(engine, kind, documents);
  const keep = new Set(documents.map((d) => d._id));
  const stale: string[] = [];
  for await (const hit of engine.scanAll(kind, { _source: false }))
    if (hit._id !== undefined && !keep.has(hit._id)) stale.push(hit._id);
  await engine.deleteIds(kind, stale);
  await engine.refresh([kind]);
  return { written: documents.length, removed: stale.length };
}

/**
 * Writes the documents of part of a data set (the days a metrics run recomputed) and deletes the
 * documents of that part it did not rebuild; the rest of the index is left as it is.
 */
export async function replaceDataSetPart(
  engine: IngestEngine,
  kind: SingleIndexKind,
  documents: readonly DataSetDocument[],
  scope: readonly string[],
): Promise<ReplaceResult> {
  await writeDocuments(engine, kind, documents);
  const keep = new Set(documents.map((d) => d._id));
  const existing = await engine.mget<unknown>(
    kind,
    scope.filter((id) => !keep.has(id)),
    [],
  );
  await engine.deleteIds(kind, [...existing.keys()]);
  await engine.refresh([kind]);
  return { written: documents.length, removed: existing.size };
}

/** A query for the documents of ledgers in `ranges`. */
export function inLedgerRanges(ranges: readonly LedgerRange[], field = 'ledger_index'): estypes.QueryDslQueryContainer {
  return {
    bool: { should: ranges.map((r) => ({ range: { [field]: { gte: r.from, lte: r.to } } })), minimum_should_match: 1 },
  };
}

/** The newest indexed ledger, or undefined when nothing is indexed yet. */
export async function readAsOf(engine: IngestEngine): Promise<AsOf | undefined> {
  const found = await engine.search<{ ledger_index: number; close_time_human?: string; total_coins: string }>(
    'ledgers',
    {
      size: 1,
      sort: [{ ledger_index: 'desc' }],
      _source: ['ledger_index', 'close_time_human', 'total_coins'],
    },
  );
  const ledger = found.hits.hits[0]?._source;
  if (ledger === undefined) return undefined;
  return {
    ledger_index: ledger.ledger_index,
    close_time: ledger.close_time_human ?? '',
    total_coins: String(ledger.total_coins),
  };
}

const statusId = (job: string): string => `job.${job}`;

/**
 * Records a job's completed run in the ingest-state index. It is written only after the whole
 * data set is in place; the REST routes answer DATA_NOT_READY until it exists.
 */
export async function recordJobRun(
  engine: IngestEngine,
  status: Omit<JobStatus, 'kind' | 'status' | 'updated_at'>,
): Promise<JobStatus> {
  const doc: JobStatus = { kind: 'job', status: 'complete', ...status, updated_at: new Date().toISOString() };
  await engine.put('ingest-state', statusId(status.job), doc, { refresh: true });
  return doc;
}

export function readJobRun(engine: IngestEngine, job: string): Promise<JobStatus | undefined> {
  return engine.get<JobStatus>('ingest-state', statusId(job));
}

/** The ingest-state document that marks ledger state written outside the ledger pipeline. */
const STATE_MARK = 'state-written';

/**
 * Marks that ledger state is being, or was, written without transactions (a state snapshot): no
 * job's `since` names such a change, so a job whose last run saw another mark reads everything.
 * Written before a snapshot's first write and after its last.
 */
export async function markStateWritten(engine: IngestEngine): Promise<void> {
  await engine.put(
    'ingest-state',
    STATE_MARK,
    { kind: STATE_MARK, state: randomUUID(), updated_at: new Date().toISOString() },
    { refresh: true },
  );
}

/** The current state mark (null when state was never written outside the pipeline). */
export async function readStateMark(engine: IngestEngine): Promise<string | null> {
  return (await engine.get<{ state?: string }>('ingest-state', STATE_MARK))?.state ?? null;
}
