#!/usr/bin/env node
/**
 * Ingest throughput, ours against the engine's own raw `_bulk` for the same documents, in one run:
 *
 *   pnpm bench:ingest [--ledgers N] [--rounds R] [--warmup W] [--placement shared|split|both]
 *                     [--refresh backfill|live|both]
 *
 * The data: ledgers derived from the real fixture ledgers (new indices, hashes and times).
 * - raw:  the exact documents our sink writes, built and serialised before the clock starts, sent
 *         as `_bulk` NDJSON bodies of the same size with the same concurrency.
 * - ours: the whole pipeline from normalised ledgers: transforms, activation lookups, versioned
 *         bulk writes, dead-letter handling and checkpoints.
 * Each side writes into fresh indices of its own (same templates). After W unmeasured warm-up rounds
 * of each side (the engine's JIT and caches), each round measures one pair back to back, raw first
 * in odd rounds and ours first in even ones, so neither side always runs on the engine the other
 * has just loaded. Two figures: the best round of each side, and the median over rounds of
 * ours/raw within a pair (a slow minute on a shared machine hits both sides of a pair).
 * Needs a running engine (`pnpm engine start`) or ES_URL.
 */
import {
  createEngineClient,
  createLogger,
  deleteTemplatesAndIndices,
  indexName,
  loadConfig,
  type IndexNaming,
} from '@xle/core';
import type { LedgerInput } from '@xle/documents';
import { CheckpointStore, deriveLedgers, IngestEngine, runPipeline } from '@xle/ingester';
import {
  engineWork,
  type EngineWork,
  fixtureLedgers,
  freshIndices,
  localPlacement,
  numericOptions,
  type Placement,
  rawBulkBodies,
  sendRawBulk,
  workSum,
} from './common.js';

const { numbers, strings } = numericOptions(
  'pnpm bench:ingest [--ledgers N] [--rounds R] [--warmup W] [--placement shared|split|both] [--refresh backfill|live|both]',
  { ledgers: 1500, rounds: 3, warmup: 1 },
  { placement: { type: 'string' }, refresh: { type: 'string' } },
);
const LEDGERS = numbers.ledgers;
const ROUNDS = numbers.rounds;
const WARMUP = numbers.warmup;

const config = loadConfig();
const client = createEngineClient(config, { requestTimeout: 120_000 });
const logger = createLogger('bench', 'warn');

const templates = fixtureLedgers();
const ledgers: LedgerInput[] = [...deriveLedgers(templates, LEDGERS)];
const transactions = ledgers.reduce((n, l) => n + l.transactions.length, 0);

interface Round {
  seconds: number;
  documents: number;
  /** CPU seconds used by this process and by the engine's process (when it runs on this machine). */
  ownCpu: number;
  engineCpu?: number;
  /** What the engine did for this side, summed over its indices (primaries and replicas). */
  work?: EngineWork;
}

async function measure(naming: IndexNaming, work: () => Promise<number>): Promise<Round> {
  const cpu = process.cpuUsage();
  const engineBefore = local.engineCpuSeconds();
  const started = performance.now();
  const documents = await work();
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const engineAfter = local.engineCpuSeconds();
  const round: Round = { seconds, documents, ownCpu: (used.user + used.system) / 1e6 };
  if (engineBefore !== undefined && engineAfter !== undefined) round.engineCpu = engineAfter - engineBefore;
  round.work = workSum((await engineWork(client, naming)).values());
  return round;
}

async function* source(): AsyncGenerator<LedgerInput> {
  yield* ledgers;
}

/**
 * How the targets refresh. `live`: the templates' own interval (1 s), as `ingest live` writes.
 * `backfill`: ES_BACKFILL_REFRESH (default 30 s) on every index, as `ingest backfill` sets it while
 * it writes history (the bulk case this comparison is about).
 */
type Refresh = 'live' | 'backfill';

/**
 * A fresh target for one side: its own prefix (same templates), its range indices created before
 * the clock starts (creating an index is a cluster change once per range of a million ledgers, not
 * part of the steady rate), and the refresh interval of the setting.
 */
async function target(label: string, refresh: Refresh): Promise<{ naming: IndexNaming; engine: IngestEngine }> {
  const naming = await freshIndices(client, config, label);
  const engine = new IngestEngine(client, naming, logger);
  await engine.ensureRangesBetween(
    ['ledgers', 'transactions', 'balance-changes'],
    (ledgers[0] as LedgerInput).ledger_index,
    (ledgers.at(-1) as LedgerInput).ledger_index,
  );
  if (refresh === 'backfill')
    await client.indices.putSettings({
      index: `${naming.prefix}-*`,
      settings: { index: { refresh_interval: config.es.backfillRefresh } },
    });
  return { naming, engine };
}

async function rawRound(refresh: Refresh): Promise<Round> {
  const { naming, engine } = await target('raw', refresh);
  try {
    // Documents built (and JSON-serialised) by our own transform and enrich stages before the clock starts.
    const { bodies, documents } = await rawBulkBodies(engine, ledgers);
    return await measure(naming, async () => {
      await sendRawBulk(client, bodies);
      return documents;
    });
  } finally {
    await deleteTemplatesAndIndices(client, naming);
  }
}

/** Bytes on disk per document of a ranged kind (primaries, force-merged to one segment). */
async function bytesPerDocument(
  naming: IndexNaming,
  kind: 'balance-changes' | 'transactions',
): Promise<{ documents: number; bytes: number }> {
  const index = `${indexName(naming, kind)}-*`;
  await client.indices.forcemerge({ index, max_num_segments: 1 }, { requestTimeout: 600_000 });
  const stats = await client.indices.stats({ index, metric: ['docs', 'store'] });
  return {
    documents: stats._all.primaries?.docs?.count ?? 0,
    bytes: stats._all.primaries?.store?.size_in_bytes ?? 0,
  };
}

/** What the balance-changes data set weighs, measured once (after the first measured round of ours). */
let footprint: string | undefined;

async function oursRound(refresh: Refresh): Promise<Round> {
  const { naming, engine } = await target('ours', refresh);
  try {
    const round = await measure(naming, async () => {
      const totals = await runPipeline(source(), engine, new CheckpointStore(engine, 'bench'));
      if (totals.deadLetters > 0) throw new Error(`${totals.deadLetters} dead letters`);
      return totals.documents;
    });
    if (footprint === undefined) {
      await client.indices.refresh({ index: `${naming.prefix}-*` });
      const changes = await bytesPerDocument(naming, 'balance-changes');
      const txs = await bytesPerDocument(naming, 'transactions');
      footprint = `balance changes: ${changes.documents} documents (${(changes.documents / txs.documents).toFixed(2)} per transaction, ${((changes.documents / round.documents) * 100).toFixed(1)} % of the documents written), ${Math.round(changes.bytes / Math.max(1, changes.documents))} bytes each on disk after a force-merge (transactions: ${Math.round(txs.bytes / Math.max(1, txs.documents))} bytes each)`;
    }
    return round;
  } finally {
    await deleteTemplatesAndIndices(client, naming);
  }
}

const placementArg = strings.placement ?? 'both';
if (!['shared', 'split', 'both'].includes(placementArg ?? '')) {
  console.error(`--placement must be shared, split or both, not ${placementArg}`);
  process.exit(2);
}
const local = localPlacement(config);
const canSplit = local.canSplit && placementArg !== 'shared';
const { cores, half } = local;
const pin = (placement: Placement): void => {
  if (canSplit) local.pin(placement);
};

const best = (rounds: Round[]): Round => rounds.reduce((a, b) => (a.seconds <= b.seconds ? a : b));
const row = (name: string, x: Round): string =>
  `${name.padEnd(28)} ${String(x.documents).padStart(9)} ${x.seconds.toFixed(2).padStart(8)} ${Math.round(
    x.documents / x.seconds,
  )
    .toString()
    .padStart(10)} ${Math.round(LEDGERS / x.seconds)
    .toString()
    .padStart(10)} ${x.ownCpu.toFixed(2).padStart(9)} ${(x.engineCpu?.toFixed(2) ?? 'n/a').padStart(10)}`;

console.log(
  `ingest benchmark: ${LEDGERS} ledgers, ${transactions} transactions (derived from ${templates.length} real ledgers), ${ROUNDS} rounds each`,
);
if (placementArg === 'split' && !canSplit) {
  console.error('the split placement needs the local engine (its pid file) and at least 2 cores');
  process.exit(2);
}
const refreshArg = strings.refresh ?? 'both';
if (!['live', 'backfill', 'both'].includes(refreshArg)) {
  console.error(`--refresh must be live, backfill or both, not ${refreshArg}`);
  process.exit(2);
}
const placements: Placement[] = !canSplit ? ['shared'] : placementArg === 'split' ? ['split'] : ['shared', 'split'];
const refreshes: Refresh[] = refreshArg === 'both' ? ['backfill', 'live'] : [refreshArg as Refresh];
const summary: string[] = [];
try {
  for (const placement of placements)
    for (const refresh of refreshes) {
      pin(placement);
      const setting = `${placement} cores, ${refresh} refresh`;
      const raw: Round[] = [];
      const ours: Round[] = [];
      for (let round = 0; round < WARMUP; round += 1) {
        const warm = [await rawRound(refresh), await oursRound(refresh)];
        console.log(`${setting}, warm-up: raw ${warm[0]?.seconds.toFixed(2)} s, ours ${warm[1]?.seconds.toFixed(2)} s`);
      }
      for (let round = 0; round < ROUNDS; round += 1) {
        if (round % 2 === 0) {
          raw.push(await rawRound(refresh));
          ours.push(await oursRound(refresh));
        } else {
          ours.push(await oursRound(refresh));
          raw.push(await rawRound(refresh));
        }
        console.log(
          `${setting}, round ${round + 1}: raw ${raw.at(-1)?.seconds.toFixed(2)} s, ours ${ours.at(-1)?.seconds.toFixed(2)} s`,
        );
      }
      const r = best(raw);
      const o = best(ours);
      const where =
        placement === 'split'
          ? `engine on cores 0-${half - 1}, ingester on cores ${half}-${cores - 1}`
          : `engine and ingester sharing all ${cores} cores`;
      const interval = refresh === 'backfill' ? config.es.backfillRefresh : "the templates' 1s";
      console.log(`\n${setting}: ${where}; refresh ${interval}`);
      console.log(
        `${'side'.padEnd(28)} ${'documents'.padStart(9)} ${'seconds'.padStart(8)} ${'docs/s'.padStart(10)} ${'ledgers/s'.padStart(10)} ${'own cpu s'.padStart(9)} ${'engine cpu'.padStart(10)}`,
      );
      console.log(row('engine raw _bulk (prebuilt)', r));
      console.log(row('ours (full pipeline)', o));
      const work = (x: Round): string =>
        x.work === undefined
          ? 'n/a'
          : `${x.work.indexOps} index ops, ${x.work.gets} gets, ${x.work.refreshes} refreshes (${x.work.externalRefreshes} external), ${x.work.merges} merges, ${x.work.flushes} flushes`;
      console.log(`engine work on the best rounds' indices: raw ${work(r)}; ours ${work(o)}`);
      const paired = raw.map((x, i) => x.seconds / (ours[i] as Round).seconds).sort((a, b) => a - b);
      const median = ((paired[(paired.length - 1) >> 1] as number) + (paired[paired.length >> 1] as number)) / 2;
      const line = `ratio ours/raw (the same ledgers: raw seconds / ours), ${setting}: best rounds ${((r.seconds / o.seconds) * 100).toFixed(1)} %, median of paired rounds ${(median * 100).toFixed(1)} % (pairs: ${paired.map((x) => (x * 100).toFixed(1)).join(', ')})`;
      console.log(`${line}\n`);
      summary.push(line);
    }
} finally {
  pin('shared');
}
console.log(summary.join('\n'));
if (footprint !== undefined) console.log(footprint);
console.log(`peak RSS of this process: ${Math.round(process.resourceUsage().maxRSS / 1024)} MiB`);
await client.close();
