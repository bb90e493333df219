import type { AccountActivation, Json } from '@xle/documents';
import type { WriteOp, WriteResult } from '../writes.js';
import type { IngestEngine } from '../engine/ingest-engine.js';

/** Rewrites of accounts whose newer state keeps conflicting are given up after this many rounds. */
const MAX_REAPPLY_ROUNDS = 5;

/**
 * Account activations (parent, initial balance, inception) in any order of ingestion.
 *
 * An account document is rewritten whole at every change of its AccountRoot, but only the
 * transaction that created the account knows its activation. Writers run at the same time (`live`
 * at the tip, backfills underneath, file imports) and each sees only its own ledgers, so the
 * activation is kept in a record of its own, the `activations` index (one document per address,
 * written at the version of the creating change: a newer re-creation wins, an older replay is
 * refused), and every account write is joined with it. The rule that makes it safe:
 *
 * 1. A writer that knows an activation writes its record before any account document of its
 *    batch, then adds it to the newer account documents its own account writes met (superseded).
 * 2. A writer that writes an account document without activation fields reads the activation
 *    records again after its write, and adds any it finds to the current document.
 *
 * Whatever the interleaving, one of the two sees the other: if writer B's record was written
 * before writer L read again (2), L adds it; otherwise L's account write came before B's record,
 * hence before B's own account write, which is then superseded and B adds it (1). Every addition
 * is a conditional rewrite of the document read (its own version, `external_gte`), read again and
 * merged again when a newer write lands in between. Nothing is cached between batches: an answer
 * "no activation yet" is true only for the moment it was read, and the process's memory does not
 * grow with the number of accounts it has seen.
 */
export class ActivationEnricher {
  constructor(private readonly engine: IngestEngine) {}

  /**
   * Adds to account writes the activation each one belongs to: one created earlier in the same
   * batch (in write order), else the recorded one when it is not newer than the write (a newer
   * record belongs to a later re-creation of the address). One realtime read per batch.
   */
  async enrich(accountOps: readonly WriteOp[]): Promise<void> {
    const ids = [...new Set(accountOps.map((op) => op.id))];
    const recorded = await this.recorded(ids);
    const seen = new Map<string, AccountActivation>();
    for (const op of accountOps) {
      if (op.activation !== undefined) seen.set(op.id, op.activation);
      const activation = op.activation ?? seen.get(op.id) ?? applicable(recorded.get(op.id), op);
      if (activation !== undefined) op.doc = { ...op.doc, ...activation };
    }
  }

  /**
   * After a batch whose account writes went through `enrich` is written (its activation records,
   * `activationRecords`, first: see BatchSink): the two additions of the rule above.
   */
  async afterWrite(ops: readonly WriteOp[], result: WriteResult): Promise<void> {
    const superseded = new Set(result.superseded);
    // (1) Activations this batch carries, added to newer account states it met.
    await this.reapply(result.superseded.filter((op) => op.activation !== undefined));
    // (2) Accounts written without activation fields: look again now that they are written.
    const bare = ops.filter(
      (op) => op.index === this.engine.index('accounts') && !superseded.has(op) && typeof op.doc.parent !== 'string',
    );
    if (bare.length > 0) {
      const recorded = await this.recorded([...new Set(bare.map((op) => op.id))]);
      const late: WriteOp[] = [];
      for (const op of bare) {
        const activation = applicable(recorded.get(op.id), op);
        if (activation !== undefined) late.push({ ...op, activation });
      }
      await this.reapply(late);
    }
  }

  /** The activation records of some addresses, as the engine holds them now (realtime). */
  private async recorded(ids: readonly string[]): Promise<Map<string, AccountActivation>> {
    if (ids.length === 0) return new Map();
    const found = await this.engine.mget<AccountActivation & { account?: string }>('activations', ids);
    // The record names its account (for SQL's activations table); the account's document has its own.
    return new Map([...found].map(([id, { account: _account, ...activation }]) => [id, activation]));
  }

  /**
   * Adds each write's activation to the account's current document, when that document is the
   * same incarnation of the account (not older than the creation) and does not already carry this
   * activation or a newer one. The document is re-indexed whole at its own external version with
   * `external_gte`, never with the update API, which would raise the version by one and so refuse
   * the account's next change in the same ledger. A newer write landing between the read and the
   * write makes that document conflict again: it is read and merged again. `existingOnly`: only
   * join documents that exist (the activation of an account write skipped behind the history
   * watermark, watermark.ts), never write the state the op carries.
   */
  async reapply(writes: readonly WriteOp[], { existingOnly = false }: { existingOnly?: boolean } = {}): Promise<void> {
    let pending = writes.filter((op) => op.activation !== undefined);
    for (let round = 0; pending.length > 0; round += 1) {
      if (round === MAX_REAPPLY_ROUNDS) throw new Error(`could not add the activation of ${pending.length} accounts`);
      const current = await this.engine.mgetVersioned<Json>(pending);
      const rewrites: WriteOp[] = [];
      pending.forEach((op, i) => {
        const found = current[i];
        const activation = op.activation as AccountActivation;
        // Not found: the newer document is gone (its index was re-created); this write stands alone,
        // unless it is only to be joined with the current document (a write behind the watermark).
        if (found?.source === undefined || found.version === undefined) {
          if (!existingOnly) rewrites.push({ ...op, versionType: 'external_gte' });
          return;
        }
        if (!needsActivation(found.source, activation)) return;
        rewrites.push({
          ...op,
          doc: { ...found.source, ...activation },
          json: undefined,
          version: found.version,
          versionType: 'external_gte',
        });
      });
      if (rewrites.length === 0) return;
      const result = await this.engine.write(rewrites);
      if (result.deadLetters > 0) throw new Error(`could not add the activation of ${result.deadLetters} accounts`);
      pending = result.superseded;
    }
  }
}

/** A recorded activation that applies to a write: not created after the state it writes. */
function applicable(activation: AccountActivation | undefined, op: WriteOp): AccountActivation | undefined {
  if (activation === undefined) return undefined;
  return activation.ledger_index <= op.ledgerIndex ? activation : undefined;
}

/** Whether an account document lacks this activation (and holds no newer one, nor predates it). */
export function needsActivation(doc: Json, activation: AccountActivation): boolean {
  const updated = doc._updated_ledger_index;
  if (typeof updated === 'number' && updated < activation.ledger_index) return false;
  const held = doc.ledger_index;
  if (typeof doc.parent === 'string' && typeof held === 'number' && held >= activation.ledger_index) return false;
  return true;
}

/**
 * The activation records of a batch: one per creating account write, at that write's version (a
 * later creation of the same address in the batch is a later version, and wins).
 */
export function activationRecords(ops: readonly WriteOp[], index: string): WriteOp[] {
  const records: WriteOp[] = [];
  for (const op of ops) {
    if (op.activation === undefined || op.version === undefined) continue;
    records.push({
      index,
      id: op.id,
      doc: { account: op.id, ...op.activation },
      version: op.version,
      ledgerIndex: op.ledgerIndex,
    });
  }
  return records;
}
