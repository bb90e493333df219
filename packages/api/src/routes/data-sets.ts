import Type from 'typebox';
import { defineRoute, NoParams, NoQuery, type AnyRoute } from '@xle/core';
import { FACT_NAMESPACES, METRIC_IDS } from '@xle/documents';
import type { Engine } from '../engine.js';
import { accountWalletKyc } from '../resources/accounts.js';
import {
  amendmentById,
  amendmentList,
  balances,
  factById,
  factsOf,
  networkFee,
  metricsOf,
  NETWORK_DATA_SET,
  nodeByKey,
  nodeList,
  NODES_DATA_SET,
  serverInfo,
  serverVersions,
} from '../resources/data-sets.js';
import { AccountParam, HashParam, PublicKeyParam } from '../schemas/params.js';
import { WalletKyc } from '../schemas/responses/accounts.js';
import {
  Amendment,
  AmendmentList,
  Balances,
  Fact,
  Facts,
  Metrics,
  NetworkFee,
  Node,
  NodeList,
  ServerInfo,
  ServerVersions,
} from '../schemas/responses/data-sets.js';

const TAGS = ['Other resources'];
const Namespace = Type.Union(FACT_NAMESPACES.map((ns) => Type.Literal(ns)));
const MetricId = Type.Union(METRIC_IDS.map((id) => Type.Literal(id)));
const Day = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}$',
  format: 'date',
  description: 'A UTC day, YYYY-MM-DD.',
});

/** The routes over the derived data sets: 503 DATA_NOT_READY until their job has run once. */
export function dataSetRoutes(engine: Engine): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/amendments',
      dataSet: { job: 'amendments' },
      summary: 'All amendments known to mainnet rippled, with their status',
      tags: TAGS,
      params: NoParams,
      query: NoQuery,
      response: AmendmentList,
      handler: () => amendmentList(engine),
    }),
    defineRoute({
      method: 'get',
      path: '/amendment/{AMENDMENT_ID}',
      dataSet: { job: 'amendments' },
      summary: 'One amendment',
      tags: TAGS,
      params: Type.Object({ AMENDMENT_ID: HashParam }),
      query: NoQuery,
      response: Amendment,
      handler: ({ params }) => amendmentById(engine, params.AMENDMENT_ID),
    }),
    defineRoute({
      method: 'get',
      path: '/fact/{NAMESPACE_ID}',
      dataSet: { job: 'facts' },
      summary: 'Facts of a namespace, as of the newest indexed ledger',
      tags: TAGS,
      params: Type.Object({ NAMESPACE_ID: Namespace }),
      query: NoQuery,
      response: Facts,
      handler: ({ params }) => factsOf(engine, params.NAMESPACE_ID),
    }),
    defineRoute({
      method: 'get',
      path: '/fact/{NAMESPACE_ID}/{FACT_ID}',
      dataSet: { job: 'facts' },
      summary: 'One fact',
      tags: TAGS,
      params: Type.Object({
        NAMESPACE_ID: Namespace,
        FACT_ID: Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$' }),
      }),
      query: NoQuery,
      response: Fact,
      handler: ({ params }) => factById(engine, params.NAMESPACE_ID, params.FACT_ID),
    }),
    defineRoute({
      method: 'get',
      path: '/metrics/{METRIC_ID}',
      dataSet: { job: 'metrics' },
      summary: 'Daily metric records, oldest first',
      tags: TAGS,
      params: Type.Object({ METRIC_ID: MetricId }),
      query: Type.Object(
        {
          from: Type.Optional({ ...Day, description: 'First day (UTC, inclusive).' }),
          to: Type.Optional({ ...Day, description: 'Last day (UTC, inclusive).' }),
        },
        { additionalProperties: false },
      ),
      response: Metrics,
      handler: ({ params, query }) => metricsOf(engine, params.METRIC_ID, query.from, query.to),
    }),
    defineRoute({
      method: 'get',
      path: '/balances',
      dataSet: { job: 'balances' },
      summary: 'Top 10,000 accounts by XRP balance (a snapshot, not real time)',
      tags: TAGS,
      params: NoParams,
      query: Type.Object(
        {
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, default: 10_000, description: '1-10000.' })),
          offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 9_999, default: 0, description: '0-9999.' })),
        },
        { additionalProperties: false },
      ),
      response: Balances,
      handler: ({ query }) => balances(engine, query.limit ?? 10_000, query.offset ?? 0),
    }),
    defineRoute({
      method: 'get',
      path: '/network/fee',
      dataSet: NETWORK_DATA_SET,
      summary: 'Current network fees: the newest snapshot of rippled’s fee answer',
      tags: TAGS,
      params: NoParams,
      query: NoQuery,
      response: NetworkFee,
      handler: () => networkFee(engine),
    }),
    defineRoute({
      method: 'get',
      path: '/network/server_info',
      dataSet: NETWORK_DATA_SET,
      summary: 'Server information: the newest snapshot of rippled’s server_info answer',
      tags: TAGS,
      params: NoParams,
      query: NoQuery,
      response: ServerInfo,
      handler: () => serverInfo(engine),
    }),
    defineRoute({
      method: 'get',
      path: '/network/server_versions',
      dataSet: NETWORK_DATA_SET,
      summary: 'rippled versions seen on the network (server snapshots, peer nodes, validators), newest first',
      tags: TAGS,
      params: NoParams,
      query: NoQuery,
      response: ServerVersions,
      handler: () => serverVersions(engine),
    }),
    defineRoute({
      method: 'get',
      path: '/nodes',
      dataSet: NODES_DATA_SET,
      summary: 'Peer nodes seen by the newest crawl',
      tags: TAGS,
      params: NoParams,
      query: NoQuery,
      response: NodeList,
      handler: () => nodeList(engine),
    }),
    defineRoute({
      method: 'get',
      path: '/node/{NODE_PUBLIC_KEY}',
      dataSet: NODES_DATA_SET,
      summary: 'One peer node, as last seen',
      tags: TAGS,
      params: Type.Object({ NODE_PUBLIC_KEY: PublicKeyParam }),
      query: NoQuery,
      response: Node,
      handler: ({ params }) => nodeByKey(engine, params.NODE_PUBLIC_KEY),
    }),
    defineRoute({
      method: 'get',
      path: '/account/{ACCOUNT}/walletkyc',
      dataSet: { job: 'kyc', name: 'wallet KYC', command: 'pnpm kyc import <file>' },
      summary: 'Wallet KYC status of an account',
      tags: ['Account'],
      params: Type.Object({ ACCOUNT: AccountParam }),
      query: NoQuery,
      response: WalletKyc,
      handler: ({ params }) => accountWalletKyc(engine, params.ACCOUNT),
    }),
  ];
}
