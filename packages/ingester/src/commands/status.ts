import { defineCommand } from '@xle/core';
import { CheckpointStore, gapsOf } from '../pipeline/checkpoint.js';
import { summarizeChunks } from '../backfill/chunks.js';
import { LeaseStore } from '../backfill/lease-store.js';
import { RippledSource } from '../sources/rippled.js';
import { withIngestEngine } from './context.js';

export const statusCommand = defineCommand({
  usage: 'status [--source NAME] [--json]',
  summary:
    'last ledger, indexed ranges, gaps, lag behind rippled, backfill chunks (done, leased, expired,\n' +
    "pending) and the workers' last heartbeats (default source: rippled)",
  options: { source: { type: 'string', default: 'rippled' }, json: { type: 'boolean' } },
  run: async ({ values }) => {
    const source = values.source ?? 'rippled';
    return withIngestEngine(async ({ engine, config, logger }) => {
      const checkpoint = await new CheckpointStore(engine, source).load();
      const leases = new LeaseStore(engine, source);
      const planned = await leases.plannedChunks();
      const chunks = summarizeChunks(planned, await leases.leases(planned), source, Date.now());
      const workers = await leases.workers();
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
            ? { source, indexed: false, chunks, workers }
            : { ...checkpoint, gaps: gapsOf(checkpoint.ranges), lag: lag ?? null, chunks, workers };
        console.log(JSON.stringify(status));
      } else if (checkpoint === undefined) console.log(`${source}: nothing indexed yet`);
      else {
        const ranges = checkpoint.ranges.map((r) => (r.from === r.to ? `${r.from}` : `${r.from}-${r.to}`));
        console.log(
          `${source}: last ledger ${checkpoint.last_ledger}, ${checkpoint.ledgers} ledgers, ${checkpoint.documents} documents, ${checkpoint.dead_letters} dead letters`,
        );
        console.log(`ranges (${ranges.length}): ${ranges.join(', ')}`);
        const gaps = gapsOf(checkpoint.ranges);
        const shown = gaps.slice(0, 20).map((g) => (g.from === g.to ? `${g.from}` : `${g.from}-${g.to}`));
        console.log(`gaps (${gaps.length}): ${shown.join(', ')}${gaps.length > 20 ? ', ...' : ''}`);
        if (source === 'rippled')
          console.log(`lag behind ${config.xrpl.url}: ${lag === undefined ? 'source unreachable' : `${lag} ledgers`}`);
      }
      if (values.json !== true && planned.length > 0) {
        console.log(
          `backfill chunks: ${chunks.done} done, ${chunks.leased} leased, ${chunks.expired} expired (to be taken over), ${chunks.pending} pending`,
        );
        for (const c of chunks.active)
          console.log(
            `  ${c.from}-${c.to}: ${c.owner}, at ledger ${c.progress}, lease ${c.expired ? 'expired' : 'until'} ${c.expires_at}`,
          );
        for (const w of workers) console.log(`worker ${w.owner}: ${w.state}, last heartbeat ${w.heartbeat_at}`);
      }
      return 0;
    });
  },
});
