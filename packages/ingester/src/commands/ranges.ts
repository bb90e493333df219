import { createProgress, defineCommand, InvalidOptionError, RANGED_KINDS, type RangedKind } from '@xle/core';
import { withIngestEngine } from './context.js';

function kindOption(value: string | undefined): RangedKind[] {
  if (value === undefined) return [...RANGED_KINDS];
  if (!(RANGED_KINDS as readonly string[]).includes(value))
    throw new InvalidOptionError(`--kind takes one of ${RANGED_KINDS.join(', ')}, not ${value}`);
  return [value as RangedKind];
}

export const rangesCommand = defineCommand({
  usage: 'ranges [--kind KIND] [--json]',
  summary: 'the range indices of transactions, ledgers and validations: alias, index, documents, size',
  options: { kind: { type: 'string' }, json: { type: 'boolean' } },
  run: async ({ values }) => {
    const kinds = kindOption(values.kind);
    return withIngestEngine(async ({ engine }) => {
      const rows = [];
      for (const kind of kinds) for (const range of await engine.listRanges(kind)) rows.push({ kind, ...range });
      if (values.json === true) console.log(JSON.stringify(rows));
      else
        for (const r of rows)
          console.log(`${r.index}  ${r.documents} documents  ${(r.bytes / 1024 / 1024).toFixed(1)} MB`);
      return 0;
    });
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
    if (values.kind === undefined) throw new InvalidOptionError('ranges rebuild needs --kind');
    const ledger = Number(values.ledger);
    if (values.ledger === undefined || !/^\d+$/.test(values.ledger) || !Number.isSafeInteger(ledger))
      throw new InvalidOptionError('ranges rebuild needs --ledger N (a ledger index the range holds)');
    return withIngestEngine(async ({ engine, logger }) => {
      const total = (await engine.listRanges(kind as RangedKind)).find(
        (r) => r.alias === engine.rangeAlias(kind as RangedKind, ledger),
      );
      const progress = createProgress({ logger, label: `rebuild ${kind}`, total: total?.documents ?? 0 });
      const result = await engine.rebuildRange(kind as RangedKind, ledger, (copied) => progress.update(copied));
      progress.stop();
      console.log(
        `${result.from} -> ${result.to}: ${result.documents} documents copied, ${result.caughtUp} written meanwhile caught up, aliases swapped, old index deleted`,
      );
      return 0;
    });
  },
});
