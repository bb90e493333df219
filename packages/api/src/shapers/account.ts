import { LedgerEntry } from 'xrpl';
import { rawEntry } from '@xle/documents';

const { AccountRootFlags } = LedgerEntry;
import { labelOf, type Labels } from '../labels.js';

type Json = Record<string, unknown>;

/** The settings the account-info flags and fields mean. Pure. */
export function accountSettings(entry: Json): Json {
  const flags = typeof entry.Flags === 'number' ? entry.Flags : 0;
  const has = (flag: number): boolean => (flags & flag) !== 0;
  const settings: Json = {
    requireDestinationTag: has(AccountRootFlags.lsfRequireDestTag),
    requireAuthorization: has(AccountRootFlags.lsfRequireAuth),
    depositAuth: has(AccountRootFlags.lsfDepositAuth),
    disallowIncomingXRP: has(AccountRootFlags.lsfDisallowXRP),
    disableMasterKey: has(AccountRootFlags.lsfDisableMaster),
    noFreeze: has(AccountRootFlags.lsfNoFreeze),
    globalFreeze: has(AccountRootFlags.lsfGlobalFreeze),
    defaultRipple: has(AccountRootFlags.lsfDefaultRipple),
  };
  if (typeof entry.EmailHash === 'string') settings.emailHash = entry.EmailHash;
  if (typeof entry.MessageKey === 'string') settings.messageKey = entry.MessageKey;
  if (typeof entry._Domain === 'string') settings.domain = entry._Domain;
  if (typeof entry.TransferRate === 'number') settings.transferRate = entry.TransferRate / 1e9;
  if (typeof entry.RegularKey === 'string') settings.regularKey = entry.RegularKey;
  if (typeof entry.TickSize === 'number') settings.tickSize = entry.TickSize;
  return settings;
}

/** The spec's Account object from an accounts-index document. Pure. */
export function shapeAccount(doc: Json, labels: Labels): Json {
  // Activation fields live beside the AccountRoot fields in the document; they are not the entry's.
  const { parent: _p, initial_balance: _ib, inception: _i, tx_hash: _t, ...entry } = rawEntry(doc);
  const balance = doc.Balance as { value?: string } | undefined;
  const out: Json = {
    ...entry,
    account: entry.Account,
    sequence: entry.Sequence,
    nativeBalance: balance?.value,
    ownerCount: entry.OwnerCount,
    previousAffectingTransactionID: entry.PreviousTxnID,
    previousAffectingTransactionLedgerVersion: entry.PreviousTxnLgrSeq,
    settings: accountSettings(doc),
    accountName: labelOf(labels, entry.Account),
  };
  if (typeof doc.parent === 'string') {
    Object.assign(out, {
      parent: doc.parent,
      initial_balance: Number(doc.initial_balance),
      inception: doc.inception,
      ledger_index: doc.ledger_index,
      tx_hash: doc.tx_hash,
      parentName: labelOf(labels, doc.parent),
    });
  }
  for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
  return out;
}
