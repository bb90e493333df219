import { hostname } from 'node:os';
import { abortOnSignals, InvalidOptionError, type Config, type Logger } from '@xle/core';
import type { IngestEngine } from '../engine/ingest-engine.js';
import { CheckpointStore, type LedgerRange } from '../pipeline/checkpoint.js';
import { runPipeline } from '../pipeline/run.js';
import { runBackfillWorker } from '../backfill/worker.js';
import { LeaseStore } from '../backfill/lease-store.js';
import { RippledSource } from '../sources/rippled.js';

/** The lowest ledger rippled serves on mainnet (ledgers before it were lost). */
export const FIRST_LEDGER = 32570;

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
    const totals = await runPipeline(rippled.live(after, signal), engine, checkpoints, {
      batchLedgers: 1,
      networkId: rippled.networkId ?? config.xrpl.networkId,
      onBatch: async (t, batch) => {
        const ledger = batch[batch.length - 1]?.ledger_index;
        logger.info({ ledger, ledgers: t.ledgers, documents: t.documents }, 'indexed');
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
  leaseMs: number;
  /** Names this process's workers (`<name>-1`, ...); default host and process id. */
  name: string;
}

/**
 * A backfill from rippled by `workers` workers that lease chunks of the range (see
 * backfill/worker.ts); other processes, on this machine or others, may work the same range at
 * the same time. Returns when every chunk is done, or at the first SIGINT/SIGTERM (what is
 * leased then expires and is resumed by another worker, or by the next run).
 */
export async function backfillFromRippled(
  { engine, config, logger }: { engine: IngestEngine; config: Config; logger: Logger },
  options: BackfillOptions,
): Promise<number> {
  const signal = abortOnSignals();
  const started = Date.now();
  const sources: RippledSource[] = [];
  try {
    const results = await Promise.all(
      Array.from({ length: options.workers }, (_, i) => {
        const rippled = new RippledSource({ url: config.xrpl.url, logger, concurrency: options.concurrency });
        sources.push(rippled);
        return runBackfillWorker({
          engine,
          logger,
          source: 'rippled',
          owner: `${options.name}-${i + 1}`,
          range: options.range,
          chunkLedgers: options.chunkLedgers,
          leaseMs: options.leaseMs,
          ledgers: (from, to) => rippled.backfill(from, to),
          networkId: () => rippled.networkId ?? config.xrpl.networkId,
          backfillRefresh: config.es.backfillRefresh,
          signal,
          onProgress: (event) => {
            logger.info(
              {
                worker: event.owner,
                chunk: `${event.chunk.from}-${event.chunk.to}`,
                ledger: event.ledger,
                docsPerSecond: Math.round(event.documents / Math.max((Date.now() - started) / 1000, 0.001)),
              },
              'indexed',
            );
          },
        });
      }),
    );
    const sum = (pick: (r: (typeof results)[number]) => number): number => results.reduce((n, r) => n + pick(r), 0);
    console.log(
      `indexed ${sum((r) => r.ledgers)} ledgers, ${sum((r) => r.documents)} documents (${sum((r) => r.deadLetters)} dead letters); ` +
        `${sum((r) => r.chunks)} chunks done here, ${sum((r) => r.takeovers)} taken over, ${sum((r) => r.lost)} lost`,
    );
    if (!results.every((r) => r.finished)) return 130;
    return sum((r) => r.deadLetters) > 0 ? 1 : 0;
  } finally {
    await Promise.all(sources.map((s) => s.close()));
  }
}

/** A ledger index option: an integer from the first ledger rippled serves up. */
export function ledgerOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < FIRST_LEDGER)
    throw new InvalidOptionError(`--${name} takes a ledger index from ${FIRST_LEDGER}, not ${value}`);
  return n;
}
