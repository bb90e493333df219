import type { LedgerInput } from '../input/normalize-ledger.js';
import { rippleTimeToIso } from './time.js';

export interface LedgerDoc {
  ledger_index: number;
  ledger_hash: string;
  parent_hash: string;
  account_hash?: string;
  transaction_hash?: string;
  close_time: number;
  close_time_human: string;
  close_time_resolution?: number;
  close_flags?: number;
  parent_close_time?: number;
  total_coins: string;
  _total_coins: number;
  tx_count: number;
  /** Drops destroyed by this ledger's transaction fees. */
  destroyed_coins: number;
  validated: true;
}

/** The ledgers-index document (the spec's Ledger fields). Pure. */
export function transformLedger(ledger: LedgerInput): LedgerDoc {
  const destroyed = ledger.transactions.reduce((sum, tx) => sum + (typeof tx.Fee === 'string' ? Number(tx.Fee) : 0), 0);
  const doc: LedgerDoc = {
    ledger_index: ledger.ledger_index,
    ledger_hash: ledger.ledger_hash,
    parent_hash: ledger.parent_hash,
    close_time: ledger.close_time,
    close_time_human: rippleTimeToIso(ledger.close_time),
    total_coins: ledger.total_coins,
    _total_coins: Number(ledger.total_coins),
    tx_count: ledger.transactions.length,
    destroyed_coins: destroyed,
    validated: true,
  };
  if (ledger.account_hash !== undefined) doc.account_hash = ledger.account_hash;
  if (ledger.transaction_hash !== undefined) doc.transaction_hash = ledger.transaction_hash;
  if (ledger.close_time_resolution !== undefined) doc.close_time_resolution = ledger.close_time_resolution;
  if (ledger.close_flags !== undefined) doc.close_flags = ledger.close_flags;
  if (ledger.parent_close_time !== undefined) doc.parent_close_time = ledger.parent_close_time;
  return doc;
}
