import type { WriteOp, WriteOptions, WriteResult } from '../writes.js';
import type { IngestEngine } from '../engine/ingest-engine.js';
import { ActivationEnricher, activationRecords } from './activations.js';
import { DeletionGuards } from './deletions.js';
import { belowWatermark, WatermarkReader } from './watermark.js';

/**
 * The sink of a batch of ledger writes: no ledger state behind the history watermark
 * (watermark.ts), the records the state writes rely on first (activation records, deletion
 * guards), acknowledged, then the state writes as the guards allow them, then the activations
 * added where the rule says (activations.ts, deletions.ts). A record refused for good stops the
 * batch before any write that relies on it.
 *
 * The history documents (transactions, ledgers, balance changes, locators: write-once, by ids of
 * their own, two thirds of a batch's bytes) rely on none of that, so they are sent at once, beside
 * the records, the guards' reads and the state writes: the engine gets them while the state chain
 * waits on its round trips, instead of idling between a batch's steps. The batch is written (and
 * its checkpoint may be recorded) only when both are.
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
      (['objects', 'accounts', 'nfts', 'deletions', 'threads'] as const).map((kind) => engine.index(kind)),
    );
  }

  async write(batch: readonly WriteOp[], options?: WriteOptions): Promise<WriteResult> {
    // Ledger state at or below the history watermark is indexed already, newer (watermark.ts).
    const { kept, skipped } = belowWatermark(batch, await this.watermark.current(), this.stateIndices);
    const history: WriteOp[] = [];
    const state: WriteOp[] = [];
    for (const op of kept) (this.isHistory(op) ? history : state).push(op);
    const [historyResult, stateResult] = await Promise.allSettled([
      this.send(history, options),
      this.writeState(batch, state, skipped, options),
    ]);
    if (stateResult.status === 'rejected') throw stateResult.reason;
    if (historyResult.status === 'rejected') throw historyResult.reason;
    const [a, b] = [historyResult.value, stateResult.value];
    return {
      documents: a.documents + b.documents,
      superseded: [...a.superseded, ...b.superseded],
      deadLetters: a.deadLetters + b.deadLetters,
    };
  }

  /** Writes some documents; none is no call to the engine. */
  private async send(ops: readonly WriteOp[], options: WriteOptions | undefined): Promise<WriteResult> {
    if (ops.length === 0) return { documents: 0, superseded: [], deadLetters: 0 };
    return this.engine.write(ops, options);
  }

  /** A write no record, guard or activation concerns: a history document (not ledger state, not a record). */
  private isHistory(op: WriteOp): boolean {
    return !this.stateIndices.has(op.index) && op.first !== true && op.activation === undefined;
  }

  /** The records, then the ledger state as the guards allow it, then the activations (see the class). */
  private async writeState(
    batch: readonly WriteOp[],
    ops: readonly WriteOp[],
    skipped: readonly WriteOp[],
    options: WriteOptions | undefined,
  ): Promise<WriteResult> {
    const records = [...activationRecords(batch, this.engine.index('activations')), ...ops.filter((op) => op.first)];
    let recordDeadLetters = 0;
    if (records.length > 0) {
      const written = await this.send(records, options);
      recordDeadLetters = written.deadLetters;
      if (written.deadLetters > 0)
        throw new Error(
          `${written.deadLetters} activation or deletion records could not be written (see dead-letters)`,
        );
    }
    const { ops: allowed, checkedAt, cleared } = await this.guards.apply(ops.filter((op) => op.first !== true));
    const result = await this.send(allowed, options);
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
      const again = await this.send(late, options);
      result.deadLetters += again.deadLetters;
    }
    return { ...result, deadLetters: result.deadLetters + recordDeadLetters };
  }
}
