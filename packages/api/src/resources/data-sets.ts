import { NotFoundError } from '@xle/core';
import { rippleTimeToIso, VALIDATORS_JOB, type Json } from '@xle/documents';
import { coverageOf, dataNotReady, readJobRun } from '../data-set-gate.js';
import { latestLedger, oldestLedger } from './ledgers.js';
import type { Engine } from '../engine.js';
import { lookupLabels } from '../enrich/labels.js';
import {
  buildAmendmentsQuery,
  buildBalancesQuery,
  buildFactsQuery,
  buildLatestSnapshotQuery,
  buildMetricsQuery,
  buildNodesQuery,
  buildVersionsQuery,
  buildWellKnownNamesQuery,
} from '../queries/data-sets.js';
import {
  shapeAmendment,
  shapeBalances,
  shapeFacts,
  shapeMetrics,
  shapeServerVersions,
  shapeSnapshot,
  type NetworkSnapshot,
} from '../shapers/data-sets.js';

/** The gates of derived data sets (their routes declare them; the website's pages check them too). */
export const NETWORK_DATA_SET = { job: 'network' } as const;
export const NODES_DATA_SET = { job: 'nodes', command: 'pnpm ingest nodes --seed URL' } as const;
export const VALIDATORS_DATA_SET = {
  job: VALIDATORS_JOB,
  command: 'pnpm ingest validators --list FILE_OR_URL',
} as const;
export const TOKENS_DATA_SET = { job: 'tokens' } as const;
export const AMENDMENTS_DATA_SET = { job: 'amendments' } as const;
export const METRICS_DATA_SET = { job: 'metrics' } as const;
export const FACTS_DATA_SET = { job: 'facts' } as const;

async function sources<T>(
  engine: Engine,
  kind: Parameters<Engine['search']>[0],
  request: Parameters<Engine['search']>[1],
): Promise<T[]> {
  return (await engine.search<T>(kind, request)).hits.hits.flatMap((h) => (h._source === undefined ? [] : [h._source]));
}

/** The ledger the amendments job read the network's state at (its run record). */
async function amendmentsAsOf(engine: Engine): Promise<{ ledger: number; behind: boolean } | undefined> {
  const run = await readJobRun(engine, AMENDMENTS_DATA_SET.job);
  if (run === undefined) return undefined;
  return { ledger: run.ledger_index, behind: (await coverageOf(engine, run))?.behind ?? false };
}

/** GET /amendments. */
export async function amendmentList(engine: Engine): Promise<Json[]> {
  const [docs, asOf] = await Promise.all([
    sources<Json>(engine, 'amendments', buildAmendmentsQuery()),
    amendmentsAsOf(engine),
  ]);
  return docs.map((doc) => shapeAmendment(doc, asOf));
}

/** GET /amendment/{AMENDMENT_ID}. */
export async function amendmentById(engine: Engine, amendmentId: string): Promise<Json> {
  const id = amendmentId.toUpperCase();
  const [doc, asOf] = await Promise.all([engine.get<Json>('amendments', id), amendmentsAsOf(engine)]);
  if (doc === undefined) throw new NotFoundError(`No amendment ${id} is known.`, { amendment_id: id });
  return shapeAmendment(doc, asOf);
}

/** GET /fact/{NAMESPACE_ID}. */
export async function factsOf(engine: Engine, namespace: string): Promise<Record<string, unknown>> {
  return shapeFacts(await sources(engine, 'facts', buildFactsQuery(namespace)));
}

/** GET /fact/{NAMESPACE_ID}/{FACT_ID}. */
export async function factById(engine: Engine, namespace: string, factId: string): Promise<Json> {
  const doc = await engine.get<{ value: string }>('facts', `${namespace}.${factId}`);
  if (doc === undefined)
    throw new NotFoundError(`No fact ${factId} in namespace ${namespace}.`, {
      NAMESPACE_ID: namespace,
      FACT_ID: factId,
    });
  return { value: doc.value };
}

/** GET /metrics/{METRIC_ID}: daily records between two days, oldest first. */
export async function metricsOf(engine: Engine, metricId: string, from?: string, to?: string): Promise<Json[]> {
  return shapeMetrics(metricId, await sources(engine, 'metrics', buildMetricsQuery(metricId, from, to)));
}

/** GET /balances: a page of the rich list, with labels. */
export async function balances(engine: Engine, limit: number, offset: number): Promise<Json[]> {
  const docs = await sources<Json>(engine, 'balances', buildBalancesQuery(limit, offset));
  return shapeBalances(
    docs,
    await lookupLabels(
      engine,
      docs.map((d) => d.account as string),
    ),
  );
}

/**
 * The time of the ledger a snapshot describes: the answer's own, else the ledger's close time
 * when this service has indexed that ledger (one read by id), else null.
 */
async function snapshotTime(engine: Engine, snapshot: NetworkSnapshot): Promise<string | null> {
  if (snapshot.answered_at !== undefined) return snapshot.answered_at;
  if (snapshot.ledger_index <= 0) return null;
  const ledger = await engine.getInRange<{ close_time?: number }>(
    'ledgers',
    snapshot.ledger_index,
    String(snapshot.ledger_index),
  );
  return typeof ledger?.close_time === 'number' ? rippleTimeToIso(ledger.close_time) : null;
}

/** The newest snapshot of one kind of rippled answer; DATA_NOT_READY when the job took none of that kind yet. */
export async function latestSnapshot(engine: Engine, kind: 'fee' | 'server_info'): Promise<NetworkSnapshot> {
  const [snapshot] = await sources<NetworkSnapshot>(engine, 'network', buildLatestSnapshotQuery(kind));
  if (snapshot === undefined) throw dataNotReady(NETWORK_DATA_SET, `/network/${kind}`);
  return snapshot;
}

/**
 * The ledgers this service has indexed, beside a rippled answer whose ledger fields describe its
 * server (the oldest from the index, kept a minute; the newest, kept half a second).
 */
async function indexedSpan(engine: Engine): Promise<Json> {
  const [oldest, latest] = await Promise.all([oldestLedger(engine), latestLedger(engine)]);
  return { ledger_index_min: oldest, ledger_index_max: latest.ledger_index };
}

/** GET /network/fee: the newest fee snapshot, when it was taken and what this service has indexed. */
export async function networkFee(engine: Engine): Promise<Json> {
  const [snapshot, indexed] = await Promise.all([latestSnapshot(engine, 'fee'), indexedSpan(engine)]);
  return {
    ...snapshot.payload,
    snapshot: shapeSnapshot(snapshot, await snapshotTime(engine, snapshot)),
    indexed,
  };
}

/** GET /network/server_info: the `info` of the newest server_info snapshot, when taken, and what this service has indexed. */
export async function serverInfo(engine: Engine): Promise<Json> {
  const [snapshot, indexed] = await Promise.all([latestSnapshot(engine, 'server_info'), indexedSpan(engine)]);
  return {
    info: snapshot.payload.info ?? {},
    snapshot: shapeSnapshot(snapshot, await snapshotTime(engine, snapshot)),
    indexed,
  };
}

/** GET /network/server_versions: versions from server snapshots, nodes and validators, newest first. */
export async function serverVersions(engine: Engine): Promise<string[]> {
  const terms = async (kind: 'network' | 'nodes' | 'validators', field: string): Promise<string[]> => {
    const found = await engine.search(kind, buildVersionsQuery(field));
    const agg = found.aggregations?.versions as { buckets: { key: string }[] } | undefined;
    return (agg?.buckets ?? []).map((b) => String(b.key));
  };
  return shapeServerVersions(
    await Promise.all([
      terms('network', 'build_version'),
      terms('nodes', 'server_version'),
      terms('validators', 'server_version.version'),
    ]),
  );
}

/** GET /nodes: the nodes the newest crawl saw (since that crawl started). */
export async function nodeList(engine: Engine): Promise<Json[]> {
  const run = await readJobRun(engine, NODES_DATA_SET.job);
  if (run === undefined) throw dataNotReady(NODES_DATA_SET, '/nodes');
  const since = (run.detail as { started_at?: string } | undefined)?.started_at ?? run.updated_at;
  return sources<Json>(engine, 'nodes', buildNodesQuery(since));
}

/** GET /node/{NODE_PUBLIC_KEY}: one node, as last seen. */
export async function nodeByKey(engine: Engine, key: string): Promise<Json> {
  const node = await engine.get<Json>('nodes', key);
  if (node === undefined) throw new NotFoundError(`No crawl has seen node ${key}.`, { public_key: key });
  return node;
}

/** GET /names/well-known: every label. */
export async function wellKnownNames(engine: Engine): Promise<Json[]> {
  return sources<Json>(engine, 'names', buildWellKnownNamesQuery());
}
