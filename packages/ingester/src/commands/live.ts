import { defineCommand } from '@xle/core';
import { withIngestEngine } from './context.js';
import { followRippled, ledgerOption } from './rippled.js';

export const liveCommand = defineCommand({
  usage: 'live [--from N]',
  summary:
    'follow validated ledgers; after a restart or reconnect the gap since the checkpoint is backfilled\n' +
    'first (--from: start there when nothing is indexed)',
  options: { from: { type: 'string' } },
  run: async ({ values }) => {
    const from = ledgerOption(values.from, 'from');
    return withIngestEngine((ctx) => followRippled(ctx, from));
  },
});
