/**
 * Compact transaction identifier, XLS-37 (https://github.com/XRPLF/XRPL-Standards/tree/master/XLS-0037-concise-transaction-identifier-ctid):
 * 64 bits = 0xC (4 bits) | ledger index (28 bits) | transaction index (16 bits) | network id (16 bits),
 * written as 16 upper-case hex digits. Undefined when a part is out of range (ledger index >= 2^28).
 */
export interface CtidParts {
  ledgerIndex: number;
  transactionIndex: number;
  networkId: number;
}

const LEDGER_MAX = 0x0fffffff;
const U16_MAX = 0xffff;

export function encodeCtid({ ledgerIndex, transactionIndex, networkId }: CtidParts): string | undefined {
  const inRange = (v: number, max: number): boolean => Number.isInteger(v) && v >= 0 && v <= max;
  if (!inRange(ledgerIndex, LEDGER_MAX) || !inRange(transactionIndex, U16_MAX) || !inRange(networkId, U16_MAX)) {
    return undefined;
  }
  const value = (0xcn << 60n) | (BigInt(ledgerIndex) << 32n) | (BigInt(transactionIndex) << 16n) | BigInt(networkId);
  return value.toString(16).toUpperCase().padStart(16, '0');
}

const CTID_PATTERN = /^C[0-9A-F]{15}$/i;

export function isCtid(value: string): boolean {
  return CTID_PATTERN.test(value);
}

export function decodeCtid(ctid: string): CtidParts {
  if (!isCtid(ctid)) throw new RangeError(`not a ctid: ${ctid}`);
  const value = BigInt(`0x${ctid}`);
  return {
    ledgerIndex: Number((value >> 32n) & 0x0fffffffn),
    transactionIndex: Number((value >> 16n) & 0xffffn),
    networkId: Number(value & 0xffffn),
  };
}
