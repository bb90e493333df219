import {
  applyCommandFor,
  compareLayout,
  configuredLayout,
  createLogger,
  createProgress,
  defineCommand,
  differenceMessage,
  loadConfig,
  RANGED_KINDS,
  type LayoutRecord,
  type Progress,
  type RangedKind,
  UsageError,
} from '@xle/core';
import { IngestEngine } from '../engine/ingest-engine.js';
import { withIngestEngine } from './context.js';

function kindOption(value: string | undefined): RangedKind[] {
  if (value === undefined) return [...RANGED_KINDS];
  if (!(RANGED_KINDS as readonly string[]).includes(value))
    throw new UsageError(`--kind takes one of ${RANGED_KINDS.join(', ')}, not ${value}`);
  return [value as RangedKind];
}

/** The recorded layout in words: the line `ranges` prints first. */
export function layoutLine(layout: LayoutRecord): string {
  return (
    `layout generation ${layout.generation}: ${layout.rangeLedgers} ledgers per range, ` +
    `${layout.shards} shard(s) per range index, ${layout.stateShards} per state index, replicas ${layout.replicas}`
  );
}

export const rangesCommand = defineCommand({
  usage: 'ranges [--kind KIND] [--json]',
  summary:
    'the index layout recorded in the cluster (range size, shards, generation), then the range indices\n' +
    'of transactions, ledgers and validations: alias, index, documents, size\n' +
    '--json: {"layout": {...} or null, "ranges": [...]}',
  options: { kind: { type: 'string' }, json: { type: 'boolean' } },
  run: async ({ values }) => {
    const kinds = kindOption(values.kind);
    // Only reads, and is what the layout refusals point to: it applies no templates (which would
    // refuse a configuration that differs from the recorded layout, or record one), and says on
    // stderr how this process's configuration differs instead.
    const config = loadConfig();
    const engine = IngestEngine.open(
      config,
      createLogger('ingester', config.log.level, process.stderr, config.log.format),
    );
    try {
      const recorded = await engine.recordedLayout();
      const layout = recorded.state === 'recorded' ? recorded.layout : undefined;
      if (layout === undefined)
        console.error(`no index layout recorded: \`${applyCommandFor(engine.naming)}\` records it`);
      else
        for (const d of compareLayout(layout, configuredLayout(config), 'ingest'))
          console.error(`note: ${differenceMessage(d, engine.naming, layout.generation)}`);
      const rows = [];
      for (const kind of kinds) for (const range of await engine.listRanges(kind)) rows.push({ kind, ...range });
      if (values.json === true) console.log(JSON.stringify({ layout: layout ?? null, ranges: rows }));
      else {
        console.log(layout === undefined ? 'layout: none recorded' : layoutLine(layout));
        for (const r of rows)
          console.log(`${r.index}  ${r.documents} documents  ${(r.bytes / 1024 / 1024).toFixed(1)} MB`);
      }
      return 0;
    } finally {
      await engine.close();
    }
  },
});

export const rangesRebuildCommand = defineCommand({
  usage: 'ranges rebuild --kind KIND --ledger N',
  summary:
    'rebuild the range of KIND holding ledger N into its next generation from the current template and\n' +
    'swap it into the aliases without downtime (for example after a mapping change)',
  options: { kind: { type: 'string' }, ledger: { type: 'string' } },
  run: async ({ values }) => {
    const [kind] = kindOption(values.kind);
    if (values.kind === undefined) throw new UsageError('ranges rebuild needs --kind');
    const ledger = Number(values.ledger);
    if (values.ledger === undefined || !/^\d+$/.test(values.ledger) || !Number.isSafeInteger(ledger))
      throw new UsageError('ranges rebuild needs --ledger N (a ledger index the range holds)');
    return withIngestEngine(async ({ engine, logger }) => {
      const total = (await engine.listRanges(kind as RangedKind)).find(
        (r) => r.alias === engine.rangeAlias(kind as RangedKind, ledger),
      );
      // Two passes over the old index, each with its bar: the copy, then after the swap the
      // catch-up's second scan for anything written to it meanwhile.
      const bar = (phase: 'copy' | 'catch-up'): Progress =>
        createProgress({
          logger,
          label: phase === 'copy' ? `rebuild ${kind}` : `rebuild ${kind} catch-up`,
          total: total?.documents ?? 0,
          unit: 'documents',
        });
      let phase: 'copy' | 'catch-up' = 'copy';
      let progress = bar(phase);
      const result = await engine.rebuildRange(kind as RangedKind, ledger, (now, scanned) => {
        if (now !== phase) {
          progress.stop();
          phase = now;
          progress = bar(now);
        }
        progress.update(scanned);
      });
      progress.stop();
      console.log(
        `${result.from} -> ${result.to}: ${result.documents} documents copied, ${result.caughtUp} written meanwhile caught up, aliases swapped, old index deleted`,
      );
      return 0;
    });
  },
});
