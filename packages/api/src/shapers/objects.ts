import { rawEntry, type Json } from '@xle/documents';

/** The spec's object answer: the entry as rippled writes it, with where it was read (pure). */
export function shapeLedgerObject(id: string, doc: Json): Json {
  const answer: Json = { index: id, ledger_index: doc.ledger_index, node: rawEntry(doc), validated: true };
  if (doc.ledger_hash !== undefined) answer.ledger_hash = doc.ledger_hash;
  return answer;
}
