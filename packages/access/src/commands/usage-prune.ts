import { defineCommand, UsageError } from '@xle/core';
import { firstKeptDay } from '../plans/usage-counter.js';
import { withStores } from './stores.js';

export const usagePruneCommand = defineCommand({
  usage: 'usage prune [--keep-days N]',
  summary: 'delete daily request counters older than the last N UTC days (default 90, today included)',
  options: { 'keep-days': { type: 'string', default: '90' } },
  run: async ({ values }) => {
    const keep = values['keep-days'] ?? '90';
    if (!/^[1-9][0-9]{0,4}$/.test(keep))
      throw new UsageError('--keep-days takes a whole number of days from 1 (today only) up');
    const firstKept = firstKeptDay(Date.now(), Number(keep));
    return withStores(async ({ usage, config }) => {
      const deleted = await usage.prune(firstKept);
      console.log(`deleted ${deleted} usage counters of days before ${firstKept} on ${config.network}`);
      return 0;
    });
  },
});
