import { dropsToXrpString, normalizeAmount, rawAmount, type AmountDoc } from './amount.js';
import { isAmountField } from './amount-fields.js';
import { trustLineFields } from './tokens.js';
import { addDecodedTwins } from './twins.js';
import { isRecord, type Json } from './json.js';

/**
 * Order of a change: ledger index, then transaction index. Used as the engine's external version,
 * so a replay of an older ledger after a newer one can never overwrite newer state.
 */
export function changeVersion(ledgerIndex: number, transactionIndex: number): number {
  return ledgerIndex * 65536 + transactionIndex;
}

/** Entry types that are not threaded (no PreviousTxnID) in rippled. */
const UNTHREADED = new Set(['DirectoryNode', 'Amendments', 'FeeSettings', 'LedgerHashes', 'NegativeUNL']);
const ACCOUNT_FIELDS = ['Account', 'Owner', 'Destination', 'Issuer', 'Authorize', 'Holder', 'Subject'];

export interface ObjectDoc extends Json {
  index: string;
  LedgerEntryType: string;
  ledger_index: number;
  deleted: boolean;
  _accounts: string[];
}

export interface StateChange {
  id: string;
  version: number;
  doc: ObjectDoc;
}

export interface AccountActivation {
  parent: string;
  initial_balance: string;
  _initial_balance: number;
  inception: string;
  ledger_index: number;
  tx_hash: string;
}

/**
 * A change that only threaded an entry: a ModifiedNode without FinalFields, whose sole effect is
 * to move the entry's PreviousTxnID / PreviousTxnLgrSeq to this transaction (rippled threads the
 * AccountRoots a transaction touches, ApplyStateTable::threadItem, src/xrpld/ledger/detail/
 * ApplyStateTable.cpp, and old metadata, or one whose other fields did not change, lists no
 * FinalFields). The entry's other fields are not in the metadata, so it is not a new state of
 * the entry but a record of its newest threading: `threads` holds it at the change's version and
 * readers take whichever of the entry and its record is newer.
 */
export interface ThreadChange {
  id: string;
  version: number;
  doc: {
    index: string;
    LedgerEntryType: string;
    PreviousTxnID: string;
    PreviousTxnLgrSeq: number;
    ledger_index: number;
  };
}

export interface AccountChange {
  id: string;
  version: number;
  doc: Json;
  /** Present when this transaction created the account. */
  activation?: AccountActivation;
}

/**
 * Searchable fields of a ledger entry: amounts normalised, hex decoded, ISO times added. Lossless:
 * `rawEntry` gives the entry back exactly, so documents need not carry a second, raw copy.
 */
export function entryFields(entry: Json): Json {
  return normalizeEntryInPlace({ ...entry });
}

/** entryFields on an object this module just built and owns (saves a copy per entry). */
function normalizeEntryInPlace(fields: Json): Json {
  for (const name of Object.keys(fields)) {
    if (!isAmountField(name) || fields[name] === undefined) continue;
    const normalized = normalizeAmount(fields[name]);
    if (normalized === undefined) delete fields[name];
    else fields[name] = normalized;
  }
  addDecodedTwins(fields);
  if (fields.LedgerEntryType === 'RippleState') Object.assign(fields, trustLineFields(fields));
  return fields;
}

/** Fields the indexer adds to an entry; everything else is the entry's own. */
const DERIVED_KEYS = new Set(['ledger_index', 'ledger_hash', 'deleted', '_accounts', '_updated_ledger_index']);

/** The ledger entry exactly as rippled writes it, from a document built by entryFields. */
export function rawEntry(doc: Json): Json {
  const entry: Json = {};
  for (const [key, value] of Object.entries(doc)) {
    if (key.startsWith('_') || DERIVED_KEYS.has(key)) continue;
    entry[key] =
      isAmountField(key) && isRecord(value) && 'native' in value ? rawAmount(value as unknown as AmountDoc) : value;
  }
  return entry;
}

function entryAccounts(entry: Json): string[] {
  const found = new Set<string>();
  for (const name of ACCOUNT_FIELDS) if (typeof entry[name] === 'string') found.add(entry[name]);
  for (const limit of ['HighLimit', 'LowLimit']) {
    const value = entry[limit];
    if (isRecord(value) && typeof value.issuer === 'string') found.add(value.issuer);
  }
  return [...found].sort();
}

/**
 * The objects-index document of one ledger entry (`entry` is this function's to change: a fresh
 * object with `index` and `LedgerEntryType`), as of `ledgerIndex`.
 */
export function objectDocument(entry: Json, ledgerIndex: number, deleted: boolean): ObjectDoc {
  const accountsOfEntry = entryAccounts(entry);
  const doc = normalizeEntryInPlace(entry) as ObjectDoc;
  doc.ledger_index = ledgerIndex;
  doc.deleted = deleted;
  doc._accounts = accountsOfEntry;
  return doc;
}

/** The accounts-index document of an AccountRoot's object document (without activation fields). */
export function accountDocument(doc: ObjectDoc): Json {
  const { _accounts: _unused, ledger_index: ledgerIndex, ...state } = doc;
  return { ...state, _updated_ledger_index: ledgerIndex };
}

/**
 * The required fields of ledger entries that rippled leaves out of a CreatedNode's NewFields when
 * they hold their zero value (metadata writes only non-default fields): a ledger entry rebuilt
 * from metadata carries them, as `ledger_entry` would show it. Flags is required on every entry.
 */
const OWNER_NODE = { OwnerNode: '0' };
export const CREATED_ENTRY_DEFAULTS: Readonly<Record<string, Json>> = {
  AccountRoot: { OwnerCount: 0 },
  AMM: OWNER_NODE,
  Check: { ...OWNER_NODE, DestinationNode: '0' },
  DepositPreauth: OWNER_NODE,
  Escrow: OWNER_NODE,
  NFTokenOffer: { ...OWNER_NODE, NFTokenOfferNode: '0' },
  Offer: { ...OWNER_NODE, BookNode: '0' },
  PayChannel: OWNER_NODE,
  SignerList: { ...OWNER_NODE, SignerListID: 0 },
  Ticket: OWNER_NODE,
};

/** NewFields completed with the zero-valued fields rippled left out (Flags first). */
function withCreatedDefaults(type: string, fields: Json): Json {
  const defaults: Json = { Flags: 0, ...CREATED_ENTRY_DEFAULTS[type] };
  // An escrow to another account has a page in the destination's directory too.
  if (type === 'Escrow' && fields.Destination !== undefined && fields.Destination !== fields.Account)
    defaults.DestinationNode = '0';
  return { ...defaults, ...fields };
}

/**
 * Ledger-object changes of one transaction, from its metadata's AffectedNodes: Created and
 * Modified nodes give the entry's new full state (NewFields / FinalFields), Deleted nodes a
 * tombstone (kept so that an older replay cannot bring the entry back). Pure.
 */
export function stateChanges(
  tx: Json,
  ledgerIndex: number,
): { objects: StateChange[]; accounts: AccountChange[]; threads: ThreadChange[] } {
  const meta = (isRecord(tx.metaData) ? tx.metaData : isRecord(tx.meta) ? tx.meta : {}) as Json;
  const txIndex = typeof meta.TransactionIndex === 'number' ? meta.TransactionIndex : 0;
  const version = changeVersion(ledgerIndex, txIndex);
  const hash = String(tx.hash ?? '').toUpperCase();
  const objects: StateChange[] = [];
  const accounts: AccountChange[] = [];
  const threads: ThreadChange[] = [];
  for (const wrapper of Array.isArray(meta.AffectedNodes) ? (meta.AffectedNodes as unknown[]) : []) {
    if (!isRecord(wrapper)) continue;
    const [kind, node] = Object.entries(wrapper)[0] ?? [];
    if (!isRecord(node) || typeof node.LedgerIndex !== 'string' || typeof node.LedgerEntryType !== 'string') continue;
    const type = node.LedgerEntryType;
    const raw = kind === 'CreatedNode' ? node.NewFields : node.FinalFields;
    if (kind === 'ModifiedNode' && raw === undefined && !UNTHREADED.has(type)) {
      const id = node.LedgerIndex.toUpperCase();
      threads.push({
        id,
        version,
        doc: {
          index: id,
          LedgerEntryType: type,
          PreviousTxnID: hash,
          PreviousTxnLgrSeq: ledgerIndex,
          ledger_index: ledgerIndex,
        },
      });
      continue;
    }
    if (!isRecord(raw)) continue;
    const fields = kind === 'CreatedNode' ? withCreatedDefaults(type, raw) : raw;
    const deleted = kind === 'DeletedNode';
    const entry: Json = { ...fields, LedgerEntryType: type, index: node.LedgerIndex.toUpperCase() };
    if (!deleted && !UNTHREADED.has(type)) {
      entry.PreviousTxnID = hash;
      entry.PreviousTxnLgrSeq = ledgerIndex;
    }
    const doc = objectDocument(entry, ledgerIndex, deleted);
    objects.push({ id: doc.index, version, doc });

    if (type === 'AccountRoot' && typeof entry.Account === 'string') {
      const change: AccountChange = { id: entry.Account, version, doc: accountDocument(doc) };
      if (kind === 'CreatedNode' && typeof fields.Balance === 'string') {
        const initial = dropsToXrpString(fields.Balance);
        change.activation = {
          parent: String(tx.Account ?? ''),
          initial_balance: initial,
          _initial_balance: Number(initial),
          inception: typeof tx._date === 'string' ? tx._date : '',
          ledger_index: ledgerIndex,
          tx_hash: hash,
        };
      }
      accounts.push(change);
    }
  }
  return { objects, accounts, threads };
}

/**
 * An entry's threading fields as of its newest change: its own, or those of its thread record
 * (see ThreadChange) when the record's version is newer than the entry document's, which then
 * was also last modified in the record's ledger (`ledger_index` of an object document,
 * `_updated_ledger_index` of an account document). Pure; the entry is returned unchanged when the
 * record is older or absent.
 */
export function withNewestThreading<T extends Json>(
  entry: T,
  entryVersion: number | undefined,
  thread: { version: number; doc: Partial<ThreadChange['doc']> } | undefined,
): T {
  if (thread === undefined || (entryVersion !== undefined && thread.version <= entryVersion)) return entry;
  const newer: Json = {
    ...entry,
    PreviousTxnID: thread.doc.PreviousTxnID,
    PreviousTxnLgrSeq: thread.doc.PreviousTxnLgrSeq,
  };
  if (typeof thread.doc.ledger_index === 'number') {
    if ('ledger_index' in entry) newer.ledger_index = thread.doc.ledger_index;
    if ('_updated_ledger_index' in entry) newer._updated_ledger_index = thread.doc.ledger_index;
  }
  return newer as T;
}
