import { createHash } from 'node:crypto';

/** Ledger objects with a fixed id: the id is SHA-512Half of their two-byte ledger space key. */
export const FIXED_SPACES = { Amendments: 'f', FeeSettings: 'e', NegativeUNL: 'N', LedgerHashes: 's' } as const;
export type FixedObjectName = keyof typeof FIXED_SPACES;
export const FIXED_OBJECT_IDS: Record<FixedObjectName, string> = Object.fromEntries(
  Object.entries(FIXED_SPACES).map(([name, space]) => [
    name,
    createHash('sha512')
      .update(Buffer.from([0, space.charCodeAt(0)]))
      .digest('hex')
      .slice(0, 64)
      .toUpperCase(),
  ]),
) as Record<FixedObjectName, string>;
