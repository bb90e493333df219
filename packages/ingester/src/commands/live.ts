import { hostname } from 'node:os';
import { defineCommand } from '@xle/core';
import { followJobs } from '../jobs/schedule.js';
import { tokensJobOptions, withIngestEngine } from './context.js';
import { followRippled, ledgerOption } from './rippled.js';

export const liveCommand = defineCommand({
  usage: 'live [--from N]',
  summary:
    'follow validated ledgers; after a restart or reconnect the gap since the checkpoint is backfilled\n' +
    'first (--from: start there when nothing is indexed); every XRPL_JOBS_INTERVAL_S, the derived data\n' +
    'sets are brought up to date when anything indexed (here, or by a backfill) is not in them yet',
  options: { from: { type: 'string' } },
  run: async ({ values }) => {
    const from = ledgerOption(values.from, 'from');
    return withIngestEngine(async (ctx) => {
      const intervalMs = ctx.config.xrpl.jobsIntervalS * 1000;
      const jobs =
        intervalMs === 0
          ? undefined
          : followJobs(ctx.engine, tokensJobOptions(ctx.config, []), { intervalMs, owner: `live-${hostname()}` });
      try {
        return await followRippled(ctx, from);
      } finally {
        await jobs?.stop();
      }
    });
  },
});
