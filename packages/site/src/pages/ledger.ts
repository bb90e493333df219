import { h } from 'preact';
import type { Json } from '@xle/documents';
import type { Engine } from '@xle/api/engine';
import { ledgerById, ledgerTransactions } from '@xle/api/resources/ledgers';
import { LEDGER_INDEX_MAX, LEDGER_INDEX_MIN, LedgerIdParam } from '@xle/api/schemas/params';
import { thingPage, type AnyPage } from '../page.js';
import type { SiteChrome } from '../views/layout.js';
import { LedgerPage, type LedgerProps } from '../views/ledger.js';
import { linkContext, optional } from './common.js';

/** A neighbour's page is linked only when that ledger is indexed. */
async function indexed(engine: Engine, index: number): Promise<boolean> {
  if (index < LEDGER_INDEX_MIN || index > LEDGER_INDEX_MAX) return false;
  return (await optional(ledgerById(engine, String(index)))) !== undefined;
}

/** A ledger (by index or hash), its transactions, and whether its neighbours are indexed. */
export async function loadLedger(engine: Engine, id: string): Promise<LedgerProps> {
  const [ledger, transactions] = await Promise.all([ledgerById(engine, id), ledgerTransactions(engine, id)]);
  const index = Number(ledger.ledger_index);
  const [previous, next] = await Promise.all([indexed(engine, index - 1), indexed(engine, index + 1)]);
  const ctx = await linkContext(engine, transactions as Json[]);
  return { ledger, transactions, previous, next, ctx };
}

/** `/ledger/{LEDGER_INDEX}` (or a 64-hex ledger hash). */
export function ledgerPage(engine: Engine, chrome: SiteChrome): AnyPage {
  return thingPage(
    '/ledger/:LEDGER_INDEX',
    { schema: LedgerIdParam, name: 'a ledger index or ledger hash', cache: 'data-set' },
    async (value) => h(LedgerPage, { chrome, props: await loadLedger(engine, value) }),
  );
}
