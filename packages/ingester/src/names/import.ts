import { CommandError } from '@xle/core';
import type { IngestEngine } from '../engine/ingest-engine.js';
import { writeDocuments } from '../jobs/data-set.js';
import { recordsVersion, type NameRecord } from './well-known.js';

export interface NamesImportResult {
  source: string;
  version: string;
  written: number;
  removed: number;
}

/** What an import may do to the records its source already holds. */
export interface ReplaceGuard {
  /** An input without a record empties the source (refused otherwise). */
  allowEmpty?: boolean;
  /** The input may remove more than MAX_REMOVED_SHARE of the source's records (refused otherwise). */
  replace?: boolean;
  /** Told what the import will write and remove, once checked and before anything is written. */
  onPlan?: (plan: { write: number; remove: number; existing: number }) => void;
}

/**
 * Above this share of a source's records removed by one import, the import is refused unless
 * `--replace` says it is meant: a truncated or wrong file must not erase a source.
 */
export const MAX_REMOVED_SHARE = 0.5;

/** Labels of well-known accounts: one source replaced as a whole (see `importAccountRecords`). */
export function importNames(
  engine: IngestEngine,
  source: string,
  records: readonly NameRecord[],
  guard: ReplaceGuard = {},
): Promise<NamesImportResult> {
  return importAccountRecords(engine, 'names', source, records, guard);
}

/** The ids of a source's records now in the index. */
async function sourceIds(engine: IngestEngine, kind: 'names' | 'kyc', source: string): Promise<string[]> {
  const ids: string[] = [];
  const hits = engine.scan(kind, {
    query: { term: { source } },
    sort: [{ account: 'asc' }],
    _source: false,
  });
  for await (const hit of hits) if (hit._id !== undefined) ids.push(hit._id);
  return ids;
}

/**
 * The records of the source the input does not hold (what the import removes), once it is checked
 * that the import should: an input without a record is refused unless `allowEmpty`, one that would
 * remove more than MAX_REMOVED_SHARE of the source's records unless `replace`. The refusal says how
 * many records would go, and which option says it is meant.
 */
function plannedRemoval(
  kind: string,
  source: string,
  existing: readonly string[],
  records: readonly { account: string }[],
  guard: ReplaceGuard,
): string[] {
  const kept = new Set(records.map((r) => r.account));
  const stale = existing.filter((id) => !kept.has(id));
  const removed = stale.length;
  const plan = { write: records.length, remove: removed, existing: existing.length };
  if (records.length === 0 && guard.allowEmpty !== true)
    throw new CommandError(
      'EMPTY_INPUT',
      `the input holds no ${kind} record: importing it would remove all ${removed} records of source “${source}”. ` +
        'Check the file (a header-only CSV or an empty array reads as nothing); pass --allow-empty to empty the source on purpose.',
    );
  if (records.length > 0 && removed > 0 && removed > existing.length * MAX_REMOVED_SHARE && guard.replace !== true)
    throw new CommandError(
      'WOULD_REMOVE',
      `the input would remove ${removed} of the ${existing.length} ${kind} records of source “${source}” ` +
        `(more than ${MAX_REMOVED_SHARE * 100} %) and keep ${existing.length - removed}. ` +
        'Check that the file is whole and is the source you meant; pass --replace to replace the source on purpose.',
    );
  guard.onPlan?.(plan);
  return stale;
}

/**
 * Writes one source's per-account records (labels, wallet KYC) as a new version: every record
 * of the file is indexed with the source and version (a record's id is its account, so a kept one
 * is overwritten), then the source's records the file does not hold, read before the write, are
 * deleted, so the index holds exactly the file's content (re-importing the same file changes nothing).
 */
export async function importAccountRecords(
  engine: IngestEngine,
  kind: 'names' | 'kyc',
  source: string,
  records: readonly { account: string }[],
  guard: ReplaceGuard = {},
): Promise<NamesImportResult> {
  const stale = plannedRemoval(kind, source, await sourceIds(engine, kind, source), records, guard);
  const version = recordsVersion(records);
  const updatedAt = new Date().toISOString();
  await writeDocuments(
    engine,
    kind,
    records.map((r) => ({ _id: r.account, doc: { ...r, source, version, updated_at: updatedAt } })),
  );
  // Deleted by id rather than _delete_by_query, which not every deployment has (it lives in the
  // reindex module).
  await engine.deleteIds(kind, stale, { refresh: true });
  return { source, version, written: records.length, removed: stale.length };
}
