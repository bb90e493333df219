import type { estypes } from '@elastic/elasticsearch';
import {
  accountDocument,
  changeVersion,
  LedgerShapeError,
  objectDocument,
  openingActivityDocument,
  openingBalanceDocuments,
  snapshotNfts,
  type Json,
  type StatePage,
} from '@xle/documents';
import type { WriteOp } from '../writes.js';
import type { IngestEngine } from '../engine/ingest-engine.js';
import { objectWrites, type StateKind } from '../pipeline/batch.js';
import { BatchSink } from '../pipeline/sink.js';
import { markStateWritten } from '../jobs/data-set.js';
import { WatermarkReader } from '../pipeline/watermark.js';
import { DeletionGuards } from '../pipeline/deletions.js';

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

/**
 * The writes of one page (pure): object documents, account documents of AccountRoots, NFT
 * documents of NFTokenPages, and the opening balances of AccountRoots and trust lines (the
 * balance-changes data set starts every account's history there). `balanceAlias` is the range
 * alias of the balance-changes kind that holds the page's ledger.
 */
export function snapshotOps(
  page: StatePage,
  index: (kind: StateKind | 'activity') => string,
  balanceAlias?: string,
): { objects: WriteOp[]; accounts: WriteOp[] } {
  const version = changeVersion(page.ledger_index, SNAPSHOT_TX_INDEX);
  const objects: WriteOp[] = [];
  const accounts: WriteOp[] = [];
  for (const entry of page.entries) {
    const doc = objectDocument({ ...entry }, page.ledger_index, false);
    if (page.ledger_hash !== undefined) doc.ledger_hash = page.ledger_hash;
    objects.push({ index: index('objects'), id: doc.index, doc, version, ledgerIndex: page.ledger_index });
    if (doc.LedgerEntryType === 'NFTokenPage')
      for (const nft of snapshotNfts(entry, page.ledger_index))
        objects.push({ index: index('nfts'), id: nft.NFTokenID, doc: nft, version, ledgerIndex: page.ledger_index });
    if (balanceAlias !== undefined)
      for (const opening of openingBalanceDocuments(entry, page.ledger_index, undefined)) {
        objects.push({
          index: balanceAlias,
          id: opening.id,
          doc: opening.doc,
          ledgerIndex: page.ledger_index,
          range: { kind: 'balance-changes', ledgerIndex: page.ledger_index },
        });
        // The account's history entry of it, so its balance-change pages find it (activity.ts).
        const activity = openingActivityDocument(opening);
        objects.push({
          index: index('activity'),
          id: activity.id,
          routing: activity.key,
          doc: activity.doc,
          ledgerIndex: page.ledger_index,
        });
      }
    if (doc.LedgerEntryType === 'AccountRoot' && typeof doc.Account === 'string')
      accounts.push({
        index: index('accounts'),
        id: doc.Account,
        doc: accountDocument(doc),
        version,
        ledgerIndex: page.ledger_index,
      });
  }
  return { objects, accounts };
}

export interface SeedOptions {
  /** Called after each page is written. */
  onPage?: (written: number, ledgerIndex: number) => void;
}

export interface SeedResult {
  ledger_index: number;
  entries: number;
  superseded: number;
  deadLetters: number;
  /** Objects, accounts and NFTs found gone by a whole snapshot, and tombstoned (burned, for NFTs). */
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
export async function seedState(
  pages: AsyncIterable<StatePage>,
  engine: IngestEngine,
  options: SeedOptions = {},
): Promise<SeedResult> {
  const sink = new BatchSink(engine);
  // State written without transactions is a change no job's `since` names: the mark, written
  // before the first write and after the last, makes the next run of every job a first one.
  await markStateWritten(engine);
  let ledger: number | undefined;
  let entries = 0;
  let superseded = 0;
  let deadLetters = 0;
  let whole = false;
  let more = true;
  for await (const page of pages) {
    if (ledger !== undefined && page.ledger_index !== ledger)
      throw new LedgerShapeError(`state pages of ledgers ${ledger} and ${page.ledger_index} cannot be seeded together`);
    if (ledger === undefined) {
      // Behind the watermark every newer state is indexed and the guards of deleted entries are
      // pruned: a snapshot there would write nothing (pipeline/watermark.ts), and its sweep would
      // then take every entry for gone.
      const watermark = await new WatermarkReader(engine).current();
      if (page.ledger_index <= watermark)
        throw new LedgerShapeError(
          `the state of ledger ${page.ledger_index} is behind the history watermark (${watermark}): the indexed history from the network's first ledger already holds it`,
        );
    }
    ledger = page.ledger_index;
    whole ||= page.whole;
    more = page.marker !== undefined;
    const { objects, accounts } = snapshotOps(
      page,
      (kind) => engine.index(kind),
      engine.rangeAlias('balance-changes', page.ledger_index),
    );
    await sink.activations.enrich(accounts);
    const result = await sink.write([...objects, ...accounts]);
    entries += page.entries.length;
    superseded += result.superseded.length;
    deadLetters += result.deadLetters;
    options.onPage?.(entries, ledger);
  }
  if (ledger === undefined) throw new LedgerShapeError('no state entries to seed');
  // ledger_data read to its last page (no marker) is the whole state as well.
  whole ||= !more;
  await engine.refresh(['objects', 'deletions', 'accounts', 'nfts', 'dead-letters']);
  let removed = 0;
  if (whole && deadLetters === 0) {
    const retired = await tombstoneAbsent(engine, ledger);
    removed = retired.removed;
    deadLetters += retired.deadLetters;
  }
  await engine.put(
    'ingest-state',
    `state.${ledger}`,
    {
      kind: 'state',
      ledger_index: ledger,
      documents: entries,
      removed,
      dead_letters: deadLetters,
      status: 'complete',
      // Whether the pages were the whole state: only a whole snapshot starts every account's
      // balance history (the balance routes read it).
      detail: { whole },
      updated_at: new Date().toISOString(),
    },
    { refresh: true },
  );
  await markStateWritten(engine);
  engine.logger.info({ ledger, entries, removed, superseded, deadLetters, whole }, 'state seeded');
  return { ledger_index: ledger, entries, superseded, deadLetters, removed, whole };
}

/**
 * After a whole snapshot of `ledger`: every live document whose last change is older than the
 * ledger was not in it (the snapshot rewrote all that were), so it no longer exists.
 */
async function tombstoneAbsent(
  engine: IngestEngine,
  ledger: number,
): Promise<{ removed: number; deadLetters: number }> {
  const version = changeVersion(ledger, SNAPSHOT_TX_INDEX);
  let removed = 0;
  let deadLetters = 0;
  // Per kind: what marks a live document, the field holding its last change, its sort key, and
  // what a document gone by the snapshot becomes.
  const sweeps = [
    { kind: 'objects', live: { deleted: false }, field: 'ledger_index', key: 'index', gone: { deleted: true } },
    {
      kind: 'accounts',
      live: { deleted: false },
      field: '_updated_ledger_index',
      key: 'Account',
      gone: { deleted: true },
    },
    {
      kind: 'nfts',
      live: { is_burned: false },
      field: 'ledger_index',
      key: 'NFTokenID',
      gone: { is_burned: true, tx_hash: null, _date: null },
    },
  ] as const;
  for (const { kind, live, field, key, gone } of sweeps) {
    const index = engine.index(kind);
    const request: estypes.SearchRequest = {
      query: { bool: { filter: [{ term: live }, { range: { [field]: { lt: ledger } } }] } },
      sort: [{ [key]: 'asc' }],
    };
    const ops: WriteOp[] = [];
    for await (const hit of engine.scan<Json>(kind, request)) {
      if (hit._source === undefined || hit._id === undefined) continue;
      const doc = { ...hit._source, ...gone, [field]: ledger };
      // A ledger object gone is deleted behind its guard (see pipeline/deletions.ts).
      if (kind === 'objects') ops.push(...objectWrites({ id: hit._id, version, doc }, ledger, (k) => engine.index(k)));
      else ops.push({ index, id: hit._id, doc, version, ledgerIndex: ledger });
    }
    if (ops.length === 0) continue;
    const guards = ops.filter((op) => op.first === true);
    if (guards.length > 0) {
      const written = await engine.write(guards);
      if (written.deadLetters > 0) throw new Error(`${written.deadLetters} deletion guards could not be written`);
    }
    const retiring = ops.filter((op) => op.first !== true);
    const result = await engine.write(retiring);
    // A newer state written meanwhile keeps the object: its guard goes (pipeline/deletions.ts, rule 4).
    const stale = await new DeletionGuards(engine).staleGuards(new Map(), result.superseded);
    if (stale.length > 0) await engine.write(stale);
    // A tombstone refused and dead-lettered did not retire anything: it is counted as such.
    removed += retiring.length - result.superseded.length - result.deadLetters;
    deadLetters += result.deadLetters;
  }
  return { removed, deadLetters };
}
