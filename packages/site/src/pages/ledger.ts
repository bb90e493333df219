import { h } from 'preact';
import type { Json } from '@xle/documents';
import type { Engine } from '@xle/api/engine';
import { ledgerById, ledgerTransactions } from '@xle/api/resources/ledgers';
import { LEDGER_INDEX_MAX, LEDGER_INDEX_MIN, LedgerIdParam } from '@xle/api/schemas/params';
import { thingPage, type AnyPage } from '../page.js';
import type { SiteChrome } from '../views/layout.js';
import { LedgerPage, type LedgerProps } from '../views/ledger.js';
import { linkContext } from './common.js';

/**
 * The indexed ledger nearest `index` below it (or above, `ascending`): the ledger itself when the
 * history is contiguous there, else the next one the service holds (a gap between them is named
 * by the page). Only the ranges that overlap are asked.
 */
async function nearestIndexed(engine: Engine, index: number, ascending: boolean): Promise<number | undefined> {
  const bound = ascending ? index + 1 : index - 1;
  if (bound < LEDGER_INDEX_MIN || bound > LEDGER_INDEX_MAX) return undefined;
  const found = await engine.searchByLedger<{ ledger_index: number }>(
    'ledgers',
    {
      query: { range: { ledger_index: ascending ? { gte: bound } : { lte: bound } } },
      sort: [{ ledger_index: { order: ascending ? 'asc' : 'desc' } }],
      size: 1,
      track_total_hits: false,
      _source: ['ledger_index'],
    },
    ascending ? { gte: bound, ascending } : { lte: bound },
  );
  const at = found[0]?._source?.ledger_index;
  return typeof at === 'number' ? at : undefined;
}

/** A ledger (by index or hash), its transactions, and the nearest indexed ledgers either side. */
export async function loadLedger(engine: Engine, id: string): Promise<LedgerProps> {
  const [ledger, transactions] = await Promise.all([ledgerById(engine, id), ledgerTransactions(engine, id)]);
  const index = Number(ledger.ledger_index);
  const [previous, next] = await Promise.all([
    nearestIndexed(engine, index, false),
    nearestIndexed(engine, index, true),
  ]);
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
