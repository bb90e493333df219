import { addToRanges, type LedgerRange } from '@xle/documents';
import type { IngestEngine } from '../engine/ingest-engine.js';

export { addToRanges, gapsOf, subtractRanges } from '@xle/documents';
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
