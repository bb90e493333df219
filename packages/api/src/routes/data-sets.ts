import Type from 'typebox';
import { NotFoundError } from '@xle/core';
import { dataNotReady, type DataSetGate } from '../data-set-gate.js';
import type { Engine } from '../engine.js';
import { labelOf, lookupLabels } from '../labels.js';
import { AccountParam, HashParam, PublicKeyParam } from '../schemas/params.js';
import { AnyObject, defineRoute, NoParams, NoQuery, type AnyRoute } from '../route.js';
import { FACT_DESCRIPTIONS, type JobStatus } from '@xle/documents';

type Json = Record<string, unknown>;

const Namespace = Type.Union([Type.Literal('AMM'), Type.Literal('ObjectCount'), Type.Literal('XRP')]);
const MetricId = Type.Union([
  Type.Literal('metric'),
  Type.Literal('type'),
  Type.Literal('result'),
  Type.Literal('amm'),
]);
const Day = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}$',
  format: 'date',
  description: 'A UTC day, YYYY-MM-DD.',
});

/** The spec's Amendment: the stored document without the job's bookkeeping (pure). */
export function shapeAmendment(doc: Json): Json {
  const { updated_at: _updated, ...amendment } = doc;
  return amendment;
}

/**
 * The spec's Balance entry (pure). `name` is the account's label with the record fields the spec
 * shows: `_id` (the label record's id, the account) and `__v` (its revision: always 0, because an
 * import replaces records rather than revising them), or null when the account has no label.
 */
export function shapeBalance(doc: Json, label: ReturnType<typeof labelOf>): Json {
  return {
    account: doc.account,
    balance: doc.balance,
    name: label === null ? null : { ...label, _id: label.account, __v: 0 },
  };
}

const factDescription = Object.entries(FACT_DESCRIPTIONS)
  .map(
    ([ns, facts]) =>
      `${ns}: ${Object.entries(facts)
        .map(([id, text]) => `\`${id}\` ${text}`)
        .join(' ')}`,
  )
  .join(' ');

/**
 * Orders rippled versions newest first (pure): numeric major.minor.patch, and a release above its
 * own pre-releases (`2.3.0` > `2.3.0-rc2` > `2.3.0-b1`); unparsable strings go last.
 */
export function compareVersionsDesc(a: string, b: string): number {
  const parse = (v: string): [number, number, number, string] | undefined => {
    const m = /^(?:rippled-)?(\d+)\.(\d+)\.(\d+)(?:-(.+))?$/.exec(v);
    return m === null ? undefined : [Number(m[1]), Number(m[2]), Number(m[3]), m[4] ?? ''];
  };
  const pa = parse(a);
  const pb = parse(b);
  if (pa === undefined || pb === undefined) return pa === undefined ? (pb === undefined ? a.localeCompare(b) : 1) : -1;
  for (let i = 0; i < 3; i += 1) if (pa[i] !== pb[i]) return (pb[i] as number) - (pa[i] as number);
  if (pa[3] === pb[3]) return 0;
  if (pa[3] === '') return -1;
  if (pb[3] === '') return 1;
  return pb[3].localeCompare(pa[3], 'en', { numeric: true });
}

const NETWORK: DataSetGate = { job: 'network' };
const NODES: DataSetGate = { job: 'nodes', command: 'pnpm ingest nodes --seed URL' };

/** The newest snapshot of one kind of rippled answer. */
async function latestSnapshot(engine: Engine, kind: 'fee' | 'server_info'): Promise<Json> {
  const found = await engine.search<{ payload: Json }>('network', {
    query: { term: { kind } },
    sort: [{ taken_at: 'desc' }, { ledger_index: 'desc' }],
    size: 1,
  });
  const payload = found.hits.hits[0]?._source?.payload;
  // The network job ran, but took no snapshot of this kind yet.
  if (payload === undefined) throw dataNotReady(NETWORK, `/network/${kind}`);
  return payload;
}

export function dataSetRoutes(engine: Engine): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/amendments',
      dataSet: { job: 'amendments' },
      summary: 'All amendments known to mainnet rippled, with their status',
      tags: ['Other resources'],
      params: NoParams,
      query: NoQuery,
      response: Type.Array(AnyObject),
      handler: async () => {
        const found = await engine.search<Json>('amendments', {
          query: { match_all: {} },
          sort: [{ name: { order: 'asc', missing: '_last' } }, { amendment_id: 'asc' }],
          size: 10_000,
        });
        return found.hits.hits.map((h) => shapeAmendment(h._source ?? {}));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/amendment/{AMENDMENT_ID}',
      dataSet: { job: 'amendments' },
      summary: 'One amendment',
      tags: ['Other resources'],
      params: Type.Object({ AMENDMENT_ID: HashParam }),
      query: NoQuery,
      response: AnyObject,
      handler: async (_ctx, { params }) => {
        const id = params.AMENDMENT_ID.toUpperCase();
        const doc = await engine.get<Json>('amendments', id);
        if (doc === undefined) throw new NotFoundError(`No amendment ${id} is known.`, { amendment_id: id });
        return shapeAmendment(doc);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/fact/{NAMESPACE_ID}',
      dataSet: { job: 'facts' },
      summary: 'Facts of a namespace, as of the newest indexed ledger',
      tags: ['Other resources'],
      params: Type.Object({ NAMESPACE_ID: Namespace }),
      query: NoQuery,
      response: Type.Record(Type.String(), Type.String(), {
        description: `Fact name to value (a decimal string). ObjectCount: ledger entry type to count. ${factDescription}`,
      }),
      handler: async (_ctx, { params }) => {
        const found = await engine.search<{ fact_id: string; value: string }>('facts', {
          query: { term: { namespace: params.NAMESPACE_ID } },
          sort: [{ fact_id: 'asc' }],
          size: 1000,
        });
        return Object.fromEntries(found.hits.hits.map((h) => [h._source?.fact_id, h._source?.value]));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/fact/{NAMESPACE_ID}/{FACT_ID}',
      dataSet: { job: 'facts' },
      summary: 'One fact',
      tags: ['Other resources'],
      params: Type.Object({
        NAMESPACE_ID: Namespace,
        FACT_ID: Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$' }),
      }),
      query: NoQuery,
      response: Type.Object({ value: Type.String() }),
      handler: async (_ctx, { params }) => {
        const doc = await engine.get<{ value: string }>('facts', `${params.NAMESPACE_ID}.${params.FACT_ID}`);
        if (doc === undefined)
          throw new NotFoundError(`No fact ${params.FACT_ID} in namespace ${params.NAMESPACE_ID}.`, { ...params });
        return { value: doc.value };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/metrics/{METRIC_ID}',
      dataSet: { job: 'metrics' },
      summary: 'Daily metric records, oldest first',
      tags: ['Other resources'],
      params: Type.Object({ METRIC_ID: MetricId }),
      query: Type.Object(
        {
          from: Type.Optional({ ...Day, description: 'First day (UTC, inclusive).' }),
          to: Type.Optional({ ...Day, description: 'Last day (UTC, inclusive).' }),
        },
        { additionalProperties: false },
      ),
      response: Type.Array(AnyObject, {
        description:
          '`{date, <METRIC_ID>: {...}}` per day with data. metric: accounts_created, ledger_count, ledger_interval (s), ' +
          'payments_count, transaction_count, tx_per_ledger; type: count per TransactionType; result: count per ' +
          'TransactionResult; amm: count per AMM transaction type and total.',
      }),
      handler: async (_ctx, { params, query }) => {
        const range: Json = {};
        if (query.from !== undefined) range.gte = `${query.from}T00:00:00.000Z`;
        if (query.to !== undefined) range.lte = `${query.to}T00:00:00.000Z`;
        const found = await engine.search<{ date: string; values: Json }>('metrics', {
          query: {
            bool: {
              filter: [
                { term: { metric_id: params.METRIC_ID } },
                ...(Object.keys(range).length === 0 ? [] : [{ range: { date: range } }]),
              ],
            },
          },
          sort: [{ date: 'asc' }],
          size: 10_000,
        });
        return found.hits.hits.map((h) => ({ date: h._source?.date, [params.METRIC_ID]: h._source?.values ?? {} }));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/balances',
      dataSet: { job: 'balances' },
      summary: 'Top 10,000 accounts by XRP balance (a snapshot, not real time)',
      tags: ['Other resources'],
      params: NoParams,
      query: Type.Object(
        {
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, default: 10_000, description: '1-10000.' })),
          offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 9_999, default: 0, description: '0-9999.' })),
        },
        { additionalProperties: false },
      ),
      response: Type.Array(AnyObject, { description: 'Largest balance first; `balance` in drops.' }),
      handler: async (_ctx, { query }) => {
        const found = await engine.search<Json>('balances', {
          query: { match_all: {} },
          sort: [{ rank: 'asc' }],
          from: query.offset ?? 0,
          size: Math.min(query.limit ?? 10_000, 10_000 - (query.offset ?? 0)),
        });
        const docs = found.hits.hits.map((h) => h._source ?? {});
        const labels = await lookupLabels(
          engine,
          docs.map((d) => d.account as string),
        );
        return docs.map((d) => shapeBalance(d, labelOf(labels, d.account)));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/network/fee',
      dataSet: NETWORK,
      summary: 'Current network fees: the newest snapshot of rippled’s fee answer',
      tags: ['Other resources'],
      params: NoParams,
      query: NoQuery,
      response: AnyObject,
      handler: async () => latestSnapshot(engine, 'fee'),
    }),
    defineRoute({
      method: 'get',
      path: '/network/server_info',
      dataSet: NETWORK,
      summary: 'Server information: the newest snapshot of rippled’s server_info answer',
      tags: ['Other resources'],
      params: NoParams,
      query: NoQuery,
      response: AnyObject,
      handler: async () => {
        const payload = await latestSnapshot(engine, 'server_info');
        return { info: payload.info ?? {} };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/network/server_versions',
      dataSet: NETWORK,
      summary: 'rippled versions seen on the network (server snapshots, peer nodes, validators), newest first',
      tags: ['Other resources'],
      params: NoParams,
      query: NoQuery,
      response: Type.Array(Type.String()),
      handler: async () => {
        const terms = async (kind: 'network' | 'nodes' | 'validators', field: string): Promise<string[]> => {
          const found = await engine.search(kind, {
            size: 0,
            aggs: { versions: { terms: { field, size: 1000 } } },
          });
          const agg = found.aggregations?.versions as { buckets: { key: string }[] } | undefined;
          return (agg?.buckets ?? []).map((b) => String(b.key));
        };
        const all = await Promise.all([
          terms('network', 'build_version'),
          terms('nodes', 'server_version'),
          terms('validators', 'server_version.version'),
        ]);
        return [...new Set(all.flat())].sort(compareVersionsDesc);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/nodes',
      dataSet: NODES,
      summary: 'Peer nodes seen by the newest crawl',
      tags: ['Other resources'],
      params: NoParams,
      query: NoQuery,
      response: Type.Array(AnyObject),
      handler: async (_ctx, input) => {
        // The route's gate has checked that a crawl completed, and hands over its run.
        const run = input.run as JobStatus;
        const since = (run.detail as { started_at?: string } | undefined)?.started_at ?? run.updated_at;
        const found = await engine.search<Json>('nodes', {
          query: { range: { last_seen: { gte: since } } },
          sort: [{ public_key: 'asc' }],
          size: 10_000,
        });
        return found.hits.hits.map((h) => h._source ?? {});
      },
    }),
    defineRoute({
      method: 'get',
      path: '/node/{NODE_PUBLIC_KEY}',
      dataSet: NODES,
      summary: 'One peer node, as last seen',
      tags: ['Other resources'],
      params: Type.Object({ NODE_PUBLIC_KEY: PublicKeyParam }),
      query: NoQuery,
      response: AnyObject,
      handler: async (_ctx, { params }) => {
        const node = await engine.get<Json>('nodes', params.NODE_PUBLIC_KEY);
        if (node === undefined)
          throw new NotFoundError(`No crawl has seen node ${params.NODE_PUBLIC_KEY}.`, {
            public_key: params.NODE_PUBLIC_KEY,
          });
        return node;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/account/{ACCOUNT}/walletkyc',
      dataSet: { job: 'kyc', name: 'wallet KYC', command: 'pnpm kyc import <file>' },
      summary: 'Wallet KYC status of an account',
      tags: ['Account'],
      params: Type.Object({ ACCOUNT: AccountParam }),
      query: NoQuery,
      response: Type.Object({ account: Type.String(), kycApproved: Type.Boolean() }),
      handler: async (_ctx, { params }) => {
        const doc = await engine.get<{ kycApproved: boolean }>('kyc', params.ACCOUNT);
        return { account: params.ACCOUNT, kycApproved: doc?.kycApproved === true };
      },
    }),
  ];
}
