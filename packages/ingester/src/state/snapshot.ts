import { readFile } from 'node:fs/promises';
import type { estypes } from '@elastic/elasticsearch';
import { type Client, type IndexNaming, type Logger, indexName } from '@xle/core';
import {
  accountDocument,
  changeVersion,
  LedgerShapeError,
  objectDocument,
  parseStatePage,
  type Json,
  type StatePage,
} from '@xle/documents';
import { scanHits } from '../jobs/data-set.js';
import { BulkSink, type WriteOp } from '../sink/bulk-sink.js';
import { listLedgerFiles } from '../sources/files.js';

/**
 * Seeding the ledger-object and account indices from a state snapshot: every ledger entry of a
 * ledger (rippled `ledger` with `accountState`, a state dump, or `ledger_data` pages, JSON or
 * binary), so that objects no transaction touched since are queryable too.
 *
 * A snapshot of ledger L is the state after all of L's transactions, so it is written with the
 * version just below ledger L + 1 (`changeVersion(L, 65535)`): a transaction of a newer ledger
 * wins over it, and replaying L or anything older never overwrites it.
 */
export const SNAPSHOT_TX_INDEX = 0xffff;

/** The writes of one page (pure): object documents, and account documents of AccountRoots. */
export function snapshotOps(page: StatePage, naming: IndexNaming): { objects: WriteOp[]; accounts: WriteOp[] } {
  const version = changeVersion(page.ledger_index, SNAPSHOT_TX_INDEX);
  const objects: WriteOp[] = [];
  const accounts: WriteOp[] = [];
  for (const entry of page.entries) {
    const doc = objectDocument({ ...entry }, page.ledger_index, false);
    if (page.ledger_hash !== undefined) doc.ledger_hash = page.ledger_hash;
    objects.push({ index: indexName(naming, 'objects'), id: doc.index, doc, version, ledgerIndex: page.ledger_index });
    if (doc.LedgerEntryType === 'AccountRoot' && typeof doc.Account === 'string')
      accounts.push({
        index: indexName(naming, 'accounts'),
        id: doc.Account,
        doc: accountDocument(doc),
        version,
        ledgerIndex: page.ledger_index,
      });
  }
  return { objects, accounts };
}

export interface SeedOptions {
  client: Client;
  naming: IndexNaming;
  logger: Logger;
  networkId: number;
  /** Called after each page is written. */
  onPage?: (written: number, ledgerIndex: number) => void;
}

export interface SeedResult {
  ledger_index: number;
  entries: number;
  superseded: number;
  deadLetters: number;
  /** Objects and accounts found gone by a whole snapshot, and tombstoned. */
  removed: number;
  whole: boolean;
}

/**
 * Writes a ledger's state, page by page (bounded memory). When the pages make up the whole state
 * (`whole`: a dump with accountState, or `ledger_data` paged to its end), every live object or
 * account last changed before that ledger and absent from it is gone by then: it gets a tombstone
 * at the snapshot's version. Running it again, or again after a kill, ends in the same indices;
 * the run is recorded in `ingest-state` (`state.<ledger>`) only when complete.
 */
export async function seedState(pages: AsyncIterable<StatePage>, options: SeedOptions): Promise<SeedResult> {
  const sink = new BulkSink(options);
  let ledger: number | undefined;
  let entries = 0;
  let superseded = 0;
  let deadLetters = 0;
  let whole = false;
  let more = true;
  for await (const page of pages) {
    if (ledger !== undefined && page.ledger_index !== ledger)
      throw new LedgerShapeError(`state pages of ledgers ${ledger} and ${page.ledger_index} cannot be seeded together`);
    ledger = page.ledger_index;
    whole ||= page.whole;
    more = page.marker !== undefined;
    const { objects, accounts } = snapshotOps(page, options.naming);
    await sink.addActivations(accounts);
    const result = await sink.writeOps(0, [...objects, ...accounts]);
    entries += page.entries.length;
    superseded += result.superseded;
    deadLetters += result.deadLetters;
    options.onPage?.(entries, ledger);
  }
  if (ledger === undefined) throw new LedgerShapeError('no state entries to seed');
  // ledger_data read to its last page (no marker) is the whole state as well.
  whole ||= !more;
  await sink.refresh();
  let removed = 0;
  if (whole && deadLetters === 0) {
    const retired = await tombstoneAbsent(sink, options, ledger);
    removed = retired.removed;
    deadLetters += retired.deadLetters;
  }
  await options.client.index({
    index: indexName(options.naming, 'ingest-state'),
    id: `state.${ledger}`,
    document: {
      kind: 'state',
      ledger_index: ledger,
      documents: entries,
      removed,
      dead_letters: deadLetters,
      status: 'complete',
      updated_at: new Date().toISOString(),
    },
    refresh: true,
  });
  options.logger.info({ ledger, entries, removed, superseded, deadLetters, whole }, 'state seeded');
  return { ledger_index: ledger, entries, superseded, deadLetters, removed, whole };
}

/**
 * After a whole snapshot of `ledger`: every live document whose last change is older than the
 * ledger was not in it (the snapshot rewrote all that were), so it no longer exists.
 */
async function tombstoneAbsent(
  sink: BulkSink,
  options: SeedOptions,
  ledger: number,
): Promise<{ removed: number; deadLetters: number }> {
  const version = changeVersion(ledger, SNAPSHOT_TX_INDEX);
  let removed = 0;
  let deadLetters = 0;
  for (const [kind, field, key] of [
    ['objects', 'ledger_index', 'index'],
    ['accounts', '_updated_ledger_index', 'Account'],
  ] as const) {
    const index = indexName(options.naming, kind);
    const request: estypes.SearchRequest = {
      index,
      query: { bool: { filter: [{ term: { deleted: false } }, { range: { [field]: { lt: ledger } } }] } },
      sort: [{ [key]: 'asc' }],
    };
    const ops: WriteOp[] = [];
    for await (const hit of scanHits<Json>(options.client, request)) {
      if (hit._source === undefined || hit._id === undefined) continue;
      ops.push({
        index,
        id: hit._id,
        doc: { ...hit._source, deleted: true, [field]: ledger },
        version,
        ledgerIndex: ledger,
      });
    }
    if (ops.length === 0) continue;
    const result = await sink.writeOps(0, ops);
    // A tombstone refused and dead-lettered did not retire anything: it is counted as such.
    removed += ops.length - result.superseded - result.deadLetters;
    deadLetters += result.deadLetters;
  }
  return { removed, deadLetters };
}

/** State pages from files: one file or every JSON file of a folder (recursive, by name). */
export async function* readStateFiles(path: string): AsyncGenerator<StatePage> {
  for (const file of listLedgerFiles(path)) {
    let raw: unknown;
    try {
      raw = JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      throw new LedgerShapeError(`${file}: not JSON (${(error as Error).message})`);
    }
    yield parseStatePage(raw, file);
  }
}
