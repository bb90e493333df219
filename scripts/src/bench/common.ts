import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import {
  applyTemplates,
  layoutOf,
  createEngineClient,
  createLogger,
  deleteTemplatesAndIndices,
  engineUrl,
  indexName,
  repoRoot,
  fixturesDir,
  loadConfig,
  type Client,
  type Config,
  type DeepPartial,
  type IndexNaming,
} from '@xle/core';
import { normalizeLedger, type LedgerInput } from '@xle/documents';
import { pidFile, recordedCluster } from '@xle/engine';
import {
  ActivationEnricher,
  activationRecords,
  type BulkItem,
  bulkLines,
  firstRefusal,
  IngestEngine,
  ledgerBatches,
  listLedgerFiles,
  prepareBatch,
} from '@xle/ingester';
import { listeningUrl } from '@xle/test-helpers';

/**
 * A benchmark's numeric options from the command line (`--name N`), parsed with node:util
 * parseArgs: unknown options and values that are not positive integers end the run with its usage.
 */
export function numericOptions<const K extends string>(
  usage: string,
  defaults: Record<K, number>,
  extra: Record<string, { type: 'string' }> = {},
): { numbers: Record<K, number>; strings: Record<string, string | undefined> } {
  const options = Object.fromEntries(
    [...Object.keys(defaults), ...Object.keys(extra)].map((name) => [name, { type: 'string' as const }]),
  );
  let values: Record<string, string | undefined>;
  try {
    values = parseArgs({ args: process.argv.slice(2), options, strict: true }).values as Record<
      string,
      string | undefined
    >;
  } catch (error) {
    console.error(`${(error as Error).message}\nusage: ${usage}`);
    process.exit(64);
  }
  const numbers = {} as Record<K, number>;
  for (const [name, fallback] of Object.entries(defaults) as [K, number][]) {
    const text = values[name];
    const n = text === undefined ? fallback : Number(text);
    if (!Number.isSafeInteger(n) || n < 0) {
      console.error(`--${name} takes a whole number, not ${text}\nusage: ${usage}`);
      process.exit(64);
    }
    numbers[name] = n;
  }
  return { numbers, strings: values };
}

/** The real fixture ledgers, normalised: the templates every benchmark's data is made from. */
export function fixtureLedgers(): LedgerInput[] {
  return listLedgerFiles(`${fixturesDir}/ledgers`).map((f) => normalizeLedger(JSON.parse(readFileSync(f, 'utf8'))));
}

/** Indices of a fresh prefix (its templates applied), for one side of a comparison. */
export async function freshIndices(client: Client, config: Config, label: string): Promise<IndexNaming> {
  const naming: IndexNaming = {
    prefix: `bench-${label}-${randomBytes(3).toString('hex')}`,
    network: config.network,
    rangeLedgers: config.es.rangeLedgers,
  };
  // The configuration's layout, recorded as `templates apply` records it: the servers a benchmark
  // starts with this configuration check it.
  await applyTemplates(client, naming, { layout: layoutOf(config) });
  return naming;
}

/** The p-th percentile of sorted numbers. */
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

export const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MB`;

/** A benchmark's own indices: a fresh prefix on the configured engine, removed by `drop`. */
export interface BenchIndices {
  /** The configuration, with the fresh prefix (for servers the benchmark starts). */
  config: Config;
  client: Client;
  naming: IndexNaming;
  /** Deletes the indices and templates of the prefix, then closes the client. */
  drop: () => Promise<void>;
}

export async function benchIndices(
  label: string,
  overrides: DeepPartial<Config> = {},
  requestTimeout = 120_000,
): Promise<BenchIndices> {
  const base = loadConfig({ overrides });
  const client = createEngineClient(base, { requestTimeout });
  const naming = await freshIndices(client, base, label);
  const config = loadConfig({ overrides: { ...overrides, es: { ...overrides.es, indexPrefix: naming.prefix } } });
  return {
    config,
    client,
    naming,
    drop: async () => {
      await deleteTemplatesAndIndices(client, naming);
      await client.close();
    },
  };
}

/** One HTTP request of a latency measure. */
export interface TimedRequest {
  url: string;
  init?: RequestInit;
}

export interface Latency {
  p50: number;
  p99: number;
}

/**
 * Milliseconds from sending `request` to the last byte of a 200 answer (anything else ends the
 * run); a list of requests is sent in turn (an engine lookup made of several requests), timed whole.
 */
export async function timedRequest(request: TimedRequest | readonly TimedRequest[]): Promise<number> {
  const started = performance.now();
  for (const { url, init } of [request].flat()) {
    const response = await fetch(url, init);
    const answer = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200) throw new Error(`${url}: ${response.status} ${answer.toString('utf8', 0, 300)}`);
  }
  return performance.now() - started;
}

/** CPU time (user + system) a process has used so far, in microseconds, from /proc (10 ms ticks). */
export function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / 100;
}

const summary = (times: number[]): Latency => {
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
};

/** The names in a random order (Fisher-Yates). */
function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * p50 / p99 of `requests` requests made by each maker, interleaved (one of each per round, so all
 * sides see the same machine weather), one at a time and at most `perSecond` rounds a second
 * (10 % under it: a timer may fire up to a millisecond early). The first 20 rounds warm up. Each
 * round takes the sides in a new random order: in a fixed order, the side right after the direct
 * engine query measured 0.2-0.3 ms slower at p50 than the same server placed later (the same two
 * API builds, swapped), so a fixed order charges one side for another's wake.
 */
export async function pairedLatency<K extends string>(
  requests: number,
  perSecond: number,
  makers: Record<K, (round: number) => TimedRequest | readonly TimedRequest[]>,
): Promise<Record<K, Latency>> {
  const slot = perSecond === Infinity ? 0 : 1000 / (perSecond * 0.9);
  const names = Object.keys(makers) as K[];
  const times = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
  for (let i = 0; i < requests + 20; i += 1) {
    for (const name of shuffled(names)) {
      const ms = await timedRequest(makers[name](i));
      if (i >= 20) times[name].push(ms);
      if (ms < slot) await sleep(slot - ms);
    }
  }
  return Object.fromEntries(names.map((n) => [n, summary(times[n])])) as Record<K, Latency>;
}

/** An API server in its own process, as users run it (`node packages/site/dist/src/server.js`). */
export interface ApiProcess {
  url: string;
  child: ChildProcess;
  /** SIGTERM, then waits for the exit. */
  close: () => Promise<void>;
}

/**
 * Starts the API on a free port over the benchmark's indices, in the default configuration but for
 * `env` (its JSON log lines are read and dropped, as a log shipper would).
 */
export function startApiProcess(
  config: Config,
  env: Record<string, string> = {},
  nodeArgs: readonly string[] = [],
): Promise<ApiProcess> {
  return startServerProcess(
    `${repoRoot}packages/site/dist/src/server.js`,
    {
      ES_URL: engineUrl(config),
      ES_INDEX_PREFIX: config.es.indexPrefix,
      XLE_NETWORK: config.network,
      API_PORT: '0',
      ...env,
    },
    nodeArgs,
  );
}

/**
 * Starts a server script in its own process and waits for the first output line that names its
 * `url` (JSON); later lines are read and dropped.
 */
export async function startServerProcess(
  script: string,
  env: Record<string, string>,
  nodeArgs: readonly string[] = [],
): Promise<ApiProcess> {
  const child = spawn(process.execPath, [...nodeArgs, script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const close = async (): Promise<void> => {
    if (child.exitCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  };
  const url = await listeningUrl(child.stdout!, script);
  child.stdout!.resume();
  return { url, child, close };
}

/** A process's resident memory now and at its peak (VmHWM), from /proc. */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string): number => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** The first ledger of the generated transactions; each ledger holds TRANSACTIONS_PER_LEDGER of them. */
export const GENERATED_FIRST_LEDGER = 90_000_000;
export const TRANSACTIONS_PER_LEDGER = 20;

/**
 * `count` transaction documents cloned from the real fixture transactions (as the ingester builds
 * them), each with its own hash, ledger index (20 a ledger from GENERATED_FIRST_LEDGER) and
 * TransactionIndex, bulk-loaded into the transactions index of `naming` and refreshed.
 */
export async function loadGeneratedTransactions(client: Client, naming: IndexNaming, count: number): Promise<void> {
  const engine = new IngestEngine(client, naming, createLogger('bench', 'silent'));
  const ops = await prepareBatch(fixtureLedgers(), engine, new ActivationEnricher(engine), 0);
  const templates = ops.filter((op) => op.range?.kind === 'transactions').map((op) => op.doc);
  const transactions = indexName(naming, 'transactions');
  const started = performance.now();
  let next = 0;
  const body = (): string | undefined => {
    if (next >= count) return undefined;
    let text = '';
    const end = Math.min(count, next + 2000);
    for (; next < end; next += 1) {
      const template = templates[next % templates.length] as Record<string, unknown>;
      const hash = createHash('sha256').update(String(next)).digest('hex').toUpperCase();
      const doc = {
        ...template,
        hash,
        ledger_index: GENERATED_FIRST_LEDGER + Math.floor(next / TRANSACTIONS_PER_LEDGER),
        meta: { ...(template.meta as Record<string, unknown>), TransactionIndex: next % TRANSACTIONS_PER_LEDGER },
      };
      text += `{"index":{"_index":"${transactions}","_id":"${hash}"}}\n${JSON.stringify(doc)}\n`;
    }
    return text;
  };
  const worker = async (): Promise<void> => {
    for (let chunk = body(); chunk !== undefined; chunk = body()) {
      await client.transport.request(
        { method: 'POST', path: '/_bulk', body: chunk, querystring: { filter_path: 'errors' } },
        { headers: { 'content-type': 'application/x-ndjson' } },
      );
      if (next % 100_000 < 2000) process.stdout.write(`\r  loaded ${next.toLocaleString('en')} documents`);
    }
  };
  await Promise.all([worker(), worker()]);
  await client.indices.refresh({ index: transactions });
  process.stdout.write(
    `\r  loaded ${count.toLocaleString('en')} documents in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
}

/**
 * The raw side of an ingest comparison, built before its clock starts: the documents the pipeline
 * writes for `ledgers` (its own batches, transforms and activation lookups against `engine`'s
 * indices), with each batch's activation records, as `_bulk` NDJSON bodies of about `flushBytes`
 * (the writer's default, 5 MB).
 */
export async function rawBulkBodies(
  engine: IngestEngine,
  ledgers: readonly LedgerInput[],
  flushBytes = 5_000_000,
): Promise<{ bodies: string[]; documents: number }> {
  async function* source(): AsyncGenerator<LedgerInput> {
    yield* ledgers;
  }
  const activations = new ActivationEnricher(engine);
  const bodies: string[] = [];
  let body = '';
  let documents = 0;
  for await (const batch of ledgerBatches(source())) {
    const ops = await prepareBatch(batch, engine, activations, 0);
    documents += ops.length;
    // Ours writes each batch's activation records first: so does raw.
    for (const op of [...activationRecords(ops, engine.index('activations')), ...ops]) {
      body += bulkLines(op);
      if (body.length >= flushBytes) {
        bodies.push(body);
        body = '';
      }
    }
  }
  if (body !== '') bodies.push(body);
  return { bodies, documents };
}

/** What the engine did for some indices, summed over primaries and replicas (their statistics). */
export interface EngineWork {
  refreshes: number;
  /** Refreshes that made documents visible to searches (scheduled or asked); the rest are the engine's own (realtime gets). */
  externalRefreshes: number;
  gets: number;
  indexOps: number;
  deletes: number;
  merges: number;
  mergeMs: number;
  flushes: number;
}

const noWork = (): EngineWork => ({
  refreshes: 0,
  externalRefreshes: 0,
  gets: 0,
  indexOps: 0,
  deletes: 0,
  merges: 0,
  mergeMs: 0,
  flushes: 0,
});

/**
 * The engine's work on a prefix's indices by index kind (a range index counts as its kind), from
 * their statistics: read before and after a run, the difference is what the run cost the engine.
 */
export async function engineWork(client: Client, naming: IndexNaming): Promise<Map<string, EngineWork>> {
  const stats = await client.indices.stats({
    index: `${naming.prefix}-*`,
    metric: ['refresh', 'get', 'indexing', 'merge', 'flush'],
    level: 'indices',
  });
  const work = new Map<string, EngineWork>();
  for (const [name, index] of Object.entries(stats.indices ?? {})) {
    // prefix-kind, or prefix-kind-<first ledger>-g<generation> for a range index.
    const kind = name.slice(naming.prefix.length + 1).replace(/-\d+-g\d+$/, '');
    const total = index.total ?? {};
    const into = work.get(kind) ?? noWork();
    into.refreshes += total.refresh?.total ?? 0;
    into.externalRefreshes += total.refresh?.external_total ?? 0;
    into.gets += total.get?.total ?? 0;
    into.indexOps += total.indexing?.index_total ?? 0;
    into.deletes += total.indexing?.delete_total ?? 0;
    into.merges += total.merges?.total ?? 0;
    into.mergeMs += total.merges?.total_time_in_millis ?? 0;
    into.flushes += total.flush?.total ?? 0;
    work.set(kind, into);
  }
  return work;
}

/** The work of every kind together. */
export function workSum(works: Iterable<EngineWork>): EngineWork {
  const sum = noWork();
  for (const work of works) for (const key of Object.keys(sum) as (keyof EngineWork)[]) sum[key] += work[key];
  return sum;
}

/** What each kind's work grew by between two readings (a kind absent before: from zero). */
export function workSince(
  before: ReadonlyMap<string, EngineWork>,
  after: ReadonlyMap<string, EngineWork>,
): Map<string, EngineWork> {
  const since = new Map<string, EngineWork>();
  for (const [kind, now] of after) {
    const then = before.get(kind) ?? noWork();
    const d = noWork();
    for (const key of Object.keys(d) as (keyof EngineWork)[]) d[key] = now[key] - then[key];
    since.set(kind, d);
  }
  return since;
}

/**
 * Sends prebuilt `_bulk` bodies with `concurrency` requests in flight (the writer's default, 2),
 * and takes the answers as the writer does: a 409 is superseded, a delete of an absent document is
 * done, any other refusal stops the run.
 */
export async function sendRawBulk(client: Client, bodies: readonly string[], concurrency = 2): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < bodies.length) {
      const body = bodies[next] as string;
      next += 1;
      const answer = (await client.transport.request(
        { method: 'POST', path: '/_bulk', body, querystring: { filter_path: 'errors,items.*.status,items.*.error' } },
        { headers: { 'content-type': 'application/x-ndjson' } },
      )) as { items?: BulkItem[] };
      const refused = firstRefusal(answer.items);
      if (refused !== undefined) throw new Error(`the raw side was refused documents: ${JSON.stringify(refused)}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/**
 * Where a benchmark's processes run on this machine. `shared`: the local engine and the benchmark
 * compete for every core, as on one small machine. `split`: every node of the local engine is
 * pinned to the first half of the cores and this process to the rest (taskset), as when the
 * ingester runs beside a cluster, not on its cores. Split needs the local engine (its pid files)
 * and two cores; elsewhere everything stays shared.
 */
export type Placement = 'shared' | 'split';

export interface LocalPlacement {
  cores: number;
  half: number;
  canSplit: boolean;
  pin: (placement: Placement) => void;
  /** CPU seconds (user + system) of the local engine's JVMs, read from /proc; undefined elsewhere. */
  engineCpuSeconds: () => number | undefined;
}

export function localPlacement(config: Config): LocalPlacement {
  const pids = recordedCluster(config).nodes.flatMap((node) => {
    try {
      const pid = readFileSync(pidFile(node), 'utf8').trim();
      return existsSync(`/proc/${pid}`) ? [pid] : [];
    } catch {
      return [];
    }
  });
  const cores = availableParallelism();
  const half = Math.floor(cores / 2);
  const canSplit = cores >= 2 && pids.length > 0;
  return {
    cores,
    half,
    canSplit,
    pin: (placement) => {
      if (!canSplit) return;
      const engineCores = placement === 'split' ? `0-${half - 1}` : `0-${cores - 1}`;
      const ownCores = placement === 'split' ? `${half}-${cores - 1}` : `0-${cores - 1}`;
      for (const pid of pids) execFileSync('taskset', ['-a', '-p', '-c', engineCores, pid], { stdio: 'ignore' });
      execFileSync('taskset', ['-a', '-p', '-c', ownCores, String(process.pid)], { stdio: 'ignore' });
    },
    engineCpuSeconds: () => {
      if (pids.length === 0) return undefined;
      let total = 0;
      for (const pid of pids) {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
        total += (Number(fields[11]) + Number(fields[12])) / 100;
      }
      return total;
    },
  };
}
