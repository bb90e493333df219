import { createProgress, defineCommand, type Command } from '@xle/core';
import type { IngestEngine } from '../engine/ingest-engine.js';
import type { RangeFill } from '../pipeline/range-fill.js';
import { withIngestEngine } from './context.js';

/**
 * A command that writes a data set derived from the transactions indexed before it existed, range
 * by range (pipeline/range-fill.ts), with a progress bar over the indexed transactions and one
 * line of what it did.
 */
export function rangeFillCommand(spec: {
  usage: string;
  summary: string;
  label: string;
  /** What the fill writes, for its closing line (`balance changes`, `activity documents`). */
  writes: string;
  fill: (engine: IngestEngine, onProgress: (fill: RangeFill) => void) => Promise<RangeFill>;
}): Command {
  return defineCommand({
    usage: spec.usage,
    summary: spec.summary,
    options: {},
    run: async () =>
      withIngestEngine(async ({ engine, logger }) => {
        let total = 0;
        for (const range of await engine.listRanges('transactions')) total += range.documents;
        const progress = createProgress({ logger, label: spec.label, total, unit: 'transactions' });
        const fill = await spec.fill(engine, (f) => progress.update(f.transactions));
        progress.stop();
        console.log(
          `${fill.transactions} transactions read in ${fill.ranges - fill.skipped} ranges (${fill.skipped} done before), ${fill.written} ${spec.writes} written`,
        );
        return 0;
      }),
  });
}
