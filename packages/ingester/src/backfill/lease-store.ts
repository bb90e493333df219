import type { IngestEngine, WriteTag } from '../engine/ingest-engine.js';
import type { LedgerRange } from '../pipeline/checkpoint.js';
import {
  addPlan,
  chunkId,
  chunksOf,
  decide,
  leaseFor,
  planId,
  workerId,
  type BackfillPlan,
  type ChunkLease,
  type WorkerHeartbeat,
} from './chunks.js';

/** A lease this worker holds: the document as written, and the tag its next write must match. */
export interface HeldLease {
  lease: ChunkLease;
  tag: WriteTag;
}

/**
 * Backfill plans, chunk leases and worker heartbeats in the ingest-state index. Every change to a
 * shared document is a compare-and-set (`putIf`): two workers that claim one chunk at once both
 * read it free, both write, and the engine takes exactly one write; the other gets a conflict
 * and moves on.
 */
export class LeaseStore {
  constructor(
    private readonly engine: IngestEngine,
    readonly source: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Adds a backfill to the source's plan (a compare-and-set, retried on conflict). */
  async recordPlan(range: LedgerRange, chunk: number): Promise<void> {
    for (;;) {
      const stored = await this.engine.getTagged<BackfillPlan>('ingest-state', planId(this.source));
      const next = addPlan(stored?.source, this.source, range, chunk);
      if (stored !== undefined && next.plans === stored.source.plans) return;
      if ((await this.engine.putIf('ingest-state', planId(this.source), next, stored?.tag ?? 'absent')) !== undefined)
        return;
    }
  }

  /** Every chunk of every recorded backfill of the source, in ledger order, each once. */
  async plannedChunks(): Promise<LedgerRange[]> {
    const plan = await this.engine.get<BackfillPlan>('ingest-state', planId(this.source));
    const chunks = new Map<string, LedgerRange>();
    for (const p of plan?.plans ?? [])
      for (const chunk of chunksOf(p, p.chunk)) chunks.set(chunkId(this.source, chunk), chunk);
    return [...chunks.values()].sort((a, b) => a.from - b.from || a.to - b.to);
  }

  /** The leases of some chunks, by chunk id (chunks never claimed are absent). */
  async leases(chunks: readonly LedgerRange[]): Promise<Map<string, ChunkLease>> {
    const found = new Map<string, ChunkLease>();
    for (let at = 0; at < chunks.length; at += 1000) {
      const ids = chunks.slice(at, at + 1000).map((c) => chunkId(this.source, c));
      for (const [id, lease] of await this.engine.mget<ChunkLease>('ingest-state', ids)) found.set(id, lease);
    }
    return found;
  }

  /**
   * Takes a chunk for `owner` for `leaseMs`: a free chunk is claimed, an expired lease taken over
   * (resuming after its recorded progress), the owner's own lease renewed. Answers 'busy' when
   * another worker holds a live lease or wins the race, 'done' when the chunk is finished.
   */
  async claim(chunk: LedgerRange, owner: string, leaseMs: number): Promise<HeldLease | 'busy' | 'done'> {
    const id = chunkId(this.source, chunk);
    const stored = await this.engine.getTagged<ChunkLease>('ingest-state', id);
    const decision = decide(stored?.source, owner, this.now());
    if (decision === 'done' || decision === 'busy') return decision;
    const lease = leaseFor(stored?.source, { ...chunk, source: this.source }, owner, this.now(), leaseMs);
    const tag = await this.engine.putIf('ingest-state', id, lease, stored?.tag ?? 'absent');
    return tag === undefined ? 'busy' : { lease, tag };
  }

  /**
   * Extends a held lease and records the progress made under it; undefined when the lease was
   * lost (taken over after it expired), so the worker must stop writing that chunk.
   */
  async renew(held: HeldLease, progress: number, leaseMs: number): Promise<HeldLease | undefined> {
    const lease = leaseFor(held.lease, held.lease, held.lease.owner, this.now(), leaseMs, progress);
    const tag = await this.engine.putIf('ingest-state', chunkId(this.source, held.lease), lease, held.tag);
    return tag === undefined ? undefined : { lease, tag };
  }

  /** Marks a held chunk done; false when the lease was lost meanwhile (its new holder finishes it). */
  async complete(held: HeldLease): Promise<boolean> {
    const at = new Date(this.now()).toISOString();
    const lease: ChunkLease = {
      ...held.lease,
      state: 'done',
      progress: held.lease.to,
      finished_at: at,
      updated_at: at,
    };
    return (await this.engine.putIf('ingest-state', chunkId(this.source, held.lease), lease, held.tag)) !== undefined;
  }

  async heartbeat(beat: Omit<WorkerHeartbeat, 'kind' | 'source' | 'heartbeat_at'>): Promise<void> {
    const doc: WorkerHeartbeat = {
      kind: 'worker',
      source: this.source,
      heartbeat_at: new Date(this.now()).toISOString(),
      ...beat,
    };
    await this.engine.put('ingest-state', workerId(beat.owner), doc);
  }

  /** Heartbeats of the source's workers, newest first. */
  async workers(): Promise<WorkerHeartbeat[]> {
    const found = await this.engine.search<WorkerHeartbeat>('ingest-state', {
      size: 1000,
      query: { bool: { filter: [{ term: { kind: 'worker' } }, { term: { source: this.source } }] } },
      sort: [{ heartbeat_at: 'desc' }],
    });
    return found.hits.hits.flatMap((hit) => (hit._source === undefined ? [] : [hit._source]));
  }
}
