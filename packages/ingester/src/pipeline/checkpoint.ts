import type { IngestEngine, LedgerRange } from '../engine/ingest-engine.js';

export type { LedgerRange };

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

/** The ledgers of `ranges` that are not in `minus`, as sorted inclusive ranges (pure). */
export function subtractRanges(ranges: readonly LedgerRange[], minus: readonly LedgerRange[]): LedgerRange[] {
  const out: LedgerRange[] = [];
  const cut = addToRanges(minus, []);
  for (const range of addToRanges(ranges, [])) {
    let from = range.from;
    for (const hole of cut) {
      if (hole.to < from || hole.from > range.to) continue;
      if (hole.from > from) out.push({ from, to: hole.from - 1 });
      from = Math.max(from, hole.to + 1);
      if (from > range.to) break;
    }
    if (from <= range.to) out.push({ from, to: range.to });
  }
  return out;
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
 *
 * Several writers share one source's checkpoint (backfill workers, and `live` while a backfill
 * runs): each record is a compare-and-set on the stored document, retried on a conflict, so a
 * writer adds its ledgers to what the others recorded and never overwrites them.
 */
export class CheckpointStore {
  constructor(
    private readonly engine: IngestEngine,
    readonly source: string,
  ) {}

  load(): Promise<Checkpoint | undefined> {
    return this.engine.get<Checkpoint>('ingest-state', this.source);
  }

  async record(ledgers: readonly number[], documents: number, deadLetters: number): Promise<Checkpoint> {
    for (;;) {
      const stored = await this.engine.getTagged<Checkpoint>('ingest-state', this.source);
      const next = nextCheckpoint(this.source, stored?.source, ledgers, documents, deadLetters);
      if ((await this.engine.putIf('ingest-state', this.source, next, stored?.tag ?? 'absent')) !== undefined)
        return next;
    }
  }
}

/** A checkpoint with a batch's ledgers and counts added (pure). */
export function nextCheckpoint(
  source: string,
  previous: Checkpoint | undefined,
  ledgers: readonly number[],
  documents: number,
  deadLetters: number,
): Checkpoint {
  const ranges = addToRanges(previous?.ranges ?? [], ledgers);
  return {
    kind: 'checkpoint',
    source,
    last_ledger: Math.max(previous?.last_ledger ?? 0, ...ledgers),
    ranges,
    ledgers: ranges.reduce((n, r) => n + r.to - r.from + 1, 0),
    documents: (previous?.documents ?? 0) + documents,
    dead_letters: (previous?.dead_letters ?? 0) + deadLetters,
    updated_at: new Date().toISOString(),
  };
}

/** Every ledger indexed by any source, merged (the checkpoints' ranges): what a job run has seen, and where the history watermark comes from. */
export async function readIndexedRanges(engine: IngestEngine): Promise<LedgerRange[]> {
  const found = await engine.search<Checkpoint>('ingest-state', {
    size: 1000,
    query: { term: { kind: 'checkpoint' } },
    _source: ['ranges'],
  });
  return addToRanges(
    found.hits.hits.flatMap((hit) => hit._source?.ranges ?? []),
    [],
  );
}

/** Every source's checkpoint, by source name. */
export async function readCheckpoints(engine: IngestEngine): Promise<Checkpoint[]> {
  const found = await engine.search<Checkpoint>('ingest-state', {
    size: 1000,
    query: { term: { kind: 'checkpoint' } },
    sort: [{ source: 'asc' }],
  });
  return found.hits.hits.flatMap((hit) => (hit._source === undefined ? [] : [hit._source]));
}
