import { defineCommand, integerOption, InvalidOptionError } from '@xle/core';
import { withIngestEngine } from './context.js';
import { ingestFromRippled, ledgerOption } from './rippled.js';

export const backfillCommand = defineCommand({
  usage: 'backfill --from N --to M [--concurrency K]',
  summary: 'index a ledger range from rippled (RIPPLED_URL), committed in ledger order',
  options: { from: { type: 'string' }, to: { type: 'string' }, concurrency: { type: 'string' } },
  run: async ({ values }) => {
    const from = ledgerOption(values.from, 'from');
    const to = ledgerOption(values.to, 'to');
    if (from === undefined || to === undefined || to < from)
      throw new InvalidOptionError('backfill needs --from N --to M with 32570 <= N <= M');
    const concurrency = integerOption(values.concurrency, 'concurrency', { min: 1, max: 64, default: 4 });
    return withIngestEngine((ctx) => ingestFromRippled(ctx, { backfill: { from, to, concurrency } }));
  },
});
