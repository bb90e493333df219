import Type, { type TObject, type TSchema } from 'typebox';
import { defineRoute, type AnyRoute, type NoParams, type NoQuery, type RouteSpec } from '@xle/core';
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

/** A GET over a derived data set: its tags, and no parameters unless it names them. */
function dataSetRoute<P extends TObject = typeof NoParams, Q extends TObject = typeof NoQuery>(
  spec: Omit<RouteSpec<P, Q, TSchema>, 'method' | 'tags'> & { tags?: string[] },
): AnyRoute {
  return defineRoute<P, Q>({ method: 'get', tags: TAGS, ...spec });
}

/** The routes over the derived data sets: 503 DATA_NOT_READY until their job has run once. */
export function dataSetRoutes(engine: Engine): AnyRoute[] {
  const amendments = { job: 'amendments' };
  const facts = { job: 'facts' };
  return [
    dataSetRoute({
      path: '/amendments',
      dataSet: amendments,
      summary: 'All amendments known to mainnet rippled, with their status',
      response: AmendmentList,
      handler: () => amendmentList(engine),
    }),
    dataSetRoute({
      path: '/amendment/{AMENDMENT_ID}',
      dataSet: amendments,
      summary: 'One amendment',
      params: Type.Object({ AMENDMENT_ID: HashParam }),
      response: Amendment,
      handler: ({ params }) => amendmentById(engine, params.AMENDMENT_ID),
    }),
    dataSetRoute({
      path: '/fact/{NAMESPACE_ID}',
      dataSet: facts,
      summary: 'Facts of a namespace, as of the newest indexed ledger',
      params: Type.Object({ NAMESPACE_ID: Namespace }),
      response: Facts,
      handler: ({ params }) => factsOf(engine, params.NAMESPACE_ID),
    }),
    dataSetRoute({
      path: '/fact/{NAMESPACE_ID}/{FACT_ID}',
      dataSet: facts,
      summary: 'One fact',
      params: Type.Object({
        NAMESPACE_ID: Namespace,
        FACT_ID: Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$' }),
      }),
      response: Fact,
      handler: ({ params }) => factById(engine, params.NAMESPACE_ID, params.FACT_ID),
    }),
    dataSetRoute({
      path: '/metrics/{METRIC_ID}',
      dataSet: { job: 'metrics' },
      summary: 'Daily metric records, oldest first',
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
    dataSetRoute({
      path: '/balances',
      dataSet: { job: 'balances' },
      summary: 'Top 10,000 accounts by XRP balance (a snapshot, not real time)',
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
    dataSetRoute({
      path: '/network/fee',
      dataSet: NETWORK_DATA_SET,
      summary: 'Current network fees: the newest snapshot of rippled’s fee answer',
      response: NetworkFee,
      handler: () => networkFee(engine),
    }),
    dataSetRoute({
      path: '/network/server_info',
      dataSet: NETWORK_DATA_SET,
      summary: 'Server information: the newest snapshot of rippled’s server_info answer',
      response: ServerInfo,
      handler: () => serverInfo(engine),
    }),
    dataSetRoute({
      path: '/network/server_versions',
      dataSet: NETWORK_DATA_SET,
      summary: 'rippled versions seen on the network (server snapshots, peer nodes, validators), newest first',
      response: ServerVersions,
      handler: () => serverVersions(engine),
    }),
    dataSetRoute({
      path: '/nodes',
      dataSet: NODES_DATA_SET,
      summary: 'Peer nodes seen by the newest crawl',
      response: NodeList,
      handler: () => nodeList(engine),
    }),
    dataSetRoute({
      path: '/node/{NODE_PUBLIC_KEY}',
      dataSet: NODES_DATA_SET,
      summary: 'One peer node, as last seen',
      params: Type.Object({ NODE_PUBLIC_KEY: PublicKeyParam }),
      response: Node,
      handler: ({ params }) => nodeByKey(engine, params.NODE_PUBLIC_KEY),
    }),
    dataSetRoute({
      path: '/account/{ACCOUNT}/walletkyc',
      dataSet: { job: 'kyc', name: 'wallet KYC', command: 'pnpm kyc import <file>' },
      summary: 'Wallet KYC status of an account',
      tags: ['Account'],
      params: Type.Object({ ACCOUNT: AccountParam }),
      response: WalletKyc,
      handler: ({ params }) => accountWalletKyc(engine, params.ACCOUNT),
    }),
  ];
}
