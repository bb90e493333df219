import { defineRoute, NETWORKS, NoParams, NoQuery, type AnyRoute } from '@xle/core';
import type { Engine } from '../engine.js';
import { statusReport } from '../resources/status.js';
import { StatusReport } from '../schemas/responses/status.js';

/** The completeness report; `jobs` are the data sets the other routes serve. */
export function statusRoutes(engine: Engine, jobs: readonly string[]): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/status',
      summary: 'Completeness: indexed ledger ranges and gaps, lag, data sets’ ages, ingest workers',
      description:
        'Machine-readable: per network, the ledgers indexed (ranges and gaps, read from the index itself), the newest indexed ledger and the lag behind the newest validated ledger seen, each derived data set’s as-of ledger and age, and the ingest workers’ last heartbeats. `/ping` stays the cheap health check; this report costs a few aggregations and is kept for 5 seconds.',
      tags: ['Other resources'],
      params: NoParams,
      query: NoQuery,
      response: StatusReport,
      cache: 'latest',
      handler: () => statusReport(engine, NETWORKS, jobs),
    }),
  ];
}
