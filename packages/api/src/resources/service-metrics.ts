import type { ServerMetrics } from '@xle/core';
import { RIPPLE_EPOCH_OFFSET } from '@xle/documents';
import { readJobRun } from '../data-set-gate.js';
import type { Engine } from '../engine.js';
import { latestLedger } from './ledgers.js';

/**
 * The gauges /metrics reads from the indices when scraped: how far the newest indexed ledger's
 * close is behind the clock (ingest lag), and how long ago each derived data set's job last
 * completed. A data set never computed has no sample; an engine that cannot be read leaves the
 * gauges empty for that scrape.
 */
export function registerServiceGauges(metrics: ServerMetrics, engine: Engine, jobs: readonly string[]): void {
  metrics.gauge(
    'xle_ingest_lag_seconds',
    'Seconds between now and the close time of the newest indexed ledger.',
    [],
    async (gauge) => {
      const newest = await latestLedger(engine);
      if (newest.ledger_index > 0) gauge.set(Date.now() / 1000 - (newest.close_time + RIPPLE_EPOCH_OFFSET));
    },
  );
  metrics.gauge(
    'xle_data_set_age_seconds',
    'Seconds since the job that computes each derived data set last completed.',
    ['data_set'],
    async (gauge) => {
      const runs = await Promise.all(jobs.map(async (job) => [job, await readJobRun(engine, job)] as const));
      for (const [job, run] of runs)
        if (run !== undefined) gauge.set({ data_set: job }, (Date.now() - Date.parse(run.updated_at)) / 1000);
    },
  );
}
