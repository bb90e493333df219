import type { WriteOp, WriteOptions, WriteResult } from '../writes.js';
import type { IngestEngine } from '../engine/ingest-engine.js';
import { ActivationEnricher, activationRecords } from './activations.js';
import { DeletionGuards } from './deletions.js';

/**
 * The sink of a batch of ledger writes: the records the other writes rely on first (activation
 * records, deletion guards), acknowledged, then the writes as the guards allow them, then the
 * activations added where the rule says (activations.ts, deletions.ts). A record refused for good
 * stops the batch before any write that relies on it.
 */
export class BatchSink {
  readonly activations: ActivationEnricher;
  private readonly guards: DeletionGuards;

  constructor(
    private readonly engine: IngestEngine,
    now: () => number = Date.now,
  ) {
    this.activations = new ActivationEnricher(engine);
    this.guards = new DeletionGuards(engine, now);
  }

  async write(ops: readonly WriteOp[], options?: WriteOptions): Promise<WriteResult> {
    const records = [...activationRecords(ops, this.engine.index('activations')), ...ops.filter((op) => op.first)];
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
