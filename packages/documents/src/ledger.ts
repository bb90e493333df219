import type { LedgerInput } from './ledger-input.js';
import { rippleTimeToIso } from './time.js';

/** The ledgers-index document: the header as rippled gives it plus derived fields. */
export interface LedgerDoc extends Omit<LedgerInput, 'transactions' | 'binary'> {
  close_time_human: string;
  _total_coins: number;
  tx_count: number;
  /** Drops destroyed by this ledger's transaction fees. */
  destroyed_coins: number;
  validated: true;
}

/** The ledgers-index document (the spec's Ledger fields). Pure. */
export function transformLedger(ledger: LedgerInput): LedgerDoc {
  const { transactions, binary: _binary, ...header } = ledger;
  const destroyed = transactions.reduce((sum, tx) => sum + (typeof tx.Fee === 'string' ? Number(tx.Fee) : 0), 0);
  return {
    ...header,
    close_time_human: rippleTimeToIso(ledger.close_time),
    _total_coins: Number(ledger.total_coins),
    tx_count: transactions.length,
    destroyed_coins: destroyed,
    validated: true,
  };
}
