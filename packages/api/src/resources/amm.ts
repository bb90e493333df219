import { NotFoundError } from '@xle/core';
import type { Json } from '@xle/documents';
import type { Engine } from '../engine.js';
import {
  buildAmmLinesQuery,
  buildAmmOfAccountQuery,
  buildAmmOfAccountsQuery,
  buildAmmPoolLinesQuery,
  buildAmmPoolsQuery,
} from '../queries/amm.js';
import { issueOf, poolSide, shapeAmmInfo, shapeAmmPool, xrpOf, type PoolSide } from '../shapers/amm.js';
import { latestLedger } from './ledgers.js';

/** A page of the live AMM entries. */
async function poolEntries(engine: Engine, limit: number, offset: number): Promise<Json[]> {
  const found = await engine.search<Json>('objects', buildAmmPoolsQuery(limit, offset));
  return found.hits.hits.map((h) => h._source ?? {});
}

/** The pools' account roots, by address. */
const poolRoots = (engine: Engine, amms: readonly Json[]): Promise<Map<string, Json>> =>
  engine.mget<Json>(
    'accounts',
    amms.map((a) => a.Account as string),
  );

/** GET /amm/pools: a page of AMM pools with the XRP their accounts hold (null when not indexed). */
export async function ammPools(engine: Engine, limit: number, offset: number): Promise<Json[]> {
  const amms = await poolEntries(engine, limit, offset);
  const roots = await poolRoots(engine, amms);
  return amms.map((amm) => shapeAmmPool(amm, xrpOf(roots.get(amm.Account as string))));
}

/** What a pool holds of its two assets, as amm_info's `amount` and `amount2`. */
export type PoolAmounts = { amount: PoolSide['amount']; amount2: PoolSide['amount'] };

/**
 * A page of AMM pools (as GET /amm/pools) and what each holds of its two assets, as amm_info's
 * `amount` and `amount2` (drops text or an issued amount; null where the account root or trust
 * line is not indexed): the roots read once for both, beside one search of the token sides'
 * trust lines for the whole page.
 */
export async function ammPoolsWithAmounts(
  engine: Engine,
  limit: number,
  offset: number,
): Promise<{ pools: Json[]; amounts: Map<string, PoolAmounts> }> {
  const amms = await poolEntries(engine, limit, offset);
  const sides = amms.map((p) => ({ account: String(p.Account), assets: [issueOf(p.Asset), issueOf(p.Asset2)] }));
  const wanted = sides.map((s) => ({
    account: s.account,
    issuers: s.assets.flatMap((a) => (a.issuer === undefined ? [] : [a.issuer])),
  }));
  const [roots, lines] = await Promise.all([
    poolRoots(engine, amms),
    wanted.some((w) => w.issuers.length > 0)
      ? engine
          .search<Json>('objects', buildAmmPoolLinesQuery(wanted))
          .then((r) => r.hits.hits.map((h) => h._source ?? {}))
      : Promise.resolve([]),
  ]);
  const amounts = new Map<string, PoolAmounts>();
  for (const { account, assets } of sides) {
    const root = roots.get(account);
    const live = root === undefined || root.deleted === true ? undefined : root;
    const own = lines.filter((l) => Array.isArray(l._accounts) && (l._accounts as unknown[]).includes(account));
    const [a, b] = assets.map((asset) => poolSide(asset, account, live, own).amount);
    amounts.set(account, { amount: a ?? null, amount2: b ?? null });
  }
  return { pools: amms.map((amm) => shapeAmmPool(amm, xrpOf(roots.get(amm.Account as string)))), amounts };
}

/**
 * GET /amm/{AMM_ACCOUNT}: the pool's balances, LP token, auction slot and votes, as amm_info shows
 * them. The pool is the live AMM entry of that account (every pool `/amm/pools` lists answers
 * here); a balance whose account root or trust line is not indexed is null, never zero.
 */
export async function ammInfo(engine: Engine, account: string): Promise<Json> {
  const [root, found] = await Promise.all([
    engine.get<Json>('accounts', account),
    engine.search<Json>('objects', buildAmmOfAccountQuery(account)),
  ]);
  const amm = found.hits.hits[0]?._source;
  if (amm === undefined)
    throw new NotFoundError(`${account} is not the account of an AMM in the indexed ledgers.`, { account });
  const assets = [issueOf(amm.Asset), issueOf(amm.Asset2)];
  const issuers = assets.flatMap((a) => (a.issuer === undefined ? [] : [a.issuer]));
  const [lines, issuerRoots, latest] = await Promise.all([
    issuers.length === 0
      ? Promise.resolve([])
      : engine
          .search<Json>('objects', buildAmmLinesQuery(account, issuers))
          .then((r) => r.hits.hits.map((h) => h._source ?? {})),
    engine.mget<Json>('accounts', issuers),
    latestLedger(engine),
  ]);
  const flagsOf = (issuer?: string): number => (issuer === undefined ? 0 : Number(issuerRoots.get(issuer)?.Flags ?? 0));
  const live = root === undefined || root.deleted === true ? undefined : root;
  const [side1, side2] = assets.map((a) => poolSide(a, account, live, lines, flagsOf(a.issuer))) as [
    PoolSide,
    PoolSide,
  ];
  // rippled computes the slot's interval at the ledger's parent close time.
  return shapeAmmInfo(amm, side1, side2, latest.parent_close_time ?? latest.close_time);
}

/**
 * Which of these accounts are AMM pools, with their two assets (an AMM account's address names no
 * pool by itself; its AMM entry does): one search over the live AMM entries.
 */
export async function ammAssetsOf(
  engine: Engine,
  accounts: Iterable<string>,
): Promise<Map<string, { Asset: unknown; Asset2: unknown }>> {
  const wanted = [...new Set(accounts)];
  const pools = new Map<string, { Asset: unknown; Asset2: unknown }>();
  if (wanted.length === 0) return pools;
  const found = await engine.search<Json>('objects', buildAmmOfAccountsQuery(wanted));
  for (const hit of found.hits.hits) {
    const amm = hit._source;
    if (typeof amm?.Account === 'string') pools.set(amm.Account, { Asset: amm.Asset, Asset2: amm.Asset2 });
  }
  return pools;
}
