import { readIndexedRanges, type LedgerRange } from './checkpoint.js';
import type { WriteOp } from '../writes.js';
import type { IngestEngine } from '../engine/ingest-engine.js';

/**
 * Deletion guards pruned behind the history watermark.
 *
 * A guard (deletions.ts) exists for one reason: a write of an older state of a deleted entry may
 * still come (a backfill of older ledgers). Once the indexed history runs without a gap from the
 * network's first ledger up to a ledger W, no older state of anything at or below W is missing,
 * and a write of a ledger at or below W can only be a replay of indexed history. So:
 *
 * 1. The pruner (`pruneGuards`, run by `pnpm ingest jobs`) publishes W, the end of the contiguous
 *    history from `historyStart`, in the ingest-state index.
 * 2. Every writer reads the published W (at most WATERMARK_MAX_AGE_MS old) before each batch and
 *    writes nothing of the ledger state (objects, accounts, NFTokens, guards) for ledgers at or
 *    below it: their newer state is indexed already. Transactions, ledgers and activation records
 *    are written as always (a re-ingest of old ledgers still rewrites their documents), and an
 *    activation such a ledger carries is still added to the account's current document.
 * 3. Only PRUNE_DELAY_MS after publishing W does the pruner remove the guards at or below it (each
 *    at its own version, so a newer guard of the same entry stays), then publishes the next W. A
 *    batch that read an older W before the publication checked the guards at its start, while they
 *    all still existed, and finishes long before the delay is over (each of its few requests gives
 *    up after TRANSIENT_BUDGET_MS).
 *
 * The bound: the deletions index holds the guards of entries deleted above the last pruned W (the
 * history still being filled, and the deletions since the last run), not one per deleted entry of
 * the whole history. When the history does not reach back to `historyStart` (a deployment indexing
 * only recent years), nothing is pruned: a backfill further back could still write older states.
 */
export const WATERMARK_ID = 'history-watermark';
/** The time between publishing a watermark and pruning the guards behind it. */
export const PRUNE_DELAY_MS = 3_600_000;
/** How long a writer may use a watermark it read (far under PRUNE_DELAY_MS). */
export const WATERMARK_MAX_AGE_MS = 60_000;

export interface HistoryWatermark {
  kind: 'watermark';
  /** Writers write no ledger state at or below this ledger. */
  ledger_index: number;
  published_at: string;
  /** Guards at or below this ledger are pruned (equal to `ledger_index` once its prune ran). */
  pruned_through?: number;
}

/** The last ledger of the indexed history that runs without a gap from `historyStart` (pure). */
export function contiguousEnd(ranges: readonly LedgerRange[], historyStart: number): number | undefined {
  return ranges.find((range) => range.from <= historyStart && historyStart <= range.to)?.to;
}

/** The ledger-state writes of a batch at or below the watermark, and the rest (pure). */
export function belowWatermark(
  ops: readonly WriteOp[],
  watermark: number,
  stateIndices: ReadonlySet<string>,
): { kept: WriteOp[]; skipped: WriteOp[] } {
  const kept: WriteOp[] = [];
  const skipped: WriteOp[] = [];
  for (const op of ops) (stateIndices.has(op.index) && op.ledgerIndex <= watermark ? skipped : kept).push(op);
  return { kept, skipped };
}

/** A writer's view of the published watermark, read again when older than WATERMARK_MAX_AGE_MS. */
export class WatermarkReader {
  private cached: { ledger: number; readAt: number } | undefined;

  constructor(
    private readonly engine: IngestEngine,
    private readonly now: () => number = Date.now,
  ) {}

  /** The published watermark (0 when none is published). */
  async current(): Promise<number> {
    const now = this.now();
    if (this.cached !== undefined && now - this.cached.readAt < WATERMARK_MAX_AGE_MS) return this.cached.ledger;
    const stored = await this.engine.get<HistoryWatermark>('ingest-state', WATERMARK_ID);
    this.cached = { ledger: stored?.ledger_index ?? 0, readAt: now };
    return this.cached.ledger;
  }
}

export interface PruneResult {
  /** The end of the contiguous history from `historyStart`, when it reaches back that far. */
  contiguousTo?: number;
  /** The watermark writers use after this run. */
  watermark?: number;
  /** Guards removed by this run, and the ledger they were at or below. */
  pruned: number;
  prunedThrough?: number;
  /** When the published watermark's guards may be pruned, if not yet. */
  dueAt?: string;
}

/**
 * One run of the pruner (see above): prunes the guards behind the published watermark once it is
 * PRUNE_DELAY_MS old, then publishes the end of the contiguous history as the next one. Running
 * it again, or again after a kill, is harmless: a guard is removed only at its own version.
 */
export async function pruneGuards(
  engine: IngestEngine,
  {
    historyStart,
    now = Date.now(),
    delayMs = PRUNE_DELAY_MS,
  }: { historyStart: number; now?: number; delayMs?: number },
): Promise<PruneResult> {
  const result: PruneResult = { pruned: 0 };
  let stored = await engine.get<HistoryWatermark>('ingest-state', WATERMARK_ID);
  if (stored !== undefined && stored.pruned_through !== stored.ledger_index) {
    const due = Date.parse(stored.published_at) + delayMs;
    if (now >= due) {
      result.pruned = await removeGuards(engine, stored.ledger_index);
      stored = { ...stored, pruned_through: stored.ledger_index };
      await engine.put('ingest-state', WATERMARK_ID, stored);
      result.prunedThrough = stored.ledger_index;
    } else result.dueAt = new Date(due).toISOString();
  }
  const end = contiguousEnd(await readIndexedRanges(engine), historyStart);
  if (end !== undefined) result.contiguousTo = end;
  if (
    end !== undefined &&
    (stored === undefined || (stored.pruned_through === stored.ledger_index && end > stored.ledger_index))
  ) {
    stored = {
      kind: 'watermark',
      ledger_index: end,
      published_at: new Date(now).toISOString(),
      pruned_through: stored?.pruned_through ?? 0,
    };
    await engine.put('ingest-state', WATERMARK_ID, stored, { refresh: true });
    result.dueAt = new Date(now + delayMs).toISOString();
  }
  if (stored !== undefined) result.watermark = stored.ledger_index;
  return result;
}

/** Removes every guard at or below `ledger`, each at its own version (a newer guard of the entry stays). */
async function removeGuards(engine: IngestEngine, ledger: number): Promise<number> {
  const index = engine.index('deletions');
  let removed = 0;
  let page: WriteOp[] = [];
  const flush = async (): Promise<void> => {
    const written = await engine.write(page);
    if (written.deadLetters > 0) throw new Error(`${written.deadLetters} guards could not be removed`);
    removed += page.length - written.superseded.length;
    page = [];
  };
  for await (const hit of engine.scanAll<unknown>('deletions', {
    query: { range: { ledger_index: { lte: ledger } } },
    _source: false,
    version: true,
  })) {
    if (hit._id === undefined || hit._version === undefined) continue;
    page.push({
      index,
      id: hit._id,
      doc: {},
      version: hit._version,
      versionType: 'external_gte',
      ledgerIndex: ledger,
      delete: true,
    });
    if (page.length >= 5000) await flush();
  }
  if (page.length > 0) await flush();
  await engine.refresh(['deletions']);
  return removed;
}
