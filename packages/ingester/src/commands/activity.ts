import { createProgress, defineCommand } from '@xle/core';
import { fillActivity } from '../pipeline/activity-fill.js';
import { withIngestEngine } from './context.js';

export const activityCommand = defineCommand({
  usage: 'activity',
  summary:
    'write the activity index (each account’s and NFT’s history, read by their pages) for transactions\n' +
    'indexed before it existed, range by range; resumable (a range done is recorded), idempotent, safe\n' +
    'beside running writers',
  options: {},
  run: async () =>
    withIngestEngine(async ({ engine, logger }) => {
      let total = 0;
      for (const range of await engine.listRanges('transactions')) total += range.documents;
      const progress = createProgress({ logger, label: 'activity', total, unit: 'transactions' });
      const fill = await fillActivity(engine, (f) => progress.update(f.transactions));
      progress.stop();
      console.log(
        `${fill.transactions} transactions read in ${fill.ranges - fill.skipped} ranges (${fill.skipped} done before), ${fill.written} activity documents written`,
      );
      return 0;
    }),
});
