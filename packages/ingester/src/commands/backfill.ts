import { hostname } from 'node:os';
import { defineCommand, integerOption, InvalidOptionError } from '@xle/core';
import { withIngestEngine } from './context.js';
import { backfillFromRippled, ledgerOption } from './rippled.js';

export const backfillCommand = defineCommand({
  usage: 'backfill --from N --to M [--workers K] [--concurrency C] [--chunk LEDGERS] [--lease-seconds S] [--name NAME]',
  summary:
    'index a ledger range from rippled (RIPPLED_URL) with K workers (default 1) that lease chunks of it\n' +
    '(default 10000 ledgers) from the engine: run it on several machines at once to share the range; a\n' +
    "killed worker's chunk is taken over when its lease (default 60 s) expires. C: ledgers fetched in\n" +
    'parallel per worker (default 4). NAME: this process in leases (default host-pid)',
  options: {
    from: { type: 'string' },
    to: { type: 'string' },
    workers: { type: 'string' },
    concurrency: { type: 'string' },
    chunk: { type: 'string' },
    'lease-seconds': { type: 'string' },
    name: { type: 'string' },
  },
  run: async ({ values }) => {
    const from = ledgerOption(values.from, 'from');
    const to = ledgerOption(values.to, 'to');
    if (from === undefined || to === undefined || to < from)
      throw new InvalidOptionError('backfill needs --from N --to M with 32570 <= N <= M');
    const options = {
      range: { from, to },
      workers: integerOption(values.workers, 'workers', { min: 1, max: 64, default: 1 }),
      concurrency: integerOption(values.concurrency, 'concurrency', { min: 1, max: 64, default: 4 }),
      chunkLedgers: integerOption(values.chunk, 'chunk', { min: 1, max: 10_000_000, default: 10_000 }),
      leaseMs: integerOption(values['lease-seconds'], 'lease-seconds', { min: 1, max: 3600, default: 60 }) * 1000,
      name: values.name ?? `${hostname()}-${process.pid}`,
    };
    if (!/^[\w.-]{1,100}$/.test(options.name))
      throw new InvalidOptionError('--name takes letters, digits, dots, dashes and underscores (at most 100)');
    return withIngestEngine((ctx) => backfillFromRippled(ctx, options));
  },
});
