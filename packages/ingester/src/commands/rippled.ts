import { hostname } from 'node:os';
import {
  createProgress,
  abortOnSignals,
  InvalidOptionError,
  MAINNET_FIRST_LEDGER,
  type Config,
  type Logger,
  UsageError,
} from '@xle/core';
import type { IngestEngine } from '../engine/ingest-engine.js';
import { CheckpointStore, type LedgerRange } from '../pipeline/checkpoint.js';
import { runPipeline } from '../pipeline/run.js';
import { runBackfillWorker, workerTotals, type WorkerTotals } from '../backfill/worker.js';
import { LeaseStore } from '../backfill/lease-store.js';
import { RippledSource } from '../sources/rippled.js';
import { refuseRange, sourceLedgers } from '../sources/rippled-ledgers.js';

/**
 * Follows validated ledgers from rippled (RIPPLED_URL) under the `rippled` checkpoint, committing
 * every ledger as it arrives; after a restart or reconnect the gap since the checkpoint comes first.
 */
export async function followRippled(
  { engine, config, logger }: { engine: IngestEngine; config: Config; logger: Logger },
  from: number | undefined,
): Promise<number> {
  const rippled = new RippledSource({ url: config.xrpl.url, logger, concurrency: 4 });
  const checkpoints = new CheckpointStore(engine, 'rippled');
  const heartbeats = new LeaseStore(engine, 'rippled');
  // One name per host: a restarted follower goes on with its own heartbeat document.
  const owner = `live-${hostname()}`;
  const signal = abortOnSignals();
  try {
    const checkpoint = await checkpoints.load();
    const after = checkpoint?.last_ledger ?? (from === undefined ? 0 : from - 1);
    // The indexed ledger the follower goes on from is the first link of its chain check.
    const indexed = after > 0 ? await engine.indexedLedger(after) : undefined;
    // While it catches up with the network: a bar of the ledgers behind it, with rate and ETA (a
    // JSON progress line per ledger when not on a terminal); once at the tip, a line per ledger.
    const catchUp = createProgress({
      logger,
      label: 'live catch-up',
      total: 1,
      unit: 'ledgers',
      format: '{docs} docs',
    });
    // A first start (no checkpoint, no --from) begins at the network's tip: nothing to catch up.
    let catching = after > 0;
    const totals = await runPipeline(rippled.live(after, signal, indexed), engine, checkpoints, {
      batchLedgers: 1,
      networkId: rippled.networkId ?? config.xrpl.networkId,
      onBatch: async (t, batch) => {
        const ledger = batch[batch.length - 1]?.ledger_index;
        const tip = rippled.newestValidated;
        if (catching && ledger !== undefined) {
          catchUp.setTotal(Math.max(tip, ledger) - after);
          catchUp.update(ledger - after, { docs: t.documents });
          // At the tip: the bar ends full, and a line per ledger follows.
          if (ledger >= tip) {
            catchUp.stop();
            catching = false;
          }
        } else {
          logger.info({ ledger, ledgers: t.ledgers, documents: t.documents }, 'indexed');
        }
        // What /api/v1/status reads: this follower is alive, and how far behind the network it is.
        await heartbeats
          .heartbeat({
            owner,
            state: 'following',
            ...(ledger === undefined ? {} : { progress: ledger }),
            validated_ledger: rippled.newestValidated,
          })
          .catch((error: unknown) => logger.warn({ err: error }, 'could not record the live heartbeat'));
      },
    });
    catchUp.stop();
    console.log(
      `indexed ${totals.ledgers} ledgers, ${totals.documents} documents (${totals.deadLetters} dead letters)`,
    );
    return totals.deadLetters > 0 ? 1 : 0;
  } finally {
    await rippled.close();
  }
}

export interface BackfillOptions {
  range: LedgerRange;
  /** Workers in this process, each with its own rippled connection. */
  workers: number;
  /** Ledgers fetched in parallel by each worker. */
  concurrency: number;
  chunkLedgers: number;
  /** Ledgers a batch holds at most (a batch closes at 2,000 transactions before). */
  batchLedgers: number;
  leaseMs: number;
  /** Names this process's workers (`<name>-1`, ...); default host and process id. */
  name: string;
}

/**
 * A backfill from rippled by `workers` workers that lease chunks of the range (see
 * backfill/worker.ts); other processes, on this machine or others, may work the same range at
 * the same time. The range is first checked against what the server holds (server_info), before
 * any index or plan document is written. Workers are independent: one that fails releases its
 * chunk and the others go on. Returns when every worker has ended (every chunk done, with or
 * without gaps), or at the first SIGINT/SIGTERM (what is leased then is handed back and resumed
 * by another worker, or by the next run).
 */
export async function backfillFromRippled(
  { engine, config, logger }: { engine: IngestEngine; config: Config; logger: Logger },
  options: BackfillOptions,
): Promise<number> {
  const signal = abortOnSignals();
  const started = Date.now();
  const sources: RippledSource[] = [];
  try {
    const probe = new RippledSource({ url: config.xrpl.url, logger, concurrency: options.concurrency });
    sources.push(probe);
    const refusal = refuseRange(options.range, await sourceLedgers(probe), config.xrpl.url);
    if (refusal !== undefined) throw new InvalidOptionError(`backfill refused, nothing written: ${refusal}`);
    await engine.applyTemplates();
    // A bar with rate and ETA on a terminal, a JSON progress line per batch otherwise: the ledgers
    // this process wrote of the range (other processes may work the same range).
    const size = options.range.to - options.range.from + 1;
    const progress = createProgress({
      logger,
      label: 'backfill',
      total: size,
      unit: 'ledgers',
      format: '{docs} docs',
      rateUnit: 'docs',
    });
    let written = 0;
    // Each worker's documents of the chunk it works (cumulative per chunk): their sum is this run's.
    const chunkDocuments = new Map<string, number>();
    const settled = await Promise.allSettled(
      Array.from({ length: options.workers }, (_, i) => {
        const owner = `${options.name}-${i + 1}`;
        const rippled =
          i === 0 ? probe : new RippledSource({ url: config.xrpl.url, logger, concurrency: options.concurrency });
        if (i > 0) sources.push(rippled);
        return runBackfillWorker({
          engine,
          logger,
          source: 'rippled',
          owner,
          range: options.range,
          chunkLedgers: options.chunkLedgers,
          batchLedgers: options.batchLedgers,
          leaseMs: options.leaseMs,
          ledgers: (from, to) => rippled.backfill(from, to),
          networkId: () => rippled.networkId ?? config.xrpl.networkId,
          backfillRefresh: config.es.backfillRefresh,
          slot: i,
          slots: options.workers,
          since: started,
          signal,
          onProgress: (event) => {
            written += event.ledgers;
            chunkDocuments.set(`${event.owner} ${event.chunk.from}`, event.documents);
            const docs = [...chunkDocuments.values()].reduce((a, b) => a + b, 0);
            progress.update(Math.min(written, size), {
              docs,
              rate: Math.round(docs / Math.max((Date.now() - started) / 1000, 0.001)),
              worker: event.owner,
              chunk: `${event.chunk.from}-${event.chunk.to}`,
              ledger: event.ledger,
            });
          },
        });
      }),
    );
    progress.stop();
    const results = settled.map((s, i) =>
      s.status === 'fulfilled' ? s.value : failedWorker(`${options.name}-${i + 1}`, s.reason),
    );
    const report = reportBackfill(results);
    for (const line of report.lines) console.log(line);
    return report.exitCode;
  } finally {
    await Promise.all(sources.map((s) => s.close()));
  }
}

/** The totals of a worker that threw (runBackfillWorker answers its failures; this is for anything else). */
function failedWorker(owner: string, reason: unknown): WorkerTotals {
  return { ...workerTotals(owner), error: reason instanceof Error ? reason.message : String(reason) };
}

/**
 * A backfill's summary and exit code (pure): 0 when every worker finished with every ledger
 * written; 1 when a worker failed (each named with its error), ledgers were left as gaps (a next
 * run fetches them again), documents were dead-lettered or the plan was cancelled; 130 when
 * stopped by a signal.
 */
export function reportBackfill(results: readonly WorkerTotals[]): { lines: string[]; exitCode: number } {
  const sum = (pick: (r: WorkerTotals) => number): number => results.reduce((n, r) => n + pick(r), 0);
  const lines = [
    `indexed ${sum((r) => r.ledgers)} ledgers, ${sum((r) => r.documents)} documents (${sum((r) => r.deadLetters)} dead letters); ` +
      `${sum((r) => r.chunks)} chunks done here, ${sum((r) => r.takeovers)} taken over, ${sum((r) => r.lost)} lost; ` +
      `${sum((r) => r.gaps)} ledgers left as gaps, ${sum((r) => r.filled)} gap ledgers filled`,
  ];
  const failed = results.filter((r) => r.error !== undefined);
  for (const r of failed) lines.push(`worker ${r.owner} failed: ${r.error}`);
  const cancelled = results.some((r) => r.cancelled);
  if (cancelled) lines.push('the plan was cancelled (backfill --cancel): workers stopped');
  if (sum((r) => r.gaps) > 0)
    lines.push('some ledgers could not be fetched: see `ingest status`; run the same backfill again to fetch them');
  let exitCode = 0;
  if (failed.length > 0 || cancelled || sum((r) => r.gaps) > 0 || sum((r) => r.deadLetters) > 0) exitCode = 1;
  else if (!results.every((r) => r.finished)) exitCode = 130;
  return { lines, exitCode };
}

/** A ledger index option: an integer from the first ledger rippled serves up. */
export function ledgerOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < MAINNET_FIRST_LEDGER)
    throw new UsageError(`--${name} takes a ledger index from ${MAINNET_FIRST_LEDGER}, not ${value}`);
  return n;
}
