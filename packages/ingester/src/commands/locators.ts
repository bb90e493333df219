import { createProgress, defineCommand } from '@xle/core';
import { fillLocators } from '../pipeline/locators.js';
import { withIngestEngine } from './context.js';

export const locatorsCommand = defineCommand({
  usage: 'locators',
  summary:
    'write the locators (hash -> ledger, read by every lookup by hash) that transactions and ledgers\n' +
    'indexed before the locators index existed lack; idempotent, safe beside running writers',
  options: {},
  run: async () =>
    withIngestEngine(async ({ engine, logger }) => {
      let total = 0;
      for (const kind of ['transactions', 'ledgers'] as const)
        for (const range of await engine.listRanges(kind)) total += range.documents;
      const progress = createProgress({ logger, label: 'locators', total, unit: 'documents' });
      const fill = await fillLocators(engine, (f) => progress.update(f.read));
      progress.stop();
      console.log(`${fill.read} transactions and ledgers read, ${fill.written} missing locators written`);
      return 0;
    }),
});
