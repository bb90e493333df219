import type { IngestEngine } from '../engine/ingest-engine.js';
import type { WriteOp } from '../writes.js';
import { locator } from './batch.js';

/** Locators written per request while filling them in. */
const PAGE = 1000;

export interface LocatorFill {
  /** Documents read from the transactions and ledgers ranges. */
  read: number;
  /** Locators that were missing and are now written. */
  written: number;
}

/**
 * Writes the locators (batch.ts `locator`) that transactions and ledgers indexed before the
 * locators index existed lack: every range of both kinds is read through a point in time
 * (`_id` and `ledger_index` only), each page's locators are read by id, and the missing ones are
 * written. Idempotent and safe beside running writers (a locator is the same whoever writes it).
 */
export async function fillLocators(
  engine: IngestEngine,
  onProgress: (fill: LocatorFill) => void = () => undefined,
): Promise<LocatorFill> {
  const fill: LocatorFill = { read: 0, written: 0 };
  const flush = async (page: { hash: string; ledgerIndex: number }[]): Promise<void> => {
    if (page.length === 0) return;
    const held = await engine.mget<unknown>(
      'locators',
      page.map((p) => p.hash),
      ['ledger_index'],
    );
    const missing: WriteOp[] = page.filter((p) => !held.has(p.hash)).map((p) => locator(p.hash, p.ledgerIndex, engine));
    if (missing.length > 0) {
      const result = await engine.write(missing);
      if (result.deadLetters > 0)
        throw new Error(`${result.deadLetters} locators could not be written (see dead-letters)`);
    }
    fill.read += page.length;
    fill.written += missing.length;
    onProgress(fill);
  };
  for (const kind of ['transactions', 'ledgers'] as const) {
    let page: { hash: string; ledgerIndex: number }[] = [];
    const fields = kind === 'transactions' ? ['ledger_index'] : ['ledger_index', 'ledger_hash'];
    for await (const hit of engine.scanAll<{ ledger_index?: number; ledger_hash?: string }>(kind, {
      _source: fields,
    })) {
      const ledgerIndex = hit._source?.ledger_index;
      const hash = kind === 'transactions' ? hit._id : hit._source?.ledger_hash;
      if (typeof ledgerIndex !== 'number' || hash === undefined) continue;
      page.push({ hash, ledgerIndex });
      if (page.length === PAGE) {
        await flush(page);
        page = [];
      }
    }
    await flush(page);
  }
  return fill;
}
