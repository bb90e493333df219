import { h } from 'preact';
import type { Engine } from '@xle/api/engine';
import { ammAssetsOf, ammInfo } from '@xle/api/resources/amm';
import { accountTransactions } from '@xle/api/resources/transactions';
import { AccountParam } from '@xle/api/schemas/params';
import { thingPage, type AnyPage } from '../page.js';
import { AmmPage, type AmmProps } from '../views/amm.js';
import type { SiteChrome } from '../views/layout.js';
import { linkContext } from './common.js';

/** Transactions of the pool shown on its page. */
const POOL_TRANSACTIONS = 25;

/** An AMM pool: amm_info, its entry's assets, and the pool account's newest transactions. */
export async function loadAmm(engine: Engine, account: string): Promise<AmmProps> {
  const [amm, assets, transactions, newest] = await Promise.all([
    ammInfo(engine, account),
    ammAssetsOf(engine, [account]),
    accountTransactions(engine, account, { limit: POOL_TRANSACTIONS }),
    // The pool is as of the newest indexed ledger: its close time says whether the slot has expired.
    engine.searchNewest<{ close_time_human?: string }>('ledgers', {
      query: { match_all: {} },
      sort: [{ ledger_index: { order: 'desc' } }],
      size: 1,
      track_total_hits: false,
      _source: ['close_time_human'],
    }),
  ]);
  const listed = (transactions.transactions ?? []) as AmmProps['transactions'];
  // The liquidity providers who voted and the slot's holder need not be in the indexed ledgers.
  const slot = amm.auction_slot as { account?: unknown } | undefined;
  const voters = ((amm.vote_slots ?? []) as { account?: unknown }[]).map((v) => v.account);
  const named = [slot?.account, ...voters].filter((a): a is string => typeof a === 'string');
  return {
    amm,
    assets: assets.get(account) ?? { Asset: undefined, Asset2: undefined },
    transactions: listed,
    asOf: newest[0]?._source?.close_time_human,
    ctx: await linkContext(engine, [amm, listed], { accounts: named }),
  };
}

/** `/amm/{AMM_ACCOUNT}`: the pool whose AMM account this is (404 for an account that is not one). */
export function ammPage(engine: Engine, chrome: SiteChrome): AnyPage {
  return thingPage(
    '/amm/:AMM_ACCOUNT',
    { schema: AccountParam, name: 'an AMM account address', cache: 'latest' },
    async (value) => h(AmmPage, { chrome, props: await loadAmm(engine, value) }),
  );
}
