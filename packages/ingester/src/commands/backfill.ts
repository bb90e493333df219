import { hostname } from 'node:os';
import { defineCommand, integerOption, InvalidOptionError, MAINNET_FIRST_LEDGER, UsageError } from '@xle/core';
import { LeaseStore } from '../backfill/lease-store.js';
import { DEFAULT_BATCH_LEDGERS, DEFAULT_BATCH_TRANSACTIONS } from '../pipeline/run.js';
import { withIngestEngine } from './context.js';
import { backfillFromRippled, ledgerOption } from './rippled.js';
import { describePlans } from './status.js';

export const backfillCommand = defineCommand({
  usage:
    'backfill --from N --to M [--workers K] [--concurrency C] [--chunk LEDGERS] [--batch-ledgers N] [--lease-seconds S] [--name NAME] | --list | --cancel FROM-TO',
  summary:
    'index a ledger range from rippled (RIPPLED_URL) with K workers (default 1) that lease chunks of it\n' +
    '(default 10000 ledgers) from the engine: run it on several machines at once to share the range; a\n' +
    "killed worker's chunk is taken over when its lease (default 60 s) expires; a ledger the source\n" +
    'cannot serve is left as a gap that the next run of the same backfill fetches. The range is checked\n' +
    "against the source's complete_ledgers first. C: ledgers fetched in parallel per worker (default 4).\n" +
    `N: ledgers a batch holds at most (default ${DEFAULT_BATCH_LEDGERS}; a batch closes at ${DEFAULT_BATCH_TRANSACTIONS} transactions before).\n` +
    'NAME: this process in leases (default host-pid). --list: the recorded plans and their chunks;\n' +
    '--cancel FROM-TO: removes the plan of that range (as --list names it) and its chunk documents',
  options: {
    from: { type: 'string' },
    to: { type: 'string' },
    workers: { type: 'string' },
    concurrency: { type: 'string' },
    chunk: { type: 'string' },
    'batch-ledgers': { type: 'string' },
    'lease-seconds': { type: 'string' },
    name: { type: 'string' },
    list: { type: 'boolean' },
    cancel: { type: 'string' },
  },
  run: async ({ values }) => {
    if (values.list === true || values.cancel !== undefined) {
      if (values.list === true && values.cancel !== undefined)
        throw new UsageError('backfill takes --list or --cancel, not both');
      const cancel = values.cancel;
      if (cancel !== undefined && !/^\d+-\d+$/.test(cancel))
        throw new UsageError(`--cancel takes a plan's range as --list shows it (FROM-TO), not ${cancel}`);
      return withIngestEngine(async ({ engine }) => {
        const store = new LeaseStore(engine, 'rippled');
        if (cancel === undefined) {
          for (const line of describePlans(await store.planSummaries(), 'rippled')) console.log(line);
          return 0;
        }
        const removed = await store.cancel(cancel);
        if (removed.plans === 0) {
          const names = (await store.planSummaries(0)).map((p) => p.name);
          throw new InvalidOptionError(
            `no backfill plan ${cancel}; recorded: ${names.length === 0 ? 'none' : names.join(', ')}`,
          );
        }
        console.log(`cancelled backfill ${cancel}: ${removed.chunks} chunk documents removed`);
        if (removed.live > 0)
          console.log(`${removed.live} of them were being worked: their workers stop at their next lease renewal`);
        return 0;
      });
    }
    const from = ledgerOption(values.from, 'from');
    const to = ledgerOption(values.to, 'to');
    if (from === undefined || to === undefined || to < from)
      throw new UsageError(`backfill needs --from N --to M with ${MAINNET_FIRST_LEDGER} <= N <= M`);
    const options = {
      range: { from, to },
      workers: integerOption(values.workers, 'workers', { min: 1, max: 64, default: 1 }),
      concurrency: integerOption(values.concurrency, 'concurrency', { min: 1, max: 64, default: 4 }),
      chunkLedgers: integerOption(values.chunk, 'chunk', { min: 1, max: 10_000_000, default: 10_000 }),
      batchLedgers: integerOption(values['batch-ledgers'], 'batch-ledgers', {
        min: 1,
        max: 100_000,
        default: DEFAULT_BATCH_LEDGERS,
      }),
      leaseMs: integerOption(values['lease-seconds'], 'lease-seconds', { min: 1, max: 3600, default: 60 }) * 1000,
      name: values.name ?? `${hostname()}-${process.pid}`,
    };
    if (!/^[\w.-]{1,100}$/.test(options.name))
      throw new UsageError('--name takes letters, digits, dots, dashes and underscores (at most 100)');
    // Templates are applied after the range is checked against the source: a refused plan writes nothing.
    return withIngestEngine((ctx) => backfillFromRippled(ctx, options), { templates: false });
  },
});
