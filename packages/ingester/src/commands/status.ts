import { AppError, defineCommand, ErrorCode, mapEngineError } from '@xle/core';
import { CheckpointStore, gapsOf, readCheckpoints, type Checkpoint } from '../pipeline/checkpoint.js';
import { totalOf, type PlanSummary } from '../backfill/chunks.js';
import { LeaseStore } from '../backfill/lease-store.js';
import { RippledSource } from '../sources/rippled.js';
import { withIngestEngine } from './context.js';

export const statusCommand = defineCommand({
  usage: 'status [--source NAME] [--json]',
  summary:
    'every indexed source with its ledgers, then one source in detail (default: rippled, or the source that\n' +
    'reached the newest ledger when rippled has indexed nothing): last ledger, indexed ranges, gaps, lag behind\n' +
    'rippled, backfill plans and their chunks (done, done with gaps, leased, expired, pending) with the ledgers\n' +
    "left as gaps, and the workers' last heartbeats. Reads only: creates no index.",
  options: { source: { type: 'string' }, json: { type: 'boolean' } },
  run: async ({ values }) => {
    return withIngestEngine(
      async ({ engine, config, logger }) => {
        let sources: Checkpoint[];
        try {
          sources = await readCheckpoints(engine);
        } catch (error) {
          const mapped = mapEngineError(error);
          if (!(mapped instanceof AppError && mapped.code === ErrorCode.IndexNotFound)) throw error;
          // A read-only report: a cluster without this prefix's indices is said as such, none created.
          console.log(
            `nothing indexed under ES_INDEX_PREFIX=${config.es.indexPrefix} on ${config.network}: no index exists yet ` +
              '(`pnpm templates apply` creates them; an ingest fills them).',
          );
          return 0;
        }
        const summary = sources.map((c) => `${c.source} (${c.ledgers} ledgers, last ${c.last_ledger})`);
        // rippled stays the default while it has backfill plans or workers, even with nothing indexed.
        const rippled = new LeaseStore(engine, 'rippled');
        const rippledBusy =
          values.source === undefined &&
          sources.length > 0 &&
          !sources.some((c) => c.source === 'rippled') &&
          ((await rippled.planSummaries()).length > 0 || (await rippled.workers()).length > 0);
        const source = values.source ?? defaultSource(sources, rippledBusy);
        const checkpoint = await new CheckpointStore(engine, source).load();
        const leases = new LeaseStore(engine, source);
        // One query per plan, whatever its size: counts of its chunk documents, not a list of its chunks.
        const plans = await leases.planSummaries();
        const chunks = {
          ...totalOf(plans),
          gap_ledgers: plans.reduce((n, p) => n + p.gap_ledgers, 0),
          active: plans.flatMap((p) => p.active),
          gapped: plans.flatMap((p) => p.gapped),
        };
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
              ? { source, indexed: false, chunks, plans, workers }
              : { ...checkpoint, gaps: gapsOf(checkpoint.ranges), lag: lag ?? null, chunks, plans, workers };
          console.log(JSON.stringify(status));
          return 0;
        }
        console.log(`sources indexed: ${summary.length === 0 ? 'none yet' : summary.join(', ')}`);
        console.log(`showing ${source}${sources.length > 1 ? ' (--source NAME shows another)' : ''}:`);
        if (checkpoint === undefined)
          console.log(
            `${source}: nothing indexed yet${sources.length === 0 ? '' : ` (indexed: ${sources.map((c) => c.source).join(', ')}; --source NAME shows one)`}`,
          );
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
            console.log(
              `lag behind ${config.xrpl.url}: ${lag === undefined ? 'source unreachable' : `${lag} ledgers`}`,
            );
        }
        if (plans.length > 0) for (const line of describePlans(plans, source)) console.log(line);
        for (const w of workers)
          console.log(
            `worker ${w.owner}: ${w.state}, last heartbeat ${w.heartbeat_at}${w.error === undefined ? '' : `: ${w.error}`}`,
          );
        return 0;
      },
      { templates: false },
    );
  },
});

/** The lines `status` and `backfill --list` print for the recorded backfills of a source. */
export function describePlans(plans: readonly PlanSummary[], source: string): string[] {
  if (plans.length === 0) return [`${source}: no backfill plan recorded`];
  const lines = [`backfill plans of ${source} (named by their range; \`backfill --cancel NAME\` removes one):`];
  for (const p of plans) {
    lines.push(
      `  ${p.name} (chunks of ${p.chunk}): ${p.chunks} chunks: ${p.done} done, ${p.gaps} done with gaps ` +
        `(${p.gap_ledgers} ledgers to fetch again), ${p.leased} leased, ${p.expired} expired (to be taken over), ${p.pending} pending`,
    );
    for (const c of p.active)
      lines.push(
        `    ${c.from}-${c.to}: ${c.owner}, at ledger ${c.progress}, lease ${c.expired ? 'expired' : 'until'} ${c.expires_at}`,
      );
    for (const c of p.gapped)
      lines.push(
        `    gaps of ${c.from}-${c.to} (${c.state}): ${c.gaps
          .slice(0, 10)
          .map((g) => `${g.from === g.to ? g.from : `${g.from}-${g.to}`} (${g.reason})`)
          .join(', ')}${c.gaps.length > 10 ? ', ...' : ''}`,
      );
  }
  return lines;
}

/**
 * The source shown when none is named: rippled, unless it indexed nothing and has no backfill
 * plan or worker while another source indexed something (then the one with the newest ledger).
 */
export function defaultSource(
  sources: readonly Pick<Checkpoint, 'source' | 'last_ledger'>[],
  rippledBusy = false,
): string {
  if (rippledBusy || sources.length === 0 || sources.some((c) => c.source === 'rippled')) return 'rippled';
  return [...sources].sort((a, b) => b.last_ledger - a.last_ledger)[0]!.source;
}
