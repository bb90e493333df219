import { EnableAmendmentFlags, LoanSetFlags, parseTransactionFlags, type Transaction } from 'xrpl';

/** Flags every transaction type may carry (xrpl.js names only each type's own). */
const GLOBAL_FLAGS: readonly (readonly [number, string])[] = [
  [0x80000000, 'tfFullyCanonicalSig'],
  [0x40000000, 'tfInnerBatchTxn'],
];

/**
 * A transaction's Flags by name (pure): its type's flags as xrpl.js reads them, the flags every
 * type may carry, and any bit neither names as its hex value, so nothing set is hidden.
 */
export function transactionFlagNames(tx: Record<string, unknown>): string[] {
  const flags = Number(tx.Flags ?? 0) >>> 0;
  const names: string[] = [];
  for (let bit = 0; bit < 32; bit += 1) {
    const value = (2 ** bit) >>> 0;
    if ((flags & value) >>> 0 === 0) continue;
    const global = GLOBAL_FLAGS.find(([b]) => b === value)?.[1];
    names.push(global ?? typeFlagName(tx, value) ?? `0x${value.toString(16).padStart(8, '0')}`);
  }
  return names;
}

/**
 * Flag sets xrpl.js defines but leaves out of parseTransactionFlags (its txToFlag table): an
 * EnableAmendment's tfGotMajority / tfLostMajority (rippled's TxFlags.h), a LoanSet's flags.
 */
const UNPARSED_FLAGS: Readonly<Record<string, Readonly<Record<string, string | number>>>> = {
  EnableAmendment: EnableAmendmentFlags,
  LoanSet: LoanSetFlags,
};

/** The name xrpl.js gives one bit of this transaction type's flags, if any. */
function typeFlagName(tx: Record<string, unknown>, bit: number): string | undefined {
  const table = UNPARSED_FLAGS[String(tx.TransactionType)];
  if (table !== undefined) return Object.entries(table).find(([, value]) => value === bit)?.[0];
  try {
    const parsed = parseTransactionFlags({ ...tx, Flags: bit } as unknown as Transaction);
    return Object.entries(parsed).find(([, set]) => set === true)?.[0];
  } catch {
    return undefined;
  }
}

/** A Payment that may deliver less than its Amount (tfPartialPayment) (pure). */
export function isPartialPayment(tx: Record<string, unknown>): boolean {
  return tx.TransactionType === 'Payment' && ((Number(tx.Flags ?? 0) >>> 0) & 0x00020000) !== 0;
}
