#!/usr/bin/env node
/**
 * Ingest throughput, ours against the engine's own raw `_bulk` for the same documents, in one run:
 *
 *   pnpm bench:ingest [--ledgers N] [--rounds R] [--warmup W] [--placement shared|split|both]
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
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { readFileSync } from 'node:fs';
import {
  createEngineClient,
  createLogger,
  deleteTemplatesAndIndices,
  loadConfig,
  repoRoot,
  type Client,
} from '@xle/core';
import type { LedgerInput } from '@xle/documents';
import {
  ActivationEnricher,
  activationRecords,
  bulkLines,
  firstRefusal,
  type BulkItem,
  CheckpointStore,
  deriveLedgers,
  IngestEngine,
  prepareBatch,
  runPipeline,
  type WriteOp,
} from '@xle/ingester';
import { fixtureLedgers, freshIndices, numericOptions } from './common.js';

const { numbers, strings } = numericOptions(
  'pnpm bench:ingest [--ledgers N] [--rounds R] [--warmup W] [--placement shared|split|both]',
  { ledgers: 1500, rounds: 3, warmup: 1 },
  { placement: { type: 'string' } },
);
const LEDGERS = numbers.ledgers;
const ROUNDS = numbers.rounds;
const WARMUP = numbers.warmup;
/** The writer's defaults: 2 bulk requests in flight, bodies of about 5 MB. */
const CONCURRENCY = 2;
const FLUSH_BYTES = 5_000_000;

const config = loadConfig();
const client = createEngineClient(config, { requestTimeout: 120_000 });
const logger = createLogger('bench', 'warn');

const templates = fixtureLedgers();
const ledgers: LedgerInput[] = [...deriveLedgers(templates, LEDGERS)];
const transactions = ledgers.reduce((n, l) => n + l.transactions.length, 0);

/** NDJSON bodies of about FLUSH_BYTES each: exactly what the bulk helper would send. */
function serialise(ops: WriteOp[]): string[] {
  const bodies: string[] = [];
  let current = '';
  for (const op of ops) {
    current += bulkLines(op);
    if (current.length >= FLUSH_BYTES) {
      bodies.push(current);
      current = '';
    }
  }
  if (current !== '') bodies.push(current);
  return bodies;
}

async function sendRaw(c: Client, bodies: string[]): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < bodies.length) {
      const body = bodies[next];
      next += 1;
      const answer = (await c.transport.request(
        { method: 'POST', path: '/_bulk', body, querystring: { filter_path: 'errors,items.*.status,items.*.error' } },
        { headers: { 'content-type': 'application/x-ndjson' } },
      )) as { errors?: boolean; items?: BulkItem[] };
      // As ours takes them: a 409 (two requests in flight wrote one ledger object at two versions
      // and the older arrived second) is superseded, a delete of an absent document is done.
      const refused = firstRefusal(answer.items);
      if (refused !== undefined) throw new Error(`the raw side was refused documents: ${JSON.stringify(refused)}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

interface Round {
  seconds: number;
  documents: number;
  /** CPU seconds used by this process and by the engine's process (when it runs on this machine). */
  ownCpu: number;
  engineCpu?: number;
}

/** CPU seconds (user + system) of the local engine's JVM, read from /proc; undefined elsewhere. */
function engineCpuSeconds(): number | undefined {
  try {
    const pid = readFileSync(`${process.env.ENGINE_DATA_DIR ?? `${repoRoot}.data/engine`}/engine.pid`, 'utf8').trim();
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

async function measure(work: () => Promise<number>): Promise<Round> {
  const cpu = process.cpuUsage();
  const engineBefore = engineCpuSeconds();
  const started = performance.now();
  const documents = await work();
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const engineAfter = engineCpuSeconds();
  const round: Round = { seconds, documents, ownCpu: (used.user + used.system) / 1e6 };
  if (engineBefore !== undefined && engineAfter !== undefined) round.engineCpu = engineAfter - engineBefore;
  return round;
}

async function rawRound(): Promise<Round> {
  const naming = await freshIndices(client, config, 'raw');
  try {
    // Documents built (and JSON-serialised) by our own transform and enrich stages before the clock starts.
    const engine = new IngestEngine(client, naming, logger);
    const activations = new ActivationEnricher(engine);
    const ops: WriteOp[] = [];
    for (let i = 0; i < ledgers.length; i += 50)
      ops.push(...(await prepareBatch(ledgers.slice(i, i + 50), engine, activations, 0)));
    // Ours writes each batch's activation records too (before its documents): so does raw.
    const bodies = serialise([...activationRecords(ops, engine.index('activations')), ...ops]);
    // Its range indices exist before the clock starts, as ours create theirs on the first write.
    await engine.prepareRanges(ops);
    return await measure(async () => {
      await sendRaw(client, bodies);
      return ops.length;
    });
  } finally {
    await deleteTemplatesAndIndices(client, naming);
  }
}

async function oursRound(): Promise<Round> {
  const naming = await freshIndices(client, config, 'ours');
  try {
    const engine = new IngestEngine(client, naming, logger);
    async function* source(): AsyncGenerator<LedgerInput> {
      yield* ledgers;
    }
    return await measure(async () => {
      const totals = await runPipeline(source(), engine, new CheckpointStore(engine, 'bench'));
      if (totals.deadLetters > 0) throw new Error(`${totals.deadLetters} dead letters`);
      return totals.documents;
    });
  } finally {
    await deleteTemplatesAndIndices(client, naming);
  }
}

/**
 * Where the processes may run. `shared`: engine and ingester compete for every core, as on one
 * small machine. `split`: the local engine's threads are pinned to the first half of the cores and
 * this process to the rest (taskset), as when the ingester runs beside a cluster, not inside it;
 * both sides of the comparison run under the same pinning.
 */
type Placement = 'shared' | 'split';
const cores = availableParallelism();
const enginePid = ((): string | undefined => {
  try {
    return readFileSync(`${process.env.ENGINE_DATA_DIR ?? `${repoRoot}.data/engine`}/engine.pid`, 'utf8').trim();
  } catch {
    return undefined;
  }
})();
const placementArg = strings.placement ?? 'both';
if (!['shared', 'split', 'both'].includes(placementArg ?? '')) {
  console.error(`--placement must be shared, split or both, not ${placementArg}`);
  process.exit(2);
}
const canSplit = cores >= 2 && enginePid !== undefined && placementArg !== 'shared';
const allCores = `0-${cores - 1}`;
const half = Math.floor(cores / 2);
function pin(placement: Placement): void {
  if (!canSplit) return;
  const engineCores = placement === 'split' ? `0-${half - 1}` : allCores;
  const ownCores = placement === 'split' ? `${half}-${cores - 1}` : allCores;
  execFileSync('taskset', ['-a', '-p', '-c', engineCores, enginePid as string], { stdio: 'ignore' });
  execFileSync('taskset', ['-a', '-p', '-c', ownCores, String(process.pid)], { stdio: 'ignore' });
}

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
const placements: Placement[] = !canSplit ? ['shared'] : placementArg === 'split' ? ['split'] : ['shared', 'split'];
try {
  for (const placement of placements) {
    pin(placement);
    const raw: Round[] = [];
    const ours: Round[] = [];
    for (let round = 0; round < WARMUP; round += 1) {
      const warm = [await rawRound(), await oursRound()];
      console.log(
        `${placement} cores, warm-up: raw ${warm[0]?.seconds.toFixed(2)} s, ours ${warm[1]?.seconds.toFixed(2)} s`,
      );
    }
    for (let round = 0; round < ROUNDS; round += 1) {
      if (round % 2 === 0) {
        raw.push(await rawRound());
        ours.push(await oursRound());
      } else {
        ours.push(await oursRound());
        raw.push(await rawRound());
      }
      console.log(
        `${placement} cores, round ${round + 1}: raw ${raw.at(-1)?.seconds.toFixed(2)} s, ours ${ours.at(-1)?.seconds.toFixed(2)} s`,
      );
    }
    const r = best(raw);
    const o = best(ours);
    const where =
      placement === 'split'
        ? `engine on cores 0-${half - 1}, ingester on cores ${half}-${cores - 1}`
        : `engine and ingester sharing all ${cores} cores`;
    console.log(`\n${placement}: ${where}`);
    console.log(
      `${'side'.padEnd(28)} ${'documents'.padStart(9)} ${'seconds'.padStart(8)} ${'docs/s'.padStart(10)} ${'ledgers/s'.padStart(10)} ${'own cpu s'.padStart(9)} ${'engine cpu'.padStart(10)}`,
    );
    console.log(row('engine raw _bulk (prebuilt)', r));
    console.log(row('ours (full pipeline)', o));
    const paired = raw.map((x, i) => x.seconds / (ours[i] as Round).seconds).sort((a, b) => a - b);
    const median = ((paired[(paired.length - 1) >> 1] as number) + (paired[paired.length >> 1] as number)) / 2;
    console.log(
      `ratio ours/raw (docs/s), ${placement} cores: best rounds ${((o.documents / o.seconds / (r.documents / r.seconds)) * 100).toFixed(1)} %, median of paired rounds ${(median * 100).toFixed(1)} % (pairs: ${paired.map((x) => (x * 100).toFixed(1)).join(', ')})\n`,
    );
  }
} finally {
  pin('shared');
}
console.log(`peak RSS of this process: ${Math.round(process.resourceUsage().maxRSS / 1024)} MiB`);
await client.close();
