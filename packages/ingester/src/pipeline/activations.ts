import type { AccountActivation, Json } from '@xle/documents';
import type { WriteOp } from '../writes.js';
import type { IngestEngine } from '../engine/ingest-engine.js';

const ACTIVATION_FIELDS = [
  'parent',
  'initial_balance',
  '_initial_balance',
  'inception',
  'ledger_index',
  'tx_hash',
] as const;

/** Rewrites of accounts whose newer state keeps conflicting are given up after this many rounds. */
const MAX_REAPPLY_ROUNDS = 5;

/**
 * The enrich stage: an account document carries its activation (parent, initial balance,
 * inception) in every version, not only in the one its creating transaction wrote. Activations
 * seen in this run are remembered; those of accounts created earlier are read from the engine
 * once, in one lookup per batch.
 */
export class ActivationEnricher {
  private readonly known = new Map<string, AccountActivation | null>();

  constructor(private readonly engine: IngestEngine) {}

  /** Adds each account's activation fields (from this write, or as indexed) to account writes. */
  async enrich(accountOps: readonly WriteOp[]): Promise<void> {
    for (const op of accountOps) if (op.activation !== undefined) this.known.set(op.id, op.activation);
    const unknown = [...new Set(accountOps.filter((op) => !this.known.has(op.id)).map((op) => op.id))];
    if (unknown.length > 0) {
      const found = await this.engine.mget<Json>('accounts', unknown, ACTIVATION_FIELDS);
      for (const id of unknown) {
        const source = found.get(id);
        this.known.set(
          id,
          source !== undefined && typeof source.parent === 'string' ? (source as unknown as AccountActivation) : null,
        );
      }
    }
    for (const op of accountOps) {
      const activation = op.activation ?? this.known.get(op.id) ?? undefined;
      if (activation !== undefined) op.doc = { ...op.doc, ...activation };
    }
  }

  /**
   * Account writes superseded by a newer state (a creation ingested after later changes): the
   * activation is added to the newer document. It is re-indexed whole at its own external
   * version with `external_gte`, never with the update API, which would raise the version by one
   * and so refuse the account's next change in the same ledger. A newer write landing between the
   * read and the write makes that document conflict again: it is read and merged again.
   */
  async reapply(superseded: readonly WriteOp[]): Promise<void> {
    let pending = superseded.filter((op) => op.activation !== undefined);
    for (let round = 0; pending.length > 0; round += 1) {
      if (round === MAX_REAPPLY_ROUNDS) throw new Error(`could not add the activation of ${pending.length} accounts`);
      const current = await this.engine.mgetVersioned<Json>(pending);
      const rewrites: WriteOp[] = pending.map((op, i) => {
        const found = current[i];
        // Not found: the newer document is gone (its index was re-created); this write stands alone.
        if (found?.source === undefined || found.version === undefined) return { ...op, versionType: 'external_gte' };
        return {
          ...op,
          doc: { ...found.source, ...op.activation },
          json: undefined,
          version: found.version,
          versionType: 'external_gte',
        };
      });
      const result = await this.engine.write(rewrites);
      if (result.deadLetters > 0) throw new Error(`could not add the activation of ${result.deadLetters} accounts`);
      pending = result.superseded;
    }
  }
}
