import type { IngestEngine } from '../engine/ingest-engine.js';
import { writeDocuments } from '../jobs/data-set.js';
import { recordsVersion, type NameRecord } from './well-known.js';

export interface NamesImportResult {
  source: string;
  version: string;
  written: number;
  removed: number;
}

/** Labels of well-known accounts: one source replaced as a whole (see `importAccountRecords`). */
export function importNames(
  engine: IngestEngine,
  source: string,
  records: readonly NameRecord[],
): Promise<NamesImportResult> {
  return importAccountRecords(engine, 'names', source, records);
}

/**
 * Writes one source's per-account records (labels, wallet KYC) as a new version: every record
 * of the file is indexed with the source and version, then the records of that source not in
 * this version are deleted, so the index holds exactly the file's content (re-importing the
 * same file changes nothing).
 */
export async function importAccountRecords(
  engine: IngestEngine,
  kind: 'names' | 'kyc',
  source: string,
  records: readonly { account: string }[],
): Promise<NamesImportResult> {
  const version = recordsVersion(records);
  const updatedAt = new Date().toISOString();
  await writeDocuments(
    engine,
    kind,
    records.map((r) => ({ _id: r.account, doc: { ...r, source, version, updated_at: updatedAt } })),
  );
  // Search and delete by id rather than _delete_by_query, which not every deployment has (it
  // lives in the reindex module).
  const stale: string[] = [];
  const older = engine.scan(kind, {
    query: { bool: { filter: [{ term: { source } }], must_not: [{ term: { version } }] } },
    sort: [{ account: 'asc' }],
    _source: false,
  });
  for await (const hit of older) if (hit._id !== undefined) stale.push(hit._id);
  await engine.deleteIds(kind, stale, { refresh: true });
  return { source, version, written: records.length, removed: stale.length };
}
