#!/usr/bin/env node
/**
 * Scale: what grows, and how, as the indexed history grows, on the configured cluster in the
 * default configuration (run it on the three-node local cluster: `pnpm engine start --nodes 3`):
 *
 *   pnpm bench:scale [--sizes 100000,1000000,5000000] [--increment N] [--sample N] [--requests N]
 *                    [--shards N] [--ranges N] [--span-days N] [--keep]
 *
 * Data: deterministic synthetic ledgers made from the real fixture ledgers (test/helpers
 * synthetic.ts: real transactions, fresh ledgers and hashes, accounts from a Zipf pool that keep
 * transacting, one heavy account with 22 % of all transactions, a ledger state that levels off
 * as mainnet's does: OBJECT_SLOTS below), fed through the normal pipeline
 * into one fresh prefix that grows from size to size, in mainnet's shape: `--ranges` range indices
 * at the largest size (default 60), `--shards` primaries each (default 2), close times spread over
 * `--span-days` days (default 180). At each size it prints:
 * - ingest: transactions/s of the pipeline over the whole step, and on equal samples of the next
 *   ledgers written into the grown prefix, ours next to the engine's raw `_bulk` of the very
 *   documents ours writes (two pairs, each order once), on shared cores and, with the local
 *   engine, apart (common.ts);
 * - bytes on disk per transaction after a force-merge: the transactions alone, and everything;
 * - p50 / p99 through the API (default access mode, an Enterprise key, paced under its burst
 *   limit) next to the same engine requests sent directly (tx by hash: its locator, then the
 *   document from its range), and the shard-level query and get operations each API request costs
 *   (the cluster's node statistics over 50 requests): tx by hash, account info, the first and the
 *   1,000th page of the heavy account's transactions, the first page of a sparse account's (one
 *   whose transactions lie in at most 3 ranges; the engine's side of both first pages is the
 *   account's activity documents on their shard, then the page by id from its ranges), a ledger's
 *   transactions, and one SQL CSV export; the populated transaction ranges;
 * - each derived job's wall time: incremental (the median of INCREMENTS runs, each after
 *   `--increment` more transactions) and full, each timed once the increment is refreshed and no
 *   merge runs (the writes' refresh and merges are the ingest's cost, paid continuously under the
 *   live refresh interval).
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { ApiKeyStore } from '@xle/access';
import { startServer } from '@xle/api';
import {
  ConfigSchema,
  createLogger,
  deleteTemplatesAndIndices,
  engineUrl,
  indexName,
  layoutOf,
  rangeAlias,
  rangeIndices,
  rangeStart,
  type RangedKind,
} from '@xle/core';
import { affectedAccounts, type Json, type LedgerInput } from '@xle/documents';
import {
  CheckpointStore,
  IngestEngine,
  JOB_NAMES,
  runJob,
  runPipeline,
  DEFAULT_SCORE_CONFIG,
  directoryTomlSource,
  type JobName,
  parseValidation,
  validationId,
  type WriteOp,
} from '@xle/ingester';
import { createTestValidator, makeTomlDir, syntheticLedgers } from '@xle/test-helpers';
import {
  benchIndices,
  engineWork,
  type EngineWork,
  fixtureLedgers,
  freshIndices,
  mb,
  localPlacement,
  pairedLatency,
  percentile,
  type Placement,
  rawBulkBodies,
  sendRawBulk,
  type Latency,
  type TimedRequest,
  workSince,
} from './common.js';

const USAGE =
  'pnpm bench:scale [--sizes 100000,1000000,5000000] [--increment N] [--sample N] [--requests N] [--shards N] [--ranges N] [--span-days N] [--keep]';
const args = (() => {
  try {
    return parseArgs({
      args: process.argv.slice(2),
      options: {
        sizes: { type: 'string', default: '100000,1000000,5000000' },
        increment: { type: 'string', default: '10000' },
        sample: { type: 'string', default: '30000' },
        requests: { type: 'string', default: '300' },
        shards: { type: 'string', default: '2' },
        ranges: { type: 'string', default: '60' },
        'span-days': { type: 'string', default: '180' },
        keep: { type: 'boolean', default: false },
      },
      strict: true,
    }).values;
  } catch (error) {
    console.error(`${(error as Error).message}\nusage: ${USAGE}`);
    process.exit(64);
  }
})();
const whole = (text: string, name: string): number => {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n <= 0) {
    console.error(`--${name} takes whole numbers, not ${text}\nusage: ${USAGE}`);
    process.exit(64);
  }
  return n;
};
const SIZES = args.sizes.split(',').map((s) => whole(s, 'sizes'));
const INCREMENT = whole(args.increment, 'increment');
const SAMPLE = whole(args.sample, 'sample');
const REQUESTS = whole(args.requests, 'requests');
// Mainnet's shape at a benchmark's size: history split into --ranges range indices at the largest
// size (mainnet's ranges hold more transactions, but it is their number that reads fan out over), --shards primaries each, and close times spread over --span-days days
// (lookups by date and the jobs' 24 h / 7 d windows then see months, not hours).
const SHARDS = whole(args.shards, 'shards');
const RANGES = whole(args.ranges, 'ranges');
const SPAN_DAYS = whole(args['span-days'], 'span-days');
/** The smallest range the configuration allows (es.rangeLedgers' minimum). */
const MIN_RANGE_LEDGERS = (ConfigSchema.properties.es.properties.rangeLedgers as { minimum?: number }).minimum ?? 1;
/**
 * Incremental job runs timed at each size, each after its own --increment: their median is the
 * figure (one run of a sub-second job on shared cores moves by half its time from noise alone).
 */
const INCREMENTS = 3;
// Each step writes its samples (two pairs of two sides, per placement: at most 8 × --sample) into
// the prefix as the previous step left it (the first into an empty one), then grows it to its
// size less INCREMENTS × --increment, then by --increment INCREMENTS times: a size must lie beyond
// the previous one by more than the samples and INCREMENTS + 1 increments, the first beyond the
// samples and INCREMENTS.
const SAMPLED = 8 * SAMPLE;
if (
  SIZES.some((s, i) => i > 0 && s <= (SIZES[i - 1] as number) + SAMPLED + (INCREMENTS + 1) * INCREMENT) ||
  (SIZES[0] as number) <= SAMPLED + INCREMENTS * INCREMENT
) {
  console.error(
    `--sizes must grow by more than 8 × --sample + ${INCREMENTS + 1} × --increment, the first above 8 × --sample + ${INCREMENTS} × --increment (the samples are written before each size is reached)\nusage: ${USAGE}`,
  );
  process.exit(64);
}

const logger = createLogger('bench', 'silent');
const largest = SIZES[SIZES.length - 1] as number;
// Ranges hold at least MIN_RANGE_LEDGERS ledgers, so --ranges at the largest size comes from
// fewer transactions a ledger (5 to 50, synthetic.ts's default being 50; mainnet's mean is 20-50).
const PER_LEDGER = Math.min(
  50,
  Math.max(5, Math.floor((largest + INCREMENTS * INCREMENT) / (RANGES * MIN_RANGE_LEDGERS))),
);
const LEDGERS = Math.ceil((largest + INCREMENTS * INCREMENT) / PER_LEDGER);
const RANGE_LEDGERS = Math.max(MIN_RANGE_LEDGERS, Math.floor(LEDGERS / RANGES));
const CLOSE_SECONDS = Math.max(4, Math.round((SPAN_DAYS * 86_400) / LEDGERS));
// The default configuration but for the layout's shards and range size; the port and log level.
const { config, client, naming, drop } = await benchIndices(
  'scale',
  { api: { port: 0 }, log: { level: 'silent' }, es: { shards: SHARDS, rangeLedgers: RANGE_LEDGERS } },
  600_000,
);
const engine = new IngestEngine(client, naming, logger, layoutOf(config));
await engine.applyTemplates();
const health = await client.cluster.health();
// Ingest samples run with the engine and this process on shared cores, and apart when the engine is local.
const local = localPlacement(config);
const placements: Placement[] = local.canSplit ? ['shared', 'split'] : ['shared'];
const tomlDir = makeTomlDir();
const tokens = { toml: directoryTomlSource(tomlDir), tomlMaxAgeMs: 3600_000, score: DEFAULT_SCORE_CONFIG };

/**
 * Ids each template's ledger object may take (synthetic.ts): the generated entries other than
 * AccountRoots level off (counted from the metadata at 17 transactions a ledger: 29,000 live at
 * 100,000 transactions, 34,000 at 1,000,000; unbounded, 115,000 and 910,000), as mainnet's state
 * does not follow its history; with the accounts' roots, which keep growing as new accounts
 * come, the objects index held 45,132 and 106,967 documents at those sizes. The jobs that read
 * the whole state (facts) or a token's trust lines (tokens) are then timed on a state of about
 * one size at every size, which is what "flat while history grows" asks of them.
 */
const OBJECT_SLOTS = 32;
// No source checks hashes here (the pipeline is fed directly), and real ones cost ~6 ms a transaction.
const set = syntheticLedgers(fixtureLedgers(), {
  transactions: largest + INCREMENTS * INCREMENT,
  hashed: false,
  perLedger: PER_LEDGER,
  closeSeconds: CLOSE_SECONDS,
  objectSlots: OBJECT_SLOTS,
});
const stream = set[Symbol.iterator]();
let indexed = 0;
/** A few of what was generated, to look up: hashes, accounts, ledgers (reservoir samples). */
const seen = { hashes: [] as string[], accounts: [] as string[], ledgers: [] as number[] };
let sampled = 0;
/** Each account's transactions (rippled's membership) and the ranges that hold them, to pick a sparse account. */
const histories = new Map<string, { count: number; ranges: Set<number> }>();
function remember(ledger: LedgerInput): void {
  const range = rangeStart(naming, ledger.ledger_index);
  for (const tx of ledger.transactions) {
    for (const account of affectedAccounts(tx.metaData as Json)) {
      const known = histories.get(account) ?? { count: 0, ranges: new Set<number>() };
      known.count += 1;
      known.ranges.add(range);
      histories.set(account, known);
    }
    // Pseudo-transactions (UNLModify, …) carry an empty Account: nothing to look up.
    if (tx.Account === '') continue;
    sampled += 1;
    const slot = sampled <= 500 ? sampled - 1 : Math.floor(Math.random() * sampled);
    if (slot < 500) {
      seen.hashes[slot] = String(tx.hash);
      seen.accounts[slot] = String(tx.Account);
      seen.ledgers[slot] = ledger.ledger_index;
    }
  }
}
/** The next ledgers of the stream, up to `transactions` transactions. */
function take(transactions: number): LedgerInput[] {
  const out: LedgerInput[] = [];
  let count = 0;
  while (count < transactions) {
    const next = stream.next();
    if (next.done === true) break;
    out.push(next.value);
    count += next.value.transactions.length;
    remember(next.value);
  }
  return out;
}

/** Ours: the pipeline over `transactions` more transactions, generated as it goes. */
async function ingest(transactions: number): Promise<{ seconds: number; transactions: number; documents: number }> {
  let count = 0;
  async function* source(): AsyncGenerator<LedgerInput> {
    while (count < transactions) {
      const next = stream.next();
      if (next.done === true) return;
      count += next.value.transactions.length;
      remember(next.value);
      yield next.value;
    }
  }
  const started = performance.now();
  const totals = await runPipeline(source(), engine, new CheckpointStore(engine, 'bench'));
  if (totals.deadLetters > 0) throw new Error(`${totals.deadLetters} dead letters`);
  indexed += count;
  return { seconds: (performance.now() - started) / 1000, transactions: count, documents: totals.documents };
}

interface SideCost {
  /** Wall seconds. */
  seconds: number;
  /** CPU seconds of every node of the local engine (undefined elsewhere) and of this process. */
  engineCpu: number;
  ownCpu: number;
}
type SampleCost = Record<'raw' | 'ours', SideCost>;

/** Per kind that wrote or read: writes (index and delete operations) / realtime gets / refreshes / merge seconds. */
function workLine(work: ReadonlyMap<string, EngineWork>): string {
  return [...work]
    .filter(([, w]) => w.indexOps + w.deletes + w.gets > 0)
    .map(
      ([kind, w]) => `${kind} ${w.indexOps + w.deletes}w/${w.gets}g/${w.refreshes}r/${(w.mergeMs / 1000).toFixed(1)}s`,
    )
    .join(', ');
}

/**
 * The engine's raw `_bulk` against ours on equal samples of the next ledgers, each written into the
 * grown prefix itself (equally sized targets): raw sends the documents ours would write for its
 * sample (built before its clock starts). Two pairs, raw first then ours first, since whichever
 * runs second inherits the merges the first one's writes set off, the first side of a pair writing
 * the older ledgers; the figures are the sums over both pairs. Both run under `placement`
 * (common.ts: shared cores, or the local engine and this process apart).
 */
async function sampleRatio(transactions: number, placement: Placement): Promise<SampleCost> {
  const timed = async (work: () => Promise<unknown>): Promise<SideCost> => {
    const counters = await engineWork(client, naming);
    const started = performance.now();
    const cpu = process.cpuUsage();
    const engineBefore = local.engineCpuSeconds() ?? NaN;
    await work();
    const own = process.cpuUsage(cpu);
    const cost = {
      seconds: (performance.now() - started) / 1000,
      engineCpu: (local.engineCpuSeconds() ?? NaN) - engineBefore,
      ownCpu: (own.user + own.system) / 1e6,
    };
    console.log(
      `    engine work (writes/gets/refreshes/merge s): ${workLine(workSince(counters, await engineWork(client, naming)))}`,
    );
    return cost;
  };
  const zero = (): SideCost => ({ seconds: 0, engineCpu: 0, ownCpu: 0 });
  const total: SampleCost = { raw: zero(), ours: zero() };
  const add = (side: 'raw' | 'ours', cost: SideCost): void => {
    total[side].seconds += cost.seconds;
    total[side].engineCpu += cost.engineCpu;
    total[side].ownCpu += cost.ownCpu;
  };
  for (const rawFirst of [true, false]) {
    // The side that runs first writes the older ledgers, so both write ledger state forwards, newer
    // over older, as an ingest in ledger order does. The other way round, the second side's state
    // writes would be refused as older than the first side's (409s), much less work for the engine.
    const older = take(transactions);
    const newer = take(transactions);
    const [rawLedgers, oursLedgers] = rawFirst ? [older, newer] : [newer, older];
    await engine.ensureRangesBetween(
      ['ledgers', 'transactions', 'balance-changes'],
      (older[0] as LedgerInput).ledger_index,
      (newer.at(-1) as LedgerInput).ledger_index,
    );
    // Raw's documents are built (before its clock) from the state as its run finds it, as ours are.
    const raw = async (): Promise<SideCost> => {
      local.pin('shared');
      const { bodies } = await rawBulkBodies(engine, rawLedgers);
      local.pin(placement);
      return timed(() => sendRawBulk(client, bodies));
    };
    const ours = (): Promise<SideCost> =>
      timed(async () => {
        async function* source(): AsyncGenerator<LedgerInput> {
          yield* oursLedgers;
        }
        const totals = await runPipeline(source(), engine, new CheckpointStore(engine, 'bench'));
        if (totals.deadLetters > 0) throw new Error(`${totals.deadLetters} dead letters`);
      });
    local.pin(placement);
    let pair: SampleCost;
    try {
      // In the order written: a literal's properties are evaluated in turn.
      pair = rawFirst ? { raw: await raw(), ours: await ours() } : { ours: await ours(), raw: await raw() };
    } finally {
      local.pin('shared');
    }
    add('raw', pair.raw);
    add('ours', pair.ours);
    console.log(
      `  sample pair (${placement} cores, ${rawFirst ? 'raw' : 'ours'} first): ${(['raw', 'ours'] as const).map((side) => `${side} ${pair[side].seconds.toFixed(1)} s (engine CPU ${pair[side].engineCpu.toFixed(1)} s, own ${pair[side].ownCpu.toFixed(1)} s)`).join(', ')}: ${((pair.raw.seconds / pair.ours.seconds) * 100).toFixed(1)} %`,
    );
    indexed += [...rawLedgers, ...oursLedgers].reduce((n, l) => n + l.transactions.length, 0);
  }
  return total;
}

/**
 * Makes the increment searchable, as the live refresh interval (1 s) does while `ingest live`
 * writes (the benchmark writes with the backfill's slow one), then waits (at most two minutes)
 * until no node is merging segments: the jobs are timed on their own work, not on the refresh and
 * merges the increment's writes left behind them.
 */
async function settle(): Promise<void> {
  await client.indices.refresh({ index: `${naming.prefix}-*` });
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    const stats = await client.nodes.stats({ metric: 'indices', index_metric: 'merge' });
    const merging = Object.values(stats.nodes).reduce((n, node) => n + (node.indices?.merges?.current ?? 0), 0);
    if (merging === 0) return;
    await sleep(500);
  }
}

async function jobs(full: boolean): Promise<Record<JobName, number>> {
  const times = {} as Record<JobName, number>;
  await settle();
  for (const name of JOB_NAMES) {
    const started = performance.now();
    await runJob({ engine }, name, tokens, { full });
    times[name] = (performance.now() - started) / 1000;
  }
  return times;
}

/**
 * The single indices that grow with the ledger: the ledger-state indices, whose size follows the
 * current state (deletions: see pipeline/watermark.ts), and the locators (one per transaction and
 * ledger hash, which follow the history).
 */
const STATE_KINDS = ['objects', 'accounts', 'deletions', 'activations', 'nfts', 'locators'] as const;
type StateSize = Record<(typeof STATE_KINDS)[number], { docs: number; bytes: number }>;

/**
 * Bytes on disk (primaries) after a force-merge: transactions alone, every index of the prefix,
 * and each ledger-state index (documents and bytes, for the README's sizing).
 */
async function disk(): Promise<{
  transactions: number;
  all: number;
  withReplicas: number;
  count: number;
  state: StateSize;
  /** The balance-changes data set: documents and bytes (primaries, merged). */
  changes: { docs: number; bytes: number };
}> {
  const transactions = indexName(naming, 'transactions');
  await client.indices.refresh({ index: `${naming.prefix}-*` });
  const merged = [
    transactions,
    indexName(naming, 'balance-changes'),
    ...STATE_KINDS.map((kind) => indexName(naming, kind)),
  ];
  await client.indices.forcemerge({ index: merged, max_num_segments: 1 }, { requestTimeout: 3_600_000 });
  const stats = await client.indices.stats({ index: `${naming.prefix}-*`, metric: ['store', 'docs'] });
  let all = 0;
  let withReplicas = 0;
  let tx = 0;
  const ranges = new Set(await rangeIndices(client, naming, 'transactions' as RangedKind));
  const changeRanges = new Set(await rangeIndices(client, naming, 'balance-changes' as RangedKind));
  const changes = { docs: 0, bytes: 0 };
  for (const [name, s] of Object.entries(stats.indices ?? {})) {
    all += s.primaries?.store?.size_in_bytes ?? 0;
    withReplicas += s.total?.store?.size_in_bytes ?? 0;
    if (ranges.has(name)) tx += s.primaries?.store?.size_in_bytes ?? 0;
    if (changeRanges.has(name)) {
      changes.docs += s.primaries?.docs?.count ?? 0;
      changes.bytes += s.primaries?.store?.size_in_bytes ?? 0;
    }
  }
  const state = Object.fromEntries(
    STATE_KINDS.map((kind) => {
      const primaries = stats.indices?.[indexName(naming, kind)]?.primaries;
      return [kind, { docs: primaries?.docs?.count ?? 0, bytes: primaries?.store?.size_in_bytes ?? 0 }];
    }),
  ) as StateSize;
  const count = (await client.count({ index: transactions })).count;
  return { transactions: tx, all, withReplicas, count, state, changes };
}

/**
 * Bytes per validation document on disk (merged), for the README's sizing: documents as the
 * validations consumer writes them (parseValidation, with the verification it adds), of 40
 * validators over 3,000 ledgers, in a scratch prefix. Validations are not in the ledger history,
 * so they cannot come from the synthetic ledgers; signatures are random bytes of a real one's size.
 */
async function validationBytes(): Promise<number> {
  const scratch = await freshIndices(client, config, 'scale-validations');
  try {
    const target = new IngestEngine(client, scratch, logger, layoutOf(config));
    const validators = Array.from({ length: 40 }, (_, i) => createTestValidator(`bench-${i}`));
    const first = 95_000_000;
    const ledgers = 3000;
    await target.ensureRangesBetween(['validations'], first, first + ledgers - 1);
    let ops: WriteOp[] = [];
    for (let ledger = first; ledger < first + ledgers; ledger += 1) {
      const hash = randomBytes(32).toString('hex').toUpperCase();
      for (const v of validators) {
        const doc = parseValidation({
          type: 'validationReceived',
          validation_public_key: v.signing_key,
          master_key: v.master_key,
          ledger_hash: hash,
          ledger_index: String(ledger),
          signing_time: 800_000_000 + ledger * 4,
          signature: randomBytes(71).toString('hex').toUpperCase(),
          full: true,
          flags: 0x80000001,
          cookie: BigInt(`0x${randomBytes(8).toString('hex')}`).toString(),
          server_version: '1745990418580701184',
        });
        doc.verified = true;
        doc.verification_message = 'signature verified';
        ops.push({
          index: target.rangeAlias('validations', ledger),
          id: validationId(doc),
          doc: doc as unknown as WriteOp['doc'],
          ledgerIndex: ledger,
          range: { kind: 'validations', ledgerIndex: ledger },
        });
      }
      if (ops.length >= 20_000) {
        await target.write(ops);
        ops = [];
      }
    }
    await target.write(ops);
    const alias = indexName(scratch, 'validations');
    await client.indices.refresh({ index: alias });
    await client.indices.forcemerge({ index: alias, max_num_segments: 1 }, { requestTimeout: 600_000 });
    const primaries = (await client.indices.stats({ index: alias, metric: ['store', 'docs'] }))._all.primaries;
    return Math.round((primaries?.store?.size_in_bytes ?? 0) / Math.max(1, primaries?.docs?.count ?? 0));
  } finally {
    await deleteTemplatesAndIndices(client, scratch);
  }
}

const es = engineUrl(config).split(',')[0] as string;
/** The heavy account's deep page (20 transactions a page): 20,000 transactions in. */
const DEEP_PAGE = 1000;
const pick = <T>(list: readonly T[], i: number): T => list[i % list.length] as T;

/** Range indices of a kind that hold documents. */
async function populatedRanges(kind: RangedKind): Promise<number> {
  const indices = await rangeIndices(client, naming, kind);
  if (indices.length === 0) return 0;
  const stats = await client.indices.stats({ index: indices, metric: ['docs'] });
  return Object.values(stats.indices ?? {}).filter((s) => (s.primaries?.docs?.count ?? 0) > 0).length;
}

/** Shard-level query and get operations the cluster has run so far (every node's). */
async function shardOperations(): Promise<number> {
  const stats = await client.nodes.stats({ metric: 'indices', index_metric: ['search', 'get'] });
  let total = 0;
  for (const node of Object.values(stats.nodes))
    total += (node.indices?.search?.query_total ?? 0) + (node.indices?.get?.total ?? 0);
  return total;
}

/** Shard operations per request of a lookup through the API, over `n` requests sent alone. */
async function operationsPer(make: () => TimedRequest, n = 50): Promise<number> {
  const before = await shardOperations();
  for (let k = 0; k < n; k += 1) {
    const { url, init } = make();
    const answer = await fetch(url, init);
    await answer.arrayBuffer();
    if (answer.status !== 200) throw new Error(`${url}: ${answer.status}`);
  }
  return ((await shardOperations()) - before) / n;
}

interface Lookup {
  api: Latency;
  direct?: Latency;
  /** Shard-level query and get operations per API request. */
  operations: number;
}

async function lookups(): Promise<Record<string, Lookup>> {
  const api = await startServer(config, logger);
  const { key } = await new ApiKeyStore(client, naming).create('enterprise', 'bench:scale');
  const headers = { 'X-API-Key': key };
  const json = { 'content-type': 'application/json' };
  const heavy = set.heavyAccount;
  const tx = indexName(naming, 'transactions');
  try {
    // The marker of the heavy account's deep page, walked to once.
    // A size too small for DEEP_PAGE pages uses the deepest page it has, and says which.
    let marker: string | undefined;
    let deep = 1;
    for (let page = 1; page < DEEP_PAGE; page += 1) {
      const answer = await fetch(
        `${api.url}/api/v1/account/${heavy}/transactions?limit=20${marker === undefined ? '' : `&marker=${marker}`}`,
        { headers },
      );
      const next = ((await answer.json()) as { marker?: string }).marker;
      if (next === undefined) break;
      marker = next;
      deep = page + 1;
      if (page % 50 === 0) await sleep(300);
    }
    if (marker === undefined) throw new Error('the heavy account has a single page of transactions');
    console.log(
      `  the heavy account's deep page: page ${deep} (${((deep - 1) * 20).toLocaleString('en')} transactions in)`,
    );
    // An account whose transactions lie in at most 3 ranges (the most transactions among those).
    const sparse = [...histories].filter(([, h]) => h.ranges.size <= 3).sort((a, b) => b[1].count - a[1].count)[0];
    if (sparse === undefined) throw new Error('no account whose transactions lie in at most 3 ranges');
    const heavyRanges = histories.get(heavy)?.ranges.size ?? 0;
    console.log(
      `  the heavy account ${heavy}: ${histories.get(heavy)?.count} transactions in ${heavyRanges} ranges; the sparse account ${sparse[0]}: ${sparse[1].count} in ${sparse[1].ranges.size}`,
    );
    // The engine doing what the API does for an account's first page: the account's activity
    // documents on their one shard, then the page's transactions by id from their ranges.
    const activityPage = {
      query: { bool: { filter: [{ term: { key: '' } }, { exists: { field: 'type' } }] } },
      sort: [{ ledger_index: { order: 'desc' } }, { transaction_index: { order: 'desc' } }],
      size: 21,
      track_total_hits: false,
      _source: ['ledger_index', 'hash'],
    };
    const directPage = async (account: string): Promise<TimedRequest[]> => {
      const body = {
        ...activityPage,
        query: { bool: { filter: [{ term: { key: account } }, { exists: { field: 'type' } }] } },
      };
      const activity = `${es}/${indexName(naming, 'activity')}/_search?routing=${account}`;
      const found = (await (
        await fetch(activity, { method: 'POST', headers: json, body: JSON.stringify(body) })
      ).json()) as { hits: { hits: { _source: { ledger_index: number; hash: string } }[] } };
      const page = found.hits.hits.slice(0, 20).map((h) => h._source);
      const ranges = [...new Set(page.map((p) => rangeAlias(naming, 'transactions', p.ledger_index)))];
      return [
        { url: activity, init: { method: 'POST', headers: json, body: JSON.stringify(body) } },
        {
          url: `${es}/${ranges.join(',')}/_search`,
          init: {
            method: 'POST',
            headers: json,
            body: JSON.stringify({ query: { ids: { values: page.map((p) => p.hash) } }, size: 20 }),
          },
        },
      ];
    };
    const [heavyDirect, sparseDirect] = [await directPage(heavy), await directPage(sparse[0])];
    let i = 0;
    const next = (): number => (i += 1);
    const ledgerRange = seen.ledgers;
    const sqlBody = (n: number) =>
      JSON.stringify({
        query: `SELECT hash, ledger_index, TransactionType, Account FROM transactions WHERE ledger_index BETWEEN ${pick(ledgerRange, n)} AND ${pick(ledgerRange, n) + 20}`,
        format: 'csv',
      });
    /** The same query sent to the engine itself, on the transactions alias. */
    const directSearch = (body: unknown) => ({
      url: `${es}/${tx}/_search`,
      init: { method: 'POST', headers: json, body: JSON.stringify(body) },
    });
    const out: Record<string, Lookup> = {};
    const burst = config.access.enterprisePerSecond;
    /** The API and the engine doing the same work, interleaved request by request; then the API's shard operations alone. */
    const paired = async (api: () => TimedRequest, direct: () => TimedRequest | TimedRequest[]): Promise<Lookup> => {
      const { ours, engine } = await pairedLatency(REQUESTS, burst, { ours: api, engine: direct });
      return { api: ours, direct: engine, operations: await operationsPer(api) };
    };
    const apiOnly = async (api: () => TimedRequest): Promise<Lookup> => ({
      api: (await pairedLatency(REQUESTS, burst, { api })).api,
      operations: await operationsPer(api),
    });
    const get = (path: string) => (): TimedRequest => ({ url: `${api.url}${path}`, init: { headers } });
    // The engine's side does what the API does: the hash's locator, then the document from its range.
    out['tx by hash'] = await paired(
      () => get(`/api/v1/tx/${pick(seen.hashes, next())}`)(),
      () => [
        { url: `${es}/${indexName(naming, 'locators')}/_doc/${pick(seen.hashes, i)}` },
        { url: `${es}/${rangeAlias(naming, 'transactions', pick(seen.ledgers, i))}/_doc/${pick(seen.hashes, i)}` },
      ],
    );
    out['account info'] = await paired(
      () => get(`/api/v1/account/${pick(seen.accounts, next())}`)(),
      () => ({ url: `${es}/${indexName(naming, 'accounts')}/_doc/${pick(seen.accounts, i)}` }),
    );
    out['heavy account, page 1'] = await paired(
      get(`/api/v1/account/${heavy}/transactions?limit=20`),
      () => heavyDirect,
    );
    out['heavy account, deep page'] = await apiOnly(
      get(`/api/v1/account/${heavy}/transactions?limit=20&marker=${marker}`),
    );
    out['sparse account (<= 3 ranges), page 1'] = await paired(
      get(`/api/v1/account/${sparse[0]}/transactions?limit=20`),
      () => sparseDirect,
    );
    out["a ledger's transactions"] = await paired(
      () => get(`/api/v1/ledger/${pick(ledgerRange, next())}/transactions`)(),
      () =>
        directSearch({
          query: { term: { ledger_index: pick(ledgerRange, i) } },
          sort: [{ 'meta.TransactionIndex': 'asc' }],
          size: 200,
        }),
    );
    out['SQL CSV export (~1,000 rows)'] = await apiOnly(() => ({
      url: `${api.url}/api/v1/sql`,
      init: { method: 'POST', headers: { ...headers, ...json }, body: sqlBody(next()) },
    }));
    return out;
  } finally {
    await api.close();
  }
}

interface Row {
  size: number;
  ingest: { seconds: number; transactions: number; documents: number };
  samples: Partial<Record<Placement, SampleCost>>;
  disk: Awaited<ReturnType<typeof disk>>;
  incremental: Record<JobName, number>;
  full: Record<JobName, number>;
  lookups: Awaited<ReturnType<typeof lookups>>;
  /** Range indices of the transactions that hold documents. */
  ranges: number;
}
const rows: Row[] = [];
console.log(
  `scale benchmark: sizes ${SIZES.map((s) => s.toLocaleString('en')).join(', ')} transactions; cluster of ${health.number_of_nodes} node(s); engine ${engineUrl(config)}; layout ${JSON.stringify(layoutOf(config))}; ${RANGE_LEDGERS} ledgers a range (about ${Math.ceil(LEDGERS / RANGE_LEDGERS)} ranges at ${largest.toLocaleString('en')}), ledgers of ${PER_LEDGER} transactions on average, ${CLOSE_SECONDS} s apart (${SPAN_DAYS} days in all)`,
);
try {
  for (const size of SIZES) {
    const stepStart = indexed;
    const samples: Row['samples'] = {};
    for (const placement of placements) samples[placement] = await sampleRatio(SAMPLE, placement);
    const step = await ingest(size - INCREMENTS * INCREMENT - indexed);
    console.log(
      `\n${size.toLocaleString('en')}: ingested ${(indexed - stepStart).toLocaleString('en')} transactions, ${Math.round(step.transactions / step.seconds)} tx/s; samples of ${SAMPLE} (two pairs, each order once): ${placements.map((p) => `${p} cores raw ${samples[p]?.raw.seconds.toFixed(1)} s, ours ${samples[p]?.ours.seconds.toFixed(1)} s (engine CPU ${samples[p]?.raw.engineCpu.toFixed(1)} s and ${samples[p]?.ours.engineCpu.toFixed(1)} s, own CPU ${samples[p]?.raw.ownCpu.toFixed(1)} s and ${samples[p]?.ours.ownCpu.toFixed(1)} s)`).join('; ')}`,
    );
    await jobs(false); // up to date before the measured increments
    const runs: Record<JobName, number>[] = [];
    for (let k = 0; k < INCREMENTS; k += 1) {
      await ingest(INCREMENT);
      runs.push(await jobs(false));
    }
    const incremental = Object.fromEntries(
      JOB_NAMES.map((name) => [
        name,
        percentile(
          runs.map((run) => run[name]).sort((a, b) => a - b),
          50,
        ),
      ]),
    ) as Record<JobName, number>;
    const full = await jobs(true);
    const onDisk = await disk();
    const measured = await lookups();
    const row: Row = {
      size,
      ingest: step,
      samples,
      disk: onDisk,
      incremental,
      full,
      lookups: measured,
      ranges: await populatedRanges('transactions'),
    };
    rows.push(row);
    console.log(
      `  disk: ${Math.round(onDisk.transactions / onDisk.count)} B/tx (transactions), ${Math.round(onDisk.all / onDisk.count)} B/tx (all indices), ${mb(onDisk.withReplicas)} with replicas`,
    );
    console.log(
      `  balance changes: ${onDisk.changes.docs} docs (${(onDisk.changes.docs / Math.max(1, onDisk.count)).toFixed(2)} per transaction), ${Math.round(onDisk.changes.bytes / Math.max(1, onDisk.changes.docs))} B/doc`,
    );
    console.log(
      `  state: ${STATE_KINDS.map((kind) => `${kind} ${onDisk.state[kind].docs} docs ${Math.round(onDisk.state[kind].bytes / Math.max(1, onDisk.state[kind].docs))} B/doc`).join(', ')}`,
    );
    for (const [name, l] of Object.entries(measured))
      console.log(
        `  ${name.padEnd(30)} api p50 ${l.api.p50.toFixed(2)} p99 ${l.api.p99.toFixed(2)} ms` +
          (l.direct === undefined ? '' : `; direct p50 ${l.direct.p50.toFixed(2)} p99 ${l.direct.p99.toFixed(2)} ms`) +
          `; ${l.operations.toFixed(1)} shard operations per request`,
      );
    console.log(
      `  jobs incremental (+${INCREMENT} tx, median of ${INCREMENTS}): ${JSON.stringify(Object.fromEntries(Object.entries(incremental).map(([k, v]) => [k, Number(v.toFixed(2))])))}; each run: ${JSON.stringify(runs.map((run) => Object.values(run).map((v) => Number(v.toFixed(2)))))}`,
    );
    console.log(
      `  jobs full: ${JSON.stringify(Object.fromEntries(Object.entries(full).map(([k, v]) => [k, Number(v.toFixed(2))])))}`,
    );
  }

  // The summary: one column per size.
  const cell = (v: string): string => v.padStart(16);
  const line = (label: string, values: string[]): void =>
    console.log(`${label.padEnd(40)}${values.map(cell).join('')}`);
  console.log('\nsummary');
  line(
    'transactions indexed',
    rows.map((r) => r.disk.count.toLocaleString('en')),
  );
  line(
    'ingest tx/s (ours, whole step)',
    rows.map((r) => String(Math.round(r.ingest.transactions / r.ingest.seconds))),
  );
  for (const placement of placements)
    line(
      `sample, ${placement} cores: ours / raw _bulk`,
      rows.map(
        (r) =>
          `${(((r.samples[placement]?.raw.seconds ?? NaN) / (r.samples[placement]?.ours.seconds ?? NaN)) * 100).toFixed(0)} %`,
      ),
    );
  line(
    'disk B/tx, transactions (merged)',
    rows.map((r) => String(Math.round(r.disk.transactions / r.disk.count))),
  );
  line(
    'disk B/tx, all indices',
    rows.map((r) => String(Math.round(r.disk.all / r.disk.count))),
  );
  for (const kind of STATE_KINDS)
    line(
      `${kind}: documents, B/doc (merged)`,
      rows.map(
        (r) =>
          `${r.disk.state[kind].docs}, ${Math.round(r.disk.state[kind].bytes / Math.max(1, r.disk.state[kind].docs))}`,
      ),
    );
  line(
    'populated transaction ranges',
    rows.map((r) => String(r.ranges)),
  );
  for (const name of Object.keys(rows[0]?.lookups ?? {})) {
    line(
      `${name} shard operations`,
      rows.map((r) => (r.lookups[name]?.operations ?? NaN).toFixed(1)),
    );
    line(
      `${name} api p50/p99 ms`,
      rows.map((r) => `${r.lookups[name]?.api.p50.toFixed(1)}/${r.lookups[name]?.api.p99.toFixed(1)}`),
    );
    if (rows[0]?.lookups[name]?.direct !== undefined)
      line(
        `${name} direct p50/p99 ms`,
        rows.map((r) => `${r.lookups[name]?.direct?.p50.toFixed(1)}/${r.lookups[name]?.direct?.p99.toFixed(1)}`),
      );
  }
  for (const job of JOB_NAMES) {
    line(
      `job ${job}: incremental / full s`,
      rows.map((r) => `${r.incremental[job].toFixed(2)}/${r.full[job].toFixed(2)}`),
    );
  }
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (first !== undefined && last !== undefined && first !== last)
    for (const name of Object.keys(first.lookups))
      line(`growth ${name} p50`, [
        `x${((last.lookups[name]?.api.p50 ?? NaN) / (first.lookups[name]?.api.p50 ?? NaN)).toFixed(2)}`,
      ]);
  if (first !== undefined && last !== undefined && first !== last)
    for (const job of JOB_NAMES)
      line(`growth job ${job} incremental`, [`x${(last.incremental[job] / first.incremental[job]).toFixed(2)}`]);
  console.log(`\nvalidations: ${await validationBytes()} B/doc (merged), 40 validators × 3,000 ledgers`);
} finally {
  if (args.keep) console.log(`\nkept the indices of prefix ${naming.prefix}`);
  else await drop();
}
