import type { WriteOp } from '../writes.js';
import type { IngestEngine } from '../engine/ingest-engine.js';

/**
 * How long a batch may take, from its guard check to the end of its write, before the guards are
 * read again: half of the objects index's `index.gc_deletes` (5 minutes), the time the engine
 * itself remembers a delete's version and refuses an older write of the deleted document.
 */
export const GUARD_WINDOW_MS = 150_000;

/**
 * Deleted ledger entries without tombstones in the objects index.
 *
 * The objects index holds live entries only, so its size follows the current state, not the
 * history (on mainnet nearly every Offer and DirectoryNode ever created has been deleted since).
 * What a tombstone did, refuse an older state of a deleted entry (a backfill replaying older
 * ledgers after newer ones), is done by a guard: a small document of the `deletions` index at the
 * version of the deleting change. The rule:
 *
 * 1. A deletion writes its guard first (acknowledged before the rest of its batch), then deletes
 *    the document at the deleting change's version (a newer state stays).
 * 2. Every other object write is checked against the guards, read (realtime) before its batch is
 *    written: a write older than the entry's guard becomes a delete at the guard's version. That
 *    delete also removes an older state that a run stopped between its write and this check had
 *    left (the next run of the same ledgers checks again), so no order of runs resurrects an entry.
 * 3. A guard written after that read (a deletion ingested at the same time by another process)
 *    deletes the document itself when its own delete comes after the older write; when it came
 *    before, the engine refuses the older write for `index.gc_deletes` (5 minutes); a batch that
 *    took longer than half of that since its check reads the guards again and applies them.
 * 4. An entry is in objects (live) or in deletions (its newest change deleted it), not both: a
 *    live state newer than a guard (the entry created again, or a deletion replayed after newer
 *    states) removes the guard, which the live document makes useless (it refuses older writes
 *    itself). The one overlap left is harmless: a re-creation and an older deletion ingested at
 *    the same moment by two processes, each before the other's check, keep a guard older than the
 *    live state; it can only turn older writes into deletes the live state refuses.
 * 5. Guards behind the history watermark are pruned, and no ledger state is written there
 *    (watermark.ts).
 */
export class DeletionGuards {
  constructor(
    private readonly engine: IngestEngine,
    private readonly now: () => number = Date.now,
  ) {}

  /** Object writes of a batch that its guards may overrule (not deletes themselves). */
  private checked(ops: readonly WriteOp[]): WriteOp[] {
    const objects = this.engine.index('objects');
    return ops.filter((op) => op.index === objects && op.delete !== true && op.version !== undefined);
  }

  /** The guards of some entries, by id: the version of the change that deleted each (realtime). */
  private async guards(ids: readonly string[]): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    if (ids.length === 0) return found;
    const index = this.engine.index('deletions');
    const docs = await this.engine.mgetVersioned<unknown>(ids.map((id) => ({ index, id })));
    ids.forEach((id, i) => {
      const version = docs[i]?.version;
      if (version !== undefined) found.set(id, version);
    });
    return found;
  }

  /**
   * The batch as it must be written: writes older than their entry's guard become deletes at its
   * version (rule 2); writes newer than it (the entry created again) are paired with the removal
   * of that guard, to be sent once they are written (rule 4).
   */
  async apply(ops: readonly WriteOp[]): Promise<{ ops: WriteOp[]; checkedAt: number; cleared: Map<WriteOp, WriteOp> }> {
    const checkedAt = this.now();
    const cleared = new Map<WriteOp, WriteOp>();
    const candidates = this.checked(ops);
    if (candidates.length === 0) return { ops: [...ops], checkedAt, cleared };
    const guards = await this.guards([...new Set(candidates.map((op) => op.id))]);
    if (guards.size === 0) return { ops: [...ops], checkedAt, cleared };
    const objects = this.engine.index('objects');
    const allowed = ops.map((op) => {
      const written = overruled(op, guards, objects);
      const guard = guards.get(op.id);
      if (written === op && guard !== undefined && op.index === objects && op.delete !== true)
        cleared.set(op, this.guardRemoval(op.id, guard, op.ledgerIndex));
      return written;
    });
    return { ops: allowed, checkedAt, cleared };
  }

  /**
   * The removal of a guard that a live state newer than it has made useless (rule 4): at the
   * guard's own version with `external_gte`, so a newer guard (the entry deleted again) stays.
   */
  guardRemoval(id: string, version: number, ledgerIndex: number): WriteOp {
    return {
      index: this.engine.index('deletions'),
      id,
      doc: {},
      version,
      versionType: 'external_gte',
      ledgerIndex,
      delete: true,
    };
  }

  /**
   * After the batch is written (rule 4): the guards of entries whose live state is newer than the
   * deletion, so that objects and deletions never hold the same entry. A re-creation written
   * removes the guard it met; a deletion refused because a newer live state is there (a replay
   * of an older ledger) removes its own guard. A delete is also refused when the engine still
   * remembers the same delete (a replay within `index.gc_deletes`, or a write the guards turned
   * into the same delete): the document is read to tell the two apart.
   */
  async staleGuards(cleared: ReadonlyMap<WriteOp, WriteOp>, superseded: readonly WriteOp[]): Promise<WriteOp[]> {
    const refused = new Set(superseded);
    const objects = this.engine.index('objects');
    const stale: WriteOp[] = [];
    for (const [op, removal] of cleared) if (!refused.has(op)) stale.push(removal);
    const deletes = superseded.filter((op) => op.index === objects && op.delete === true && op.version !== undefined);
    if (deletes.length === 0) return stale;
    const current = await this.engine.mgetVersioned<unknown>(deletes.map((op) => ({ index: objects, id: op.id })));
    deletes.forEach((op, i) => {
      const live = current[i]?.version;
      if (live !== undefined && live > (op.version as number))
        stale.push(this.guardRemoval(op.id, op.version as number, op.ledgerIndex));
    });
    return stale;
  }

  /** After the batch is written: when it took longer than GUARD_WINDOW_MS since its check, rule 2 again. */
  async recheck(ops: readonly WriteOp[], checkedAt: number): Promise<WriteOp[]> {
    if (this.now() - checkedAt < GUARD_WINDOW_MS) return [];
    const candidates = this.checked(ops);
    const guards = await this.guards([...new Set(candidates.map((op) => op.id))]);
    const objects = this.engine.index('objects');
    return candidates.map((op) => overruled(op, guards, objects)).filter((op) => op.delete === true);
  }
}

/** An object write as its entry's guard allows it: itself, or a delete at the guard's version. */
function overruled(op: WriteOp, guards: ReadonlyMap<string, number>, objects: string): WriteOp {
  if (op.index !== objects || op.delete === true || op.version === undefined) return op;
  const guard = guards.get(op.id);
  if (guard === undefined || guard <= op.version) return op;
  return { index: objects, id: op.id, doc: op.doc, version: guard, ledgerIndex: op.ledgerIndex, delete: true };
}
