import Type, { type TSchema } from 'typebox';
import { defineRoute, NoQuery, type AnyRoute } from '@xle/core';
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
} from '../resources/accounts.js';
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
import { AccountTxQuery } from '../schemas/queries.js';

const AccountPath = Type.Object({ ACCOUNT: AccountParam });
const TokenIdParam = Type.String({ pattern: '^(?:[0-9A-Fa-f]{40}|[^\\s./]{3,40})$', description: 'Currency code.' });

/** The account routes: each one resource of resources/accounts.ts. */
export function accountRoutes(engine: Engine): AnyRoute[] {
  const account = (
    path: string,
    summary: string,
    read: (engine: Engine, account: string) => Promise<unknown>,
    response: TSchema,
  ): AnyRoute =>
    defineRoute({
      method: 'get',
      path: `/account/{ACCOUNT}${path}`,
      summary,
      tags: ['Account'],
      params: AccountPath,
      query: NoQuery,
      response,
      cache: 'latest',
      handler: ({ params }) => read(engine, params.ACCOUNT),
    });
  return [
    account('', 'Account information with its activation and labels', accountInfo, AccountInfo),
    account('/settings', 'Account settings from its flags and fields', accountSettingsOf, AccountSettings),
    account('/activations', 'Accounts this account activated', accountActivations, AccountActivations),
    account('/ancestry', 'The chain of activating accounts, oldest first', accountAncestry, AccountAncestry),
    account('/escrows', 'Escrows the account created', accountEscrows, AccountEscrows),
    account('/deposit_preauths', 'Accounts this account preauthorised', accountDepositPreauths, AccountDepositPreauths),
    account('/orders', 'Outstanding DEX offers of the account', accountOrders, AccountOrders),
    account(
      '/trustlines2',
      'Trust lines of the account, as account_lines shows them',
      accountTrustLines,
      AccountTrustLines,
    ),
    account('/assets', 'Tokens the account holds (positive balances)', accountAssets, AccountAssets),
    account('/obligations', 'Tokens the account issued, summed per currency', accountObligations, AccountObligations),
    account('/nfts', 'NFTs the account owns, from its NFToken pages', accountNfts, AccountNfts),
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
