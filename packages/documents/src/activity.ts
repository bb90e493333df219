import type { BalanceChangeDoc } from './balance-changes.js';
import { isRecord, type Json } from './json.js';

/**
 * The activity index: one small document per (key, transaction), routed by its key, so that a
 * page of one account's (or one NFT's) history is read on one shard whatever the number of range
 * indices the history spans, and its transactions then by id from the ranges that hold them (as a
 * transaction by hash is). The key is an account (the accounts rippled files the transaction
 * under: `_accounts`, TxMeta::getAffectedAccounts) or an NFToken id (the NFTs it names:
 * `_nftokens`). Each document carries what the history pages filter on, so a filtered page is
 * answered on that shard too. An account's opening balances of a state snapshot have one document
 * each (no transaction), so its balance-change pages are read the same way.
 */

/** What a balance-change page filters on, for one of the account's changes in the transaction. */
export interface ActivityChange {
  /** The balance-change document's id (`<hash>.<position>`, or an opening balance's). */
  id: string;
  /** Its order among the transaction's changes (an opening balance's, among the snapshot's). */
  position: number;
  currency: string;
  currency_hex: string;
  issuer?: string;
  kind: string;
}

export interface ActivityDoc extends Json {
  key: string;
  ledger_index: number;
  transaction_index: number;
  /** Order within a transaction's documents of one key: 0 for a transaction, an opening balance's position. */
  position: number;
  /** ISO close time of the ledger (absent on an opening balance of a snapshot whose ledger is not indexed). */
  date?: string;
  /** Set on a transaction's document (not on an opening balance's). */
  hash?: string;
  type?: string;
  result?: string;
  /** The key is the transaction's sender (`Account`). */
  sent?: true;
  /** The key is the transaction's `Destination`. */
  received?: true;
  destination_tag?: number;
  source_tag?: number;
  /** Currency codes of the transaction's amounts (as written and decoded), as the currency filter reads them. */
  currencies?: string[];
  /** The key's balance changes in this transaction, in order (only the ids and what their filters read). */
  changes?: ActivityChange[];
  /** Flat lists of `changes` for the engine's filters (a change of each asset, issuer, kind). */
  change_currencies?: string[];
  change_issuers?: string[];
  change_kinds?: string[];
  /** One of the changes opens the account's history (its creation, or a snapshot's opening balance). */
  starts?: true;
}

/** The amount fields the transaction pages' currency filter reads (their code, written or decoded). */
const CURRENCY_FIELDS = ['Amount', 'SendMax', 'TakerGets', 'TakerPays', 'LimitAmount'] as const;

/** A transaction document's fields this module reads. */
export interface ActivitySource {
  hash: string;
  ledger_index: number;
  _date: string;
  _accounts: readonly string[];
  _nftokens?: readonly string[];
  TransactionType?: unknown;
  Account?: unknown;
  Destination?: unknown;
  DestinationTag?: unknown;
  SourceTag?: unknown;
  meta: Json;
  [field: string]: unknown;
}

/** The id of a key's activity document of a transaction (or of an opening balance). */
export function activityId(key: string, of: string): string {
  return `${key}.${of}`;
}

function currenciesOf(tx: ActivitySource): string[] {
  const found = new Set<string>();
  const amounts = [...CURRENCY_FIELDS.map((f) => tx[f]), tx.meta.delivered_amount];
  for (const amount of amounts) {
    if (!isRecord(amount)) continue;
    if (typeof amount.currency === 'string') found.add(amount.currency);
    if (typeof amount._currency === 'string') found.add(amount._currency);
  }
  return [...found].sort();
}

const tagOf = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;

/** The filter lists of a document's changes (`change_currencies`, `change_issuers`, `change_kinds`). */
function withChangeLists(doc: ActivityDoc, changes: readonly ActivityChange[]): ActivityDoc {
  if (changes.length === 0) return doc;
  doc.changes = [...changes];
  doc.change_currencies = [...new Set(changes.flatMap((c) => [c.currency, c.currency_hex]))].sort();
  const issuers = [...new Set(changes.flatMap((c) => (c.issuer === undefined ? [] : [c.issuer])))].sort();
  if (issuers.length > 0) doc.change_issuers = issuers;
  doc.change_kinds = [...new Set(changes.map((c) => c.kind))].sort();
  return doc;
}

function changeOf(id: string, change: BalanceChangeDoc): ActivityChange {
  const out: ActivityChange = {
    id,
    position: change.position,
    currency: change.currency,
    currency_hex: change.currency_hex,
    kind: change.kind,
  };
  if (change.issuer !== undefined) out.issuer = change.issuer;
  return out;
}

/**
 * The activity documents of one transaction (pure): one for each account it is filed under and
 * each NFT it names, with that account's balance changes (`changes`: the documents
 * balanceChangeDocuments makes of the same transaction).
 */
export function activityDocuments(
  tx: ActivitySource,
  balanceChanges: readonly { id: string; doc: BalanceChangeDoc }[],
): Array<{ id: string; key: string; doc: ActivityDoc }> {
  const transactionIndex = typeof tx.meta.TransactionIndex === 'number' ? tx.meta.TransactionIndex : 0;
  const result = typeof tx.meta.TransactionResult === 'string' ? tx.meta.TransactionResult : undefined;
  const type = typeof tx.TransactionType === 'string' ? tx.TransactionType : undefined;
  const currencies = currenciesOf(tx);
  const destinationTag = tagOf(tx.DestinationTag);
  const sourceTag = tagOf(tx.SourceTag);
  const byAccount = new Map<string, { changes: ActivityChange[]; starts: boolean }>();
  for (const { id, doc } of balanceChanges) {
    const held = byAccount.get(doc.account) ?? { changes: [], starts: false };
    held.changes.push(changeOf(id, doc));
    if (doc.history_start === true) held.starts = true;
    byAccount.set(doc.account, held);
  }
  const base = (key: string): ActivityDoc => {
    const doc: ActivityDoc = {
      key,
      ledger_index: tx.ledger_index,
      transaction_index: transactionIndex,
      position: 0,
      date: tx._date,
      hash: tx.hash,
    };
    if (type !== undefined) doc.type = type;
    if (result !== undefined) doc.result = result;
    return doc;
  };
  const out: Array<{ id: string; key: string; doc: ActivityDoc }> = [];
  for (const account of tx._accounts) {
    const doc = base(account);
    if (tx.Account === account) doc.sent = true;
    if (tx.Destination === account) doc.received = true;
    if (destinationTag !== undefined) doc.destination_tag = destinationTag;
    if (sourceTag !== undefined) doc.source_tag = sourceTag;
    if (currencies.length > 0) doc.currencies = currencies;
    const held = byAccount.get(account);
    if (held !== undefined) {
      withChangeLists(doc, held.changes);
      if (held.starts) doc.starts = true;
    }
    out.push({ id: activityId(account, tx.hash), key: account, doc });
  }
  for (const nft of tx._nftokens ?? []) out.push({ id: activityId(nft, tx.hash), key: nft, doc: base(nft) });
  return out;
}

/**
 * The activity document of one opening balance of a state snapshot (pure): the account's history
 * starts there, after every transaction of the snapshot's ledger (its position orders the
 * account's openings as their balance-change documents are ordered).
 */
export function openingActivityDocument(opening: { id: string; doc: BalanceChangeDoc }): {
  id: string;
  key: string;
  doc: ActivityDoc;
} {
  const { doc: change } = opening;
  const doc: ActivityDoc = {
    key: change.account,
    ledger_index: change.ledger_index,
    transaction_index: change.transaction_index,
    position: change.position,
    starts: true,
  };
  if (change.date !== undefined) doc.date = change.date;
  withChangeLists(doc, [changeOf(opening.id, change)]);
  return { id: activityId(change.account, opening.id), key: change.account, doc };
}
