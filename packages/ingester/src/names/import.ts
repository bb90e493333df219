import type { Client, IndexNaming } from '@xle/core';
import { indexName } from '@xle/core';
import { scanHits } from '../jobs/data-set.js';
import { recordsVersion, type NameRecord } from './well-known.js';

export interface NamesImportResult {
  source: string;
  version: string;
  written: number;
  removed: number;
}

/** Labels of well-known accounts: one source replaced as a whole (see `importAccountRecords`). */
export function importNames(
  client: Client,
  naming: IndexNaming,
  source: string,
  records: readonly NameRecord[],
): Promise<NamesImportResult> {
  return importAccountRecords(client, naming, 'names', source, records);
}

/**
 * Writes one source's per-account records (labels, wallet KYC) as a new version: every record
 * of the file is indexed with the source and version, then the records of that source not in
 * this version are deleted, so the index holds exactly the file's content (re-importing the
 * same file changes nothing).
 */
export async function importAccountRecords(
  client: Client,
  naming: IndexNaming,
  kind: 'names' | 'kyc',
  source: string,
  records: readonly { account: string }[],
): Promise<NamesImportResult> {
  const index = indexName(naming, kind);
  const version = recordsVersion(records);
  const updatedAt = new Date().toISOString();
  let written = 0;
  if (records.length > 0) {
    const operations = records.flatMap((r) => [
      { index: { _index: index, _id: r.account } },
      { ...r, source, version, updated_at: updatedAt },
    ]);
    const response = await client.bulk({ operations, refresh: 'wait_for' });
    if (response.errors) {
      const first = response.items.find((i) => i.index?.error !== undefined)?.index?.error;
      throw new Error(`the ${kind} index refused records: ${first?.reason ?? 'unknown reason'}`);
    }
    written = records.length;
  }
  // Search and delete by id rather than _delete_by_query, which not every deployment has (it
  // lives in the reindex module).
  const stale: string[] = [];
  const older = scanHits(client, {
    index,
    query: { bool: { filter: [{ term: { source } }], must_not: [{ term: { version } }] } },
    sort: [{ account: 'asc' }],
    _source: false,
  });
  for await (const hit of older) if (hit._id !== undefined) stale.push(hit._id);
  for (let at = 0; at < stale.length; at += 1000) {
    const response = await client.bulk({
      operations: stale.slice(at, at + 1000).map((id) => ({ delete: { _index: index, _id: id } })),
      refresh: 'wait_for',
    });
    if (response.errors) throw new Error(`the ${kind} index refused to delete stale records`);
  }
  const removed = stale.length;
  return { source, version, written, removed };
}
