import type { Client, IndexNaming } from '@xle/core';
import { indexName } from '@xle/core';
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
  // lives in the reindex module). Pages of 1,000 by account.
  let removed = 0;
  let after: unknown[] | undefined;
  for (;;) {
    const page = await client.search({
      index,
      query: { bool: { filter: [{ term: { source } }], must_not: [{ term: { version } }] } },
      sort: [{ account: 'asc' }],
      size: 1000,
      _source: false,
      ...(after === undefined ? {} : { search_after: after as never }),
    });
    const hits = page.hits.hits;
    if (hits.length === 0) break;
    const response = await client.bulk({
      operations: hits.map((h) => ({ delete: { _index: index, _id: h._id ?? '' } })),
      refresh: 'wait_for',
    });
    if (response.errors) throw new Error(`the ${kind} index refused to delete stale records`);
    removed += hits.length;
    if (hits.length < 1000) break;
    after = hits[hits.length - 1]?.sort;
  }
  return { source, version, written, removed };
}
