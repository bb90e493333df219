import { totalHits } from '@xle/core';
import type { IngestEngine, WriteTag } from '../engine/ingest-engine.js';
import type { LedgerRange } from '../pipeline/checkpoint.js';
import {
  addPlan,
  chunkId,
  claimable,
  decide,
  endChunks,
  finishedLease,
  isChunkOf,
  leaseFor,
  planId,
  planName,
  releasedLease,
  summarizePlan,
  workerId,
  type BackfillPlan,
  type ChunkGap,
  type ChunkLease,
  type PlanSummary,
  type WorkerHeartbeat,
} from './chunks.js';

/** A plan as recorded: its range and chunk size. */
export type PlanEntry = BackfillPlan['plans'][number];

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

  /** The source's recorded backfills. */
  async plans(): Promise<PlanEntry[]> {
    return (await this.engine.get<BackfillPlan>('ingest-state', planId(this.source)))?.plans ?? [];
  }

  /** Whether a backfill is still recorded (not cancelled). */
  async planned(range: LedgerRange, chunk: number): Promise<boolean> {
    return (await this.plans()).some((p) => p.from === range.from && p.to === range.to && p.chunk === chunk);
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
   * another worker holds a live lease or wins the race, 'done' when the chunk is finished. A chunk
   * done with gaps is leased again (to fetch its gaps) when they were left before `since`.
   */
  async claim(
    chunk: LedgerRange,
    owner: string,
    leaseMs: number,
    options: { since?: number; chunk?: number } = {},
  ): Promise<HeldLease | 'busy' | 'done'> {
    const id = chunkId(this.source, chunk);
    const stored = await this.engine.getTagged<ChunkLease>('ingest-state', id);
    const decision = decide(stored?.source, owner, this.now(), options.since);
    if (decision === 'done' || !claimable(decision)) return decision === 'done' ? 'done' : 'busy';
    const lease = leaseFor(
      stored?.source,
      { ...chunk, source: this.source, ...(options.chunk === undefined ? {} : { chunk: options.chunk }) },
      owner,
      this.now(),
      leaseMs,
    );
    const tag = await this.engine.putIf('ingest-state', id, lease, stored?.tag ?? 'absent');
    return tag === undefined ? 'busy' : { lease, tag };
  }

  /**
   * Extends a held lease and records the progress made under it; undefined when the lease was
   * lost (taken over after it expired), so the worker must stop writing that chunk.
   */
  async renew(
    held: HeldLease,
    progress: number,
    leaseMs: number,
    gaps?: readonly ChunkGap[],
  ): Promise<HeldLease | undefined> {
    const lease = leaseFor(held.lease, held.lease, held.lease.owner, this.now(), leaseMs, progress, gaps);
    const tag = await this.engine.putIf('ingest-state', chunkId(this.source, held.lease), lease, held.tag);
    return tag === undefined ? undefined : { lease, tag };
  }

  /**
   * Marks a held chunk done, or done with gaps; false when the lease was lost meanwhile (its new
   * holder finishes it).
   */
  async complete(held: HeldLease, gaps: readonly ChunkGap[] = []): Promise<boolean> {
    const lease = finishedLease(held.lease, this.now(), gaps);
    return (await this.engine.putIf('ingest-state', chunkId(this.source, held.lease), lease, held.tag)) !== undefined;
  }

  /**
   * Hands a held chunk back before its lease expires (a failed or stopped worker): any worker may
   * take it at once and resume after `progress`, with `gaps` to fetch again. False when it was lost.
   */
  async release(held: HeldLease, progress: number, gaps: readonly ChunkGap[]): Promise<boolean> {
    const lease = releasedLease(held.lease, this.now(), progress, gaps);
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

  /** Chunks of the source under a live lease of another owner than `except` (searched after a refresh). */
  async liveLeases(except?: string): Promise<number> {
    await this.engine.refresh(['ingest-state']);
    const found = await this.engine.search<ChunkLease>('ingest-state', {
      size: 0,
      track_total_hits: true,
      query: {
        bool: {
          filter: [
            { term: { kind: 'chunk' } },
            { term: { source: this.source } },
            { term: { state: 'leased' } },
            { range: { expires_at: { gt: new Date(this.now()).toISOString() } } },
          ],
          ...(except === undefined ? {} : { must_not: [{ term: { owner: except } }] }),
        },
      },
    });
    return totalHits(found.hits);
  }

  /**
   * One summary per recorded backfill: one search each (counts by state, the sum of gap lengths,
   * and the first unfinished chunks), whatever the size of the plan.
   */
  async planSummaries(listed = 100): Promise<PlanSummary[]> {
    const plans = await this.plans();
    const now = this.now();
    const summaries: PlanSummary[] = [];
    for (const plan of plans) {
      const found = await this.engine.search<ChunkLease>('ingest-state', {
        size: listed,
        query: this.chunksOfPlan(plan, plans),
        // The chunks listed are the unfinished ones; the counts are over all of the plan's.
        post_filter: { bool: { must_not: [{ term: { state: 'done' } }] } },
        sort: [{ from: 'asc' }],
        aggs: {
          states: { terms: { field: 'state', size: 10 } },
          expired: {
            filter: {
              bool: {
                filter: [
                  { term: { state: 'leased' } },
                  { range: { expires_at: { lte: new Date(now).toISOString() } } },
                ],
              },
            },
          },
          gap_to: { sum: { field: 'gaps.to' } },
          gap_from: { sum: { field: 'gaps.from' } },
          gap_count: { value_count: { field: 'gaps.from' } },
        },
      });
      const agg = found.aggregations as PlanAggregation | undefined;
      const count = (state: string): number => agg?.states.buckets.find((b) => b.key === state)?.doc_count ?? 0;
      summaries.push(
        summarizePlan(
          plan,
          {
            done: count('done'),
            gaps: count('gaps'),
            leased: count('leased'),
            expired: agg?.expired.doc_count ?? 0,
            gapLedgers: Math.round((agg?.gap_to.value ?? 0) - (agg?.gap_from.value ?? 0) + (agg?.gap_count.value ?? 0)),
          },
          found.hits.hits.flatMap((hit) => (hit._source === undefined ? [] : [hit._source])),
          now,
        ),
      );
    }
    return summaries;
  }

  /**
   * Cancels the recorded backfills of range `name` (`from-to`, as `--list` shows them): removes
   * them from the plan, then deletes every chunk document of theirs that no remaining plan shares.
   * Answers what was removed; `plans` is 0 when no plan has that name.
   */
  async cancel(name: string): Promise<{ plans: number; chunks: number; live: number }> {
    const removed = await this.removePlans(name);
    if (removed === undefined) return { plans: 0, chunks: 0, live: 0 };
    const { cancelled, remaining } = removed;
    await this.engine.refresh(['ingest-state']);
    const doomed: string[] = [];
    let live = 0;
    for (const plan of cancelled) {
      const hits = this.engine.scan<ChunkLease>('ingest-state', {
        size: 1000,
        query: { bool: { filter: this.chunksWithin(plan) } },
        sort: [{ from: 'asc' }, { to: 'asc' }],
      });
      for await (const hit of hits) {
        const lease = hit._source;
        if (lease === undefined || hit._id === undefined || !isChunkOf(plan, lease)) continue;
        if (remaining.some((p) => isChunkOf(p, lease))) continue;
        if (lease.state === 'leased' && Date.parse(lease.expires_at) > this.now()) live += 1;
        doomed.push(hit._id);
      }
    }
    await this.engine.deleteIds('ingest-state', doomed, { refresh: true });
    return { plans: cancelled.length, chunks: doomed.length, live };
  }

  /**
   * Gives up a chunk claimed just as its plan was cancelled: deleted when no recorded plan has it
   * (so a cancelled plan leaves no chunk behind), else handed back for the plan that shares it.
   */
  async abandon(held: HeldLease): Promise<void> {
    const plans = await this.plans();
    if (plans.some((p) => isChunkOf(p, held.lease)))
      await this.release(held, held.lease.progress, held.lease.gaps ?? []);
    else await this.engine.deleteIds('ingest-state', [chunkId(this.source, held.lease)]);
  }

  /** Removes the plans named `name` from the source's plan (a compare-and-set, retried on conflict). */
  private async removePlans(name: string): Promise<{ cancelled: PlanEntry[]; remaining: PlanEntry[] } | undefined> {
    for (;;) {
      const stored = await this.engine.getTagged<BackfillPlan>('ingest-state', planId(this.source));
      const plans = stored?.source.plans ?? [];
      const cancelled = plans.filter((p) => planName(p) === name);
      const remaining = plans.filter((p) => planName(p) !== name);
      if (stored === undefined || cancelled.length === 0) return undefined;
      const next: BackfillPlan = { ...stored.source, plans: remaining, updated_at: new Date(this.now()).toISOString() };
      if ((await this.engine.putIf('ingest-state', planId(this.source), next, stored.tag)) !== undefined)
        return { cancelled, remaining };
    }
  }

  /** Filters for this source's chunk documents inside a plan's range. */
  private chunksWithin(plan: { from: number; to: number }): Record<string, unknown>[] {
    return [
      { term: { kind: 'chunk' } },
      { term: { source: this.source } },
      { range: { from: { gte: plan.from } } },
      { range: { to: { lte: plan.to } } },
    ];
  }

  /**
   * The chunk documents of one plan: in its range, cut by its chunk size (or its own clipped ends),
   * not the clipped ends of another plan of the same chunk size. A chunk document written before
   * chunk sizes were recorded counts for every plan whose range holds it.
   */
  private chunksOfPlan(plan: PlanEntry, plans: readonly PlanEntry[]): Record<string, unknown> {
    const own = endChunks(plan).map((c) => chunkId(this.source, c));
    const foreign = plans
      .filter((p) => p !== plan && p.chunk === plan.chunk)
      .flatMap((p) => endChunks(p))
      .filter((c) => !isChunkOf(plan, c))
      .map((c) => chunkId(this.source, c));
    return {
      bool: {
        filter: this.chunksWithin(plan),
        should: [
          { term: { chunk: plan.chunk } },
          { bool: { must_not: [{ exists: { field: 'chunk' } }] } },
          { ids: { values: own } },
        ],
        minimum_should_match: 1,
        ...(foreign.length === 0 ? {} : { must_not: [{ ids: { values: foreign } }] }),
      },
    };
  }
}

interface PlanAggregation {
  states: { buckets: { key: string; doc_count: number }[] };
  expired: { doc_count: number };
  gap_to: { value: number | null };
  gap_from: { value: number | null };
  gap_count: { value: number | null };
}
