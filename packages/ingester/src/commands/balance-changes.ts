import { createProgress, defineCommand } from '@xle/core';
import { fillBalanceChanges } from '../pipeline/balance-fill.js';
import { withIngestEngine } from './context.js';

export const balanceChangesCommand = defineCommand({
  usage: 'balance-changes',
  summary:
    'build the balance-changes data set (historical balances) for transactions indexed before it\n' +
    'existed, range by range; resumable (a range done is recorded), idempotent, safe beside running writers',
  options: {},
  run: async () =>
    withIngestEngine(async ({ engine, logger }) => {
      let total = 0;
      for (const range of await engine.listRanges('transactions')) total += range.documents;
      const progress = createProgress({ logger, label: 'balance changes', total, unit: 'transactions' });
      const fill = await fillBalanceChanges(engine, (f) => progress.update(f.transactions));
      progress.stop();
      console.log(
        `${fill.transactions} transactions read in ${fill.ranges - fill.skipped} ranges (${fill.skipped} done before), ${fill.written} balance changes written`,
      );
      return 0;
    }),
});
