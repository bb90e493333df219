import BigNumber from 'bignumber.js';
import { decodeCurrency, rawBalanceChanges, tokenId } from '@xle/documents';

/** One balance of one account that a transaction changed. */
export interface BalanceChange {
  /** XRP, or the currency as the ledger writes it. */
  currency: string;
  /** Readable code. */
  code: string;
  /** The other side of the trust line: the issuer, seen from a holder. Absent for XRP. */
  counterparty?: string;
  /** `<currency_hex>.<counterparty>`, the token this balance is in (absent for XRP). */
  token?: string;
  /** Signed exact change: positive when the account gained. */
  value: string;
  /**
   * This side of the trust line is the issuer's (it owes the token: its balance is below zero,
   * before or after): its change mirrors its holder's, and a page may fold it.
   */
  issuing?: boolean;
}

export interface AccountBalanceChanges {
  account: string;
  changes: BalanceChange[];
}

/**
 * What each account gained or lost, read from the metadata (pure) by the documents package's
 * reading, the one the balance-changes data set is written with: XRP in XRP (the sender's
 * includes the fee it burnt), each trust line from both sides with the other side as
 * counterparty. Accounts appear in the order the metadata first names them; unchanged balances
 * are left out.
 */
export function balanceChanges(meta: unknown): AccountBalanceChanges[] {
  const byAccount = new Map<string, BalanceChange[]>();
  for (const raw of rawBalanceChanges(meta)) {
    if (raw.value === '0') continue;
    const change: BalanceChange =
      raw.issuer === undefined
        ? { currency: 'XRP', code: 'XRP', value: raw.value }
        : { currency: raw.currency, code: decodeCurrency(raw.currency), counterparty: raw.issuer, value: raw.value };
    const token = raw.issuer === undefined ? undefined : tokenId(raw.currency, raw.issuer);
    if (token !== undefined) change.token = token;
    if (raw.issuer !== undefined) {
      const after = new BigNumber(raw.balance);
      if (after.isNegative() || after.minus(raw.value).isNegative()) change.issuing = true;
    }
    const list = byAccount.get(raw.account) ?? [];
    list.push(change);
    byAccount.set(raw.account, list);
  }
  return [...byAccount].map(([account, changes]) => ({ account, changes }));
}
