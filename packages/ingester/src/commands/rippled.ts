import { abortOnSignals, InvalidOptionError, type Config, type Logger } from '@xle/core';
import type { LedgerInput } from '@xle/documents';
import type { IngestEngine } from '../engine/ingest-engine.js';
import { CheckpointStore } from '../pipeline/checkpoint.js';
import { runPipeline } from '../pipeline/run.js';
import { RippledSource } from '../sources/rippled.js';

/** The lowest ledger rippled serves on mainnet (ledgers before it were lost). */
export const FIRST_LEDGER = 32570;

/**
 * Indexes ledgers read from rippled (RIPPLED_URL) under the `rippled` checkpoint: a backfill of a
 * range commits in batches of 20 ledgers; live commits every ledger as it arrives.
 */
export async function ingestFromRippled(
  { engine, config, logger }: { engine: IngestEngine; config: Config; logger: Logger },
  mode: { backfill: { from: number; to: number; concurrency: number } } | { live: { from?: number } },
): Promise<number> {
  const concurrency = 'backfill' in mode ? mode.backfill.concurrency : 4;
  const rippled = new RippledSource({ url: config.xrpl.url, logger, concurrency });
  const checkpoints = new CheckpointStore(engine, 'rippled');
  const signal = abortOnSignals();
  try {
    let ledgers: AsyncIterable<LedgerInput>;
    if ('backfill' in mode) ledgers = rippled.backfill(mode.backfill.from, mode.backfill.to);
    else {
      const checkpoint = await checkpoints.load();
      const after = checkpoint?.last_ledger ?? (mode.live.from === undefined ? 0 : mode.live.from - 1);
      ledgers = rippled.live(after, signal);
    }
    const started = Date.now();
    const totals = await runPipeline(ledgers, engine, checkpoints, {
      batchLedgers: 'live' in mode ? 1 : 20,
      networkId: rippled.networkId ?? config.xrpl.networkId,
      onBatch: (t, batch) =>
        logger.info(
          {
            ledger: batch[batch.length - 1]?.ledger_index,
            ledgers: t.ledgers,
            documents: t.documents,
            docsPerSecond: Math.round(t.documents / Math.max((Date.now() - started) / 1000, 0.001)),
          },
          'indexed',
        ),
    });
    console.log(
      `indexed ${totals.ledgers} ledgers, ${totals.documents} documents (${totals.deadLetters} dead letters)`,
    );
    return totals.deadLetters > 0 ? 1 : 0;
  } finally {
    await rippled.close();
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
