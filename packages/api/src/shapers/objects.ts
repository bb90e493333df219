import { rawEntry, type Json } from '@xle/documents';

/** The spec's object answer: the entry as rippled writes it, with where it was read (pure). */
export function shapeLedgerObject(id: string, doc: Json, ledgerHash: string | null): Json {
  return { index: id, ledger_hash: ledgerHash, ledger_index: doc.ledger_index, node: rawEntry(doc), validated: true };
}
