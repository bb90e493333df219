import { createHash } from 'node:crypto';
import type { Json, LedgerInput } from '@xle/documents';

const hash256 = (...parts: string[]): string =>
  createHash('sha512').update(parts.join('|')).digest('hex').slice(0, 64).toUpperCase();

/**
 * More ledgers shaped exactly like real ones, for benchmarks: ledger `i` is a copy of template
 * `i mod n` with a new ledger index (consecutive from `firstIndex`), ledger hash, close time and
 * transaction hashes. Ledger entries keep their ids, so objects are updated again and again, as hot
 * accounts and order books are on mainnet. Deterministic.
 */
export function* deriveLedgers(
  templates: readonly LedgerInput[],
  count: number,
  firstIndex = 90_000_000,
): Generator<LedgerInput> {
  if (templates.length === 0) throw new Error('deriveLedgers needs at least one template ledger');
  const startTime = 780_000_000;
  for (let i = 0; i < count; i += 1) {
    const template = templates[i % templates.length] as LedgerInput;
    const ledgerIndex = firstIndex + i;
    const transactions = template.transactions.map((tx) => {
      const copy = structuredClone(tx) as Json;
      copy.hash = hash256(String(tx.hash), String(ledgerIndex));
      return copy;
    });
    yield {
      ...template,
      ledger_index: ledgerIndex,
      ledger_hash: hash256('ledger', String(ledgerIndex)),
      parent_hash: hash256('ledger', String(ledgerIndex - 1)),
      close_time: startTime + i * 4,
      transactions,
    };
  }
}
