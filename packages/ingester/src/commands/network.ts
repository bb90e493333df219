import { abortOnSignals, defineCommand, integerOption, sleepUnless } from '@xle/core';
import { snapshotNetwork } from '../jobs/network.js';
import { RippledSource } from '../sources/rippled.js';
import { withIngestEngine } from './context.js';

export const networkCommand = defineCommand({
  usage: 'network [--every SECONDS]',
  summary: "snapshot rippled's fee and server_info (RIPPLED_URL); with --every, repeat until interrupted",
  options: { every: { type: 'string' } },
  run: async ({ values }) => {
    const seconds = integerOption(values.every, 'every', { min: 0, default: 0 });
    return withIngestEngine(async ({ engine, config, logger }) => {
      const rippled = new RippledSource({ url: config.xrpl.url, logger, attempts: 3, requestTimeoutMs: 10000 });
      const signal = abortOnSignals();
      try {
        do {
          const snapshots = await snapshotNetwork(engine, rippled, config.xrpl.url);
          console.log(snapshots.map((s) => `${s.doc.kind} at ledger ${s.doc.ledger_index}`).join(', '));
          if (seconds > 0) await sleepUnless(signal, seconds * 1000);
        } while (seconds > 0 && !signal.aborted);
      } finally {
        await rippled.close();
      }
      return 0;
    });
  },
});
