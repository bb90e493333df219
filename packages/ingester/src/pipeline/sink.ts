import type { WriteOp, WriteOptions, WriteResult } from '../writes.js';
import type { IngestEngine } from '../engine/ingest-engine.js';
import { ActivationEnricher, activationRecords } from './activations.js';
import { DeletionGuards } from './deletions.js';
import { belowWatermark, WatermarkReader } from './watermark.js';

/**
 * The sink of a batch of ledger writes: no ledger state behind the history watermark
 * (watermark.ts), the records the other writes rely on first (activation records, deletion
 * guards), acknowledged, then the writes as the guards allow them, then the activations added
 * where the rule says (activations.ts, deletions.ts). A record refused for good
 * stops the batch before any write that relies on it.
 */
export class BatchSink {
  readonly activations: ActivationEnricher;
  private readonly guards: DeletionGuards;
  private readonly watermark: WatermarkReader;
  private readonly stateIndices: ReadonlySet<string>;

  constructor(
    private readonly engine: IngestEngine,
    now: () => number = Date.now,
  ) {
    this.activations = new ActivationEnricher(engine);
    this.guards = new DeletionGuards(engine, now);
    this.watermark = new WatermarkReader(engine, now);
    this.stateIndices = new Set(
      (['objects', 'accounts', 'nfts', 'deletions'] as const).map((kind) => engine.index(kind)),
    );
  }

  async write(batch: readonly WriteOp[], options?: WriteOptions): Promise<WriteResult> {
    // Ledger state at or below the history watermark is indexed already, newer (watermark.ts).
    const { kept: ops, skipped } = belowWatermark(batch, await this.watermark.current(), this.stateIndices);
    const records = [...activationRecords(batch, this.engine.index('activations')), ...ops.filter((op) => op.first)];
    let recordDeadLetters = 0;
    if (records.length > 0) {
      const written = await this.engine.write(records, options);
      recordDeadLetters = written.deadLetters;
      if (written.deadLetters > 0)
        throw new Error(
          `${written.deadLetters} activation or deletion records could not be written (see dead-letters)`,
        );
    }
    const { ops: allowed, checkedAt, cleared } = await this.guards.apply(ops.filter((op) => op.first !== true));
    const result = await this.engine.write(allowed, options);
    await this.activations.afterWrite(allowed, result);
    await this.activations.reapply(
      skipped.filter((op) => op.activation !== undefined),
      { existingOnly: true },
    );
    const late = [
      ...(await this.guards.recheck(allowed, checkedAt)),
      ...(await this.guards.staleGuards(cleared, result.superseded)),
    ];
    if (late.length > 0) {
      const again = await this.engine.write(late, options);
      result.deadLetters += again.deadLetters;
    }
    return { ...result, deadLetters: result.deadLetters + recordDeadLetters };
  }
}
