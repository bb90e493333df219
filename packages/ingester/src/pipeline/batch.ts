import type { RangedKind } from '@xle/core';
import {
  activityDocuments,
  balanceChangeDocuments,
  ledgerMarkerDocument,
  nftChanges,
  stateChanges,
  transformLedger,
  transformTransaction,
  type ActivitySource,
  type BalanceChangeSource,
  type Json,
  type LedgerInput,
} from '@xle/documents';
import type { WriteOp } from '../writes.js';

/** The indices of current state: ledger objects, accounts and NFTokens, written with external versions. */
export type StateKind = 'objects' | 'accounts' | 'nfts' | 'deletions' | 'threads';

export interface BatchContext {
  /** The index a ledger-state document (or a hash's locator) is written to. */
  index: (kind: StateKind | 'locators' | 'activity') => string;
  /** The range alias a document of a kind that grows with history is written to. */
  rangeAlias: (kind: RangedKind, ledgerIndex: number) => string;
  /** The network's id for ctids, unless a transaction carries its own. */
  networkId: number;
}

/** The writes of one ledger: its documents in ledger then transaction order, and its account writes apart. */
export interface LedgerWrites {
  writes: WriteOp[];
  /** Account writes: the enrich stage adds activation fields to them before they are written. */
  accounts: WriteOp[];
}

/**
 * The writes of one ledger-object change (pure): its document, or for a deleted entry its guard
 * (written first) and the delete of its document, both at the version of the deleting change.
 * The objects index holds live entries only; see deletions.ts for what the guard protects.
 */
export function objectWrites(
  change: { id: string; version: number; doc: Json },
  ledgerIndex: number,
  index: (kind: StateKind) => string,
): WriteOp[] {
  if (change.doc.deleted !== true)
    return [{ index: index('objects'), id: change.id, doc: change.doc, version: change.version, ledgerIndex }];
  return [
    {
      index: index('deletions'),
      id: change.id,
      doc: { index: change.id, LedgerEntryType: change.doc.LedgerEntryType, ledger_index: ledgerIndex, deleted: true },
      version: change.version,
      ledgerIndex,
      first: true,
    },
    { index: index('objects'), id: change.id, doc: change.doc, version: change.version, ledgerIndex, delete: true },
  ];
}

/**
 * The transform stage of the pipeline (pure): every document one validated ledger yields, with
 * deterministic ids (ledger index, transaction hash, object index, account address) and, for
 * ledger state, the external version that orders changes (ledger index, transaction index).
 */
export function ledgerWrites(ledger: LedgerInput, context: BatchContext): LedgerWrites {
  const writes: WriteOp[] = [
    {
      index: context.rangeAlias('ledgers', ledger.ledger_index),
      id: String(ledger.ledger_index),
      doc: transformLedger(ledger) as unknown as Json,
      ledgerIndex: ledger.ledger_index,
      range: { kind: 'ledgers', ledgerIndex: ledger.ledger_index },
    },
    locator(ledger.ledger_hash, ledger.ledger_index, context),
    balanceMarker(ledger.ledger_index, ledger.close_time, context),
  ];
  const accounts: WriteOp[] = [];
  for (const tx of ledger.transactions) {
    const doc = transformTransaction(tx, {
      ledgerIndex: ledger.ledger_index,
      closeTime: ledger.close_time,
      networkId: context.networkId,
      ledgerHash: ledger.ledger_hash,
    });
    writes.push({
      index: context.rangeAlias('transactions', ledger.ledger_index),
      id: doc.hash,
      doc,
      ledgerIndex: ledger.ledger_index,
      range: { kind: 'transactions', ledgerIndex: ledger.ledger_index },
    });
    writes.push(locator(doc.hash, ledger.ledger_index, context));
    // What each account gained or lost, and each account's and NFT's history entry: written
    // once, like the transaction (ids from its hash).
    const changes = balanceChangeDocuments(doc);
    writes.push(...balanceChangeWrites(doc, context, changes), ...activityWrites(doc, changes, context));
    const dated = { ...tx, _date: doc._date };
    const state = stateChanges(dated, ledger.ledger_index);
    for (const change of state.objects) writes.push(...objectWrites(change, ledger.ledger_index, context.index));
    // Threading alone (no FinalFields): the entry's newest PreviousTxnID, kept beside it (ThreadChange).
    for (const change of state.threads)
      writes.push({
        index: context.index('threads'),
        id: change.id,
        doc: change.doc,
        version: change.version,
        ledgerIndex: ledger.ledger_index,
      });
    // Only a transaction that names an NFToken can have changed one (most name none).
    for (const change of doc._nftokens === undefined ? [] : nftChanges(dated, ledger.ledger_index))
      writes.push({
        index: context.index('nfts'),
        id: change.id,
        doc: change.doc,
        version: change.version,
        ledgerIndex: ledger.ledger_index,
      });
    for (const change of state.accounts) {
      const op: WriteOp = {
        index: context.index('accounts'),
        id: change.id,
        doc: change.doc,
        version: change.version,
        ledgerIndex: ledger.ledger_index,
      };
      if (change.activation !== undefined) op.activation = change.activation;
      accounts.push(op);
    }
  }
  return { writes, accounts };
}

/**
 * The balance-changes documents of one transaction (pure): written once, like the transaction
 * (ids from its hash), into the range of its ledger. The pipeline and `ingest balance-changes`
 * both write them so.
 */
export function balanceChangeWrites(
  tx: BalanceChangeSource,
  context: Pick<BatchContext, 'rangeAlias'>,
  changes: ReturnType<typeof balanceChangeDocuments> = balanceChangeDocuments(tx),
): WriteOp[] {
  return changes.map((change) => ({
    index: context.rangeAlias('balance-changes', tx.ledger_index),
    id: change.id,
    doc: change.doc,
    ledgerIndex: tx.ledger_index,
    range: { kind: 'balance-changes', ledgerIndex: tx.ledger_index },
  }));
}

/**
 * The activity documents of one transaction (pure): one per account it is filed under and NFT it
 * names, routed by that key, written once like the transaction (ids from its hash). The pipeline
 * and `ingest activity` both write them so.
 */
export function activityWrites(
  tx: ActivitySource,
  changes: ReturnType<typeof balanceChangeDocuments>,
  context: Pick<BatchContext, 'index'>,
): WriteOp[] {
  const index = context.index('activity');
  return activityDocuments(tx, changes).map((entry) => ({
    index,
    id: entry.id,
    routing: entry.key,
    doc: entry.doc,
    ledgerIndex: tx.ledger_index,
  }));
}

/**
 * The balance-changes data set's marker of a ledger (pure): written with the ledger's changes, so
 * that readers know the data set holds it (see documents' ledgerMarkerDocument).
 */
export function balanceMarker(
  ledgerIndex: number,
  closeTime: number | undefined,
  context: Pick<BatchContext, 'rangeAlias'>,
): WriteOp {
  const marker = ledgerMarkerDocument(ledgerIndex, closeTime);
  return {
    index: context.rangeAlias('balance-changes', ledgerIndex),
    id: marker.id,
    doc: marker.doc,
    ledgerIndex,
    range: { kind: 'balance-changes', ledgerIndex },
  };
}

/**
 * Where a transaction or ledger hash lives (pure): its ledger, so that a lookup by hash reads one
 * range index by id instead of searching them all (the locators index). Unversioned like the
 * document it locates: a hash belongs to one ledger for good, and a replay writes the same.
 */
export function locator(hash: string, ledgerIndex: number, context: Pick<BatchContext, 'index'>): WriteOp {
  return { index: context.index('locators'), id: hash, doc: { ledger_index: ledgerIndex }, ledgerIndex };
}

/**
 * The writes of a batch that can change what the engine holds: of several versioned writes of one
 * document (an account, a ledger entry or NFToken changed in several ledgers of the batch, or
 * deleted after a change), only the newest, since the engine would refuse the older ones as
 * superseded anyway (external versions) once the newest is there. On ledgers like mainnet's, where
 * the same accounts, order-book directories and offers change ledger after ledger, this saves the
 * engine a large share of its state writes (measured in bench:ingest). Kept as they are: writes
 * without a version (transactions, ledgers), write-once copies, conditional rewrites
 * (`external_gte`), and every write carrying an account's activation, whose version is the one its
 * activation record takes (see activations.ts).
 */
export function newestWrites(ops: readonly WriteOp[]): WriteOp[] {
  const versioned = (op: WriteOp): boolean =>
    op.version !== undefined && op.create !== true && op.versionType === undefined;
  const newest = new Map<string, WriteOp>();
  for (const op of ops) {
    if (!versioned(op)) continue;
    const key = `${op.index}\u0000${op.id}`;
    const held = newest.get(key);
    if (held === undefined || (op.version as number) >= (held.version as number)) newest.set(key, op);
  }
  return ops.filter(
    (op) => !versioned(op) || op.activation !== undefined || newest.get(`${op.index}\u0000${op.id}`) === op,
  );
}
