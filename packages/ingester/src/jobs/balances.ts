import BigNumber from 'bignumber.js';
import type { IngestEngine } from '../engine/ingest-engine.js';
import type { AsOf, DataSetDocument } from './data-set.js';

/** How many accounts the rich list keeps (the spec: top 10,000). */
export const RICH_LIST_SIZE = 10_000;

export interface AccountBalance {
  account: string;
  /** XRP balance as the accounts index stores it: an exact decimal string in XRP. */
  xrp: string;
}

/**
 * The rich list, `_id` = account (pure): accounts ranked by balance, largest first, ties by
 * address so the order is stable; `balance` in drops, exact.
 */
export function buildBalanceDocs(
  accounts: readonly AccountBalance[],
  asOf: AsOf,
  size = RICH_LIST_SIZE,
): DataSetDocument[] {
  return accounts
    .map((a) => ({ account: a.account, drops: new BigNumber(a.xrp).shiftedBy(6) }))
    .sort((a, b) => b.drops.comparedTo(a.drops) || (a.account < b.account ? -1 : a.account > b.account ? 1 : 0))
    .slice(0, size)
    .map((a, i) => ({
      _id: a.account,
      doc: {
        rank: i + 1,
        account: a.account,
        balance: a.drops.toNumber(),
        ledger_index: asOf.ledger_index,
        computed_at: asOf.close_time,
      },
    }));
}

/**
 * The candidates: the largest balances by the engine's double-valued sort, plus every account
 * tied with the last one, so the exact ranking by drops in `buildBalanceDocs` cannot miss an
 * account that the rounding of doubles placed just outside.
 */
export async function readTopBalances(engine: IngestEngine, size = RICH_LIST_SIZE): Promise<AccountBalance[]> {
  const live = { bool: { filter: [{ term: { deleted: false } }, { exists: { field: 'Balance._value' } }] } };
  const found = await engine.search<{ Account: string; Balance: { value: string; _value: number } }>('accounts', {
    query: live,
    sort: [{ 'Balance._value': 'desc' }, { Account: 'asc' }],
    size,
    _source: ['Account', 'Balance.value', 'Balance._value'],
  });
  const hits = found.hits.hits.flatMap((h) => (h._source === undefined ? [] : [h._source]));
  const last = hits[hits.length - 1];
  const seen = new Set(hits.map((h) => h.Account));
  if (last !== undefined && hits.length === size) {
    const ties = await engine.search<{ Account: string; Balance: { value: string; _value: number } }>('accounts', {
      query: { bool: { filter: [...live.bool.filter, { term: { 'Balance._value': last.Balance._value } }] } },
      size: 10_000,
      _source: ['Account', 'Balance.value', 'Balance._value'],
    });
    for (const hit of ties.hits.hits)
      if (hit._source !== undefined && !seen.has(hit._source.Account)) hits.push(hit._source);
  }
  return hits.map((h) => ({ account: h.Account, xrp: h.Balance.value }));
}
