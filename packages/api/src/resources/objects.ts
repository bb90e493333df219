import { NotFoundError } from '@xle/core';
import { FIXED_OBJECT_IDS, type FixedObjectName, type Json } from '@xle/documents';
import type { Engine } from '../engine.js';
import { shapeLedgerObject } from '../shapers/objects.js';

/** GET /object/{OBJECT_ID}: a ledger object by id or by one of the fixed names. */
export async function ledgerObject(engine: Engine, objectId: string): Promise<Json> {
  const id = FIXED_OBJECT_IDS[objectId as FixedObjectName] ?? objectId.toUpperCase();
  const doc = await engine.getThreaded<Json>('objects', id, id);
  if (doc === undefined || doc.deleted === true)
    throw new NotFoundError(`Ledger object ${id} is not in the indexed state.`, { index: id });
  // The hash of the ledger the entry was last written in, when that ledger is indexed.
  const ledgerIndex = Number(doc.ledger_index);
  const ledger = Number.isSafeInteger(ledgerIndex)
    ? await engine.getInRange<{ ledger_hash?: string }>('ledgers', ledgerIndex, String(ledgerIndex))
    : undefined;
  return shapeLedgerObject(id, doc, ledger?.ledger_hash ?? null);
}
