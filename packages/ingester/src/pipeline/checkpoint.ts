import type { IngestEngine } from '../engine/ingest-engine.js';

export interface LedgerRange {
  from: number;
  to: number;
}

export interface Checkpoint {
  kind: 'checkpoint';
  source: string;
  /** Highest ledger whose documents are all acknowledged. */
  last_ledger: number;
  /** Every indexed ledger, as sorted, merged, inclusive ranges. */
  ranges: LedgerRange[];
  ledgers: number;
  documents: number;
  dead_letters: number;
  updated_at: string;
}

/** Adds ledger indices to sorted inclusive ranges, merging neighbours (pure). */
export function addToRanges(ranges: readonly LedgerRange[], ledgers: Iterable<number>): LedgerRange[] {
  const all = [...ranges.map((r) => ({ ...r })), ...[...ledgers].map((l) => ({ from: l, to: l }))].sort(
    (a, b) => a.from - b.from,
  );
  const merged: LedgerRange[] = [];
  for (const range of all) {
    const last = merged[merged.length - 1];
    if (last !== undefined && range.from <= last.to + 1) last.to = Math.max(last.to, range.to);
    else merged.push(range);
  }
  return merged;
}

/** Missing ledgers between the first and last indexed ones (pure). */
export function gapsOf(ranges: readonly LedgerRange[]): LedgerRange[] {
  const gaps: LedgerRange[] = [];
  for (let i = 1; i < ranges.length; i += 1) {
    const previous = ranges[i - 1];
    const current = ranges[i];
    if (previous !== undefined && current !== undefined) gaps.push({ from: previous.to + 1, to: current.from - 1 });
  }
  return gaps;
}

/**
 * The ingester's checkpoint, one document per source in the ingest-state index. It is written
 * only after every document of a batch is acknowledged, so a restart after a kill at any moment
 * re-ingests at most that batch, and deterministic ids make that replay idempotent.
 */
export class CheckpointStore {
  constructor(
    private readonly engine: IngestEngine,
    readonly source: string,
  ) {}

  load(): Promise<Checkpoint | undefined> {
    return this.engine.get<Checkpoint>('ingest-state', this.source);
  }

  async record(
    previous: Checkpoint | undefined,
    ledgers: readonly number[],
    documents: number,
    deadLetters: number,
  ): Promise<Checkpoint> {
    const ranges = addToRanges(previous?.ranges ?? [], ledgers);
    const next: Checkpoint = {
      kind: 'checkpoint',
      source: this.source,
      last_ledger: Math.max(previous?.last_ledger ?? 0, ...ledgers),
      ranges,
      ledgers: ranges.reduce((n, r) => n + r.to - r.from + 1, 0),
      documents: (previous?.documents ?? 0) + documents,
      dead_letters: (previous?.dead_letters ?? 0) + deadLetters,
      updated_at: new Date().toISOString(),
    };
    await this.engine.put('ingest-state', this.source, next);
    return next;
  }
}
