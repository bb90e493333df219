import type { Json } from '@xle/documents';

/** The spec's Ledger object; `destroyed_coins` only in the ledgers list. Pure. */
export function shapeLedger(doc: Json, options: { withDestroyed?: boolean } = {}): Json {
  const out: Json = {
    ledger_index: doc.ledger_index,
    ledger_hash: doc.ledger_hash,
    parent_hash: doc.parent_hash,
    account_hash: doc.account_hash,
    transaction_hash: doc.transaction_hash,
    close_flags: doc.close_flags ?? 0,
    close_time: doc.close_time,
    close_time_human: doc.close_time_human,
    close_time_resolution: doc.close_time_resolution,
    parent_close_time: doc.parent_close_time,
    tx_count: doc.tx_count,
    // Drops of XRP in existence: above 2^53, so a BigInt, written as an exact literal (core toJson).
    total_coins: BigInt(doc.total_coins as string),
    validated: true,
  };
  if (options.withDestroyed === true) out.destroyed_coins = doc.destroyed_coins;
  for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
  return out;
}

/** The spec's latest-ledgers answer: the newest ledger's index and the ledgers, newest first (pure). */
export function shapeLatestLedgers(docs: readonly Json[]): Json {
  const ledgers = docs.map((doc) => shapeLedger(doc, { withDestroyed: true }));
  return { current_ledger: ledgers[0]?.ledger_index ?? null, ledgers };
}
