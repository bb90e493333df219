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
import { AccountListQuery, AccountTxQuery } from '../schemas/queries.js';

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
      method: 'get',
      path: '/account/{ACCOUNT}/obligation/{TOKEN_ID}',
      summary: 'The outstanding amount of one token the account issued (a bare number)',
      tags: ['Account'],
      params: Type.Object({ ACCOUNT: AccountParam, TOKEN_ID: TokenIdParam }),
      query: NoQuery,
      response: AccountObligation,
      cache: 'latest',
      handler: ({ params }) => accountObligation(engine, params.ACCOUNT, params.TOKEN_ID),
    }),
    defineRoute({
      method: 'get',
      path: '/account/{ACCOUNT}/transactions',
      summary: 'Transactions that affected the account, newest first, with marker pagination',
      tags: ['Account'],
      params: AccountPath,
      query: AccountTxQuery,
      response: AccountTransactionsPage,
      cache: 'latest',
      handler: ({ params, query }) => accountTransactions(engine, params.ACCOUNT, query),
    }),
  ];
}
