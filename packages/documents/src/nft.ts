import { encodeAccountID } from 'xrpl';

/** NFToken flags (XLS-20), by bit. */
const NFT_FLAGS: [number, string][] = [
  [0x0001, 'tfBurnable'],
  [0x0002, 'tfOnlyXRP'],
  [0x0004, 'tfTrustLine'],
  [0x0008, 'tfTransferable'],
  [0x0010, 'tfMutable'],
];

/** The names of the flags set in an NFToken's flags (pure). */
export function parseNftFlags(flags: number): string[] {
  return NFT_FLAGS.filter(([bit]) => (flags & bit) !== 0).map(([, name]) => name);
}

/** An NFTokenPage's id starts with its owner's 160-bit AccountID (XLS-20). */
export function pageOwner(pageIndex: string): string {
  return encodeAccountID(Buffer.from(pageIndex.slice(0, 40), 'hex'));
}
