import { defineCommand } from '@xle/core';
import { CheckpointStore, gapsOf } from '../pipeline/checkpoint.js';
import { RippledSource } from '../sources/rippled.js';
import { withIngestEngine } from './context.js';

export const statusCommand = defineCommand({
  usage: 'status [--source NAME] [--json]',
  summary: 'last ledger, indexed ranges, gaps, and lag behind rippled (default source: rippled)',
  options: { source: { type: 'string', default: 'rippled' }, json: { type: 'boolean' } },
  run: async ({ values }) => {
    const source = values.source ?? 'rippled';
    return withIngestEngine(async ({ engine, config, logger }) => {
      const checkpoint = await new CheckpointStore(engine, source).load();
      let lag: number | undefined;
      if (source === 'rippled' && checkpoint !== undefined) {
        const rippled = new RippledSource({ url: config.xrpl.url, logger, attempts: 1, requestTimeoutMs: 3000 });
        lag = await rippled.validatedLedgerIndex().then(
          (validated) => validated - checkpoint.last_ledger,
          () => undefined,
        );
        await rippled.close();
      }
      if (values.json === true) {
        const status =
          checkpoint === undefined
            ? { source, indexed: false }
            : { ...checkpoint, gaps: gapsOf(checkpoint.ranges), lag: lag ?? null };
        console.log(JSON.stringify(status));
      } else if (checkpoint === undefined) console.log(`${source}: nothing indexed yet`);
      else {
        const ranges = checkpoint.ranges.map((r) => (r.from === r.to ? `${r.from}` : `${r.from}-${r.to}`));
        console.log(
          `${source}: last ledger ${checkpoint.last_ledger}, ${checkpoint.ledgers} ledgers, ${checkpoint.documents} documents, ${checkpoint.dead_letters} dead letters`,
        );
        console.log(`ranges (${ranges.length}): ${ranges.join(', ')}`);
        console.log(`gaps: ${gapsOf(checkpoint.ranges).length}`);
        if (source === 'rippled')
          console.log(`lag behind ${config.xrpl.url}: ${lag === undefined ? 'source unreachable' : `${lag} ledgers`}`);
      }
      return 0;
    });
  },
});
