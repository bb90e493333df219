import Type, { type TSchema } from 'typebox';
import { defineRoute, NoQuery, type AnyRoute } from '@xle/core';
import type { Context } from 'koa';
import type { Engine } from '../engine.js';
import {
  accountActivations,
  accountAncestry,
  accountAssets,
  accountDepositPreauths,
  accountEscrows,
  accountInfo,
  accountNfts,
  accountObligation,
  accountObligations,
  accountOrders,
  accountSettingsOf,
  accountTrustLines,
  type ListPage,
} from '../resources/accounts.js';
import { LIST_LIMIT } from '../queries/accounts.js';
import { accountTransactions } from '../resources/transactions.js';
import { accountBalanceChanges, accountBalanceHistory, accountBalances } from '../resources/balances.js';
import { AccountBalanceChanges, AccountBalanceHistory, AccountBalances } from '../schemas/responses/balances.js';
import {
  AccountActivations,
  AccountAncestry,
  AccountAssets,
  AccountDepositPreauths,
  AccountEscrows,
  AccountInfo,
  AccountNfts,
  AccountObligation,
  AccountObligations,
  AccountOrders,
  AccountSettings,
  AccountTrustLines,
} from '../schemas/responses/accounts.js';
import { AccountTransactionsPage } from '../schemas/responses/transactions.js';
import { AccountParam } from '../schemas/params.js';
import {
  AccountListQuery,
  AccountTxQuery,
  BalanceChangesQuery,
  BalanceHistoryQuery,
  BalancesQuery,
} from '../schemas/queries.js';

const AccountPath = Type.Object({ ACCOUNT: AccountParam });
const TokenIdParam = Type.String({ pattern: '^(?:[0-9A-Fa-f]{40}|[^\\s./]{3,40})$', description: 'Currency code.' });

/** The account routes: each one resource of resources/accounts.ts. */
export function accountRoutes(engine: Engine): AnyRoute[] {
  // What every account route shares: its path under the account, its tags, and its caching.
  const under = (path: string, summary: string, response: TSchema) => ({
    method: 'get' as const,
    path: `/account/{ACCOUNT}${path}`,
    summary,
    tags: ['Account'],
    params: AccountPath,
    response,
    cache: 'latest' as const,
  });
  const account = (
    path: string,
    summary: string,
    read: (engine: Engine, account: string) => Promise<unknown>,
    response: TSchema,
  ): AnyRoute =>
    defineRoute({
      ...under(path, summary, response),
      query: NoQuery,
      handler: ({ params }) => read(engine, params.ACCOUNT),
    });
  // A list that grows with the ledger: a page of `limit`, resumed with `marker`.
  const list = (
    path: string,
    summary: string,
    read: (engine: Engine, account: string, page: ListPage, ctx: Context) => Promise<unknown>,
    response: TSchema,
  ): AnyRoute =>
    defineRoute({
      ...under(path, summary, response),
      query: AccountListQuery,
      handler: ({ params, query }, ctx) =>
        read(engine, params.ACCOUNT, { limit: query.limit ?? LIST_LIMIT.default, marker: query.marker }, ctx),
    });
  const HISTORY_ERRORS = {
    '422':
      'HISTORY_INCOMPLETE: the index does not hold the account’s history at that point (details.complete_from_ledger says from where it does).',
  };
  const inLink = ' A page of `limit` (default 200); when more exist, the `Link` header (rel="next") says where.';
  const inBody = ' A page of `limit` (default 200); when more exist, `marker` resumes the list.';
  return [
    account('', 'Account information with its activation and labels', accountInfo, AccountInfo),
    account('/settings', 'Account settings from its flags and fields', accountSettingsOf, AccountSettings),
    list(
      '/activations',
      `Accounts this account activated, oldest first.${inBody}`,
      accountActivations,
      AccountActivations,
    ),
    account('/ancestry', 'The chain of activating accounts, oldest first', accountAncestry, AccountAncestry),
    list('/escrows', `Escrows the account created.${inLink}`, accountEscrows, AccountEscrows),
    list(
      '/deposit_preauths',
      `Accounts this account preauthorised.${inLink}`,
      accountDepositPreauths,
      AccountDepositPreauths,
    ),
    list('/orders', `Outstanding DEX offers of the account.${inLink}`, accountOrders, AccountOrders),
    list(
      '/trustlines2',
      `Trust lines of the account, as account_lines shows them.${inBody}`,
      accountTrustLines,
      AccountTrustLines,
    ),
    account('/assets', 'Tokens the account holds (positive balances)', accountAssets, AccountAssets),
    account('/obligations', 'Tokens the account issued, summed per currency', accountObligations, AccountObligations),
    list('/nfts', `NFTs the account owns, from its NFToken pages, in id order.${inLink}`, accountNfts, AccountNfts),
    defineRoute({
      ...under(
        '/obligation/{TOKEN_ID}',
        'The outstanding amount of one token the account issued (a bare number)',
        AccountObligation,
      ),
      params: Type.Object({ ACCOUNT: AccountParam, TOKEN_ID: TokenIdParam }),
      query: NoQuery,
      handler: ({ params }) => accountObligation(engine, params.ACCOUNT, params.TOKEN_ID),
    }),
    defineRoute({
      ...under(
        '/balance_changes',
        'Every change of the account’s balances (XRP and tokens), oldest first, with marker paging: the fee, what each transaction sent or received, DEX and AMM trades, escrows, channels, NFT sales. Each change carries the balance after it.',
        AccountBalanceChanges,
      ),
      query: BalanceChangesQuery,
      handler: ({ params, query }) =>
        accountBalanceChanges(engine, params.ACCOUNT, { ...query, limit: query.limit ?? LIST_LIMIT.default }),
    }),
    defineRoute({
      ...under(
        '/balances',
        'XRP and every token balance at the end of a ledger (or the last ledger closed by an instant). Exact or refused: without an asset, from where the account’s history is complete; for one asset (currency and issuer), also wherever no ledger is missing since its last change.',
        AccountBalances,
      ),
      query: BalancesQuery,
      errors: HISTORY_ERRORS,
      handler: ({ params, query }) => accountBalances(engine, params.ACCOUNT, query),
    }),
    defineRoute({
      ...under(
        '/balance_history',
        'The balance of one asset at the end of each day, week or month (for charts); refused unless exact over the whole span.',
        AccountBalanceHistory,
      ),
      query: BalanceHistoryQuery,
      errors: HISTORY_ERRORS,
      handler: ({ params, query }) =>
        accountBalanceHistory(engine, params.ACCOUNT, { ...query, interval: query.interval ?? 'day' }),
    }),
    defineRoute({
      ...under(
        '/transactions',
        'The transactions rippled files under the account (its account_tx: TxMeta::getAffectedAccounts), newest first, with marker pagination',
        AccountTransactionsPage,
      ),
      query: AccountTxQuery,
      handler: ({ params, query }) => accountTransactions(engine, params.ACCOUNT, query),
    }),
  ];
}
