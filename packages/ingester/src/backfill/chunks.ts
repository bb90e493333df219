import type { LedgerRange } from '../pipeline/checkpoint.js';

// What parallel backfill workers share through the ingest-state index: the plan (which ranges
// were asked for, cut into chunks of how many ledgers), one lease per chunk, and one heartbeat per
// worker. Everything here is pure: the lease store reads and writes these documents.

/** The ranges asked of a source's backfills, so that status can tell pending chunks from unplanned ledgers. */
export interface BackfillPlan {
  kind: 'backfill';
  source: string;
  plans: { from: number; to: number; chunk: number }[];
  updated_at: string;
}

/** A chunk of a backfill: leased by one worker until `expires_at`, or done. */
export interface ChunkLease {
  kind: 'chunk';
  source: string;
  from: number;
  to: number;
  state: 'leased' | 'done';
  owner: string;
  /** ISO time after which another worker may take the chunk over. */
  expires_at: string;
  /** The last ledger of the chunk known written, from - 1 when none: a takeover resumes after it. */
  progress: number;
  takeovers: number;
  started_at: string;
  finished_at?: string;
  updated_at: string;
}

/** A worker's last sign of life. */
export interface WorkerHeartbeat {
  kind: 'worker';
  source: string;
  owner: string;
  /** Backfill workers work, wait or finish; the live follower follows. */
  state: 'working' | 'waiting' | 'finished' | 'following';
  heartbeat_at: string;
  from?: number;
  to?: number;
  /** The last ledger this worker indexed. */
  progress?: number;
  /** The live follower: the newest validated ledger its rippled announced. */
  validated_ledger?: number;
}

export const planId = (source: string): string => `backfill.${source}`;
export const chunkId = (source: string, chunk: LedgerRange): string => `chunk.${source}.${chunk.from}-${chunk.to}`;
export const workerId = (owner: string): string => `worker.${owner}`;

/**
 * A range cut into chunks aligned on multiples of `size` (so two backfills of overlapping ranges
 * agree on the chunks they share), the first and last clipped to the range.
 */
export function chunksOf(range: LedgerRange, size: number): LedgerRange[] {
  const chunks: LedgerRange[] = [];
  for (let start = range.from; start <= range.to;) {
    const end = Math.min(range.to, (Math.floor(start / size) + 1) * size - 1);
    chunks.push({ from: start, to: end });
    start = end + 1;
  }
  return chunks;
}

/** A plan with one more backfill added (the same range and chunk size is recorded once). */
export function addPlan(
  plan: BackfillPlan | undefined,
  source: string,
  range: LedgerRange,
  chunk: number,
): BackfillPlan {
  const plans = plan?.plans ?? [];
  const known = plans.some((p) => p.from === range.from && p.to === range.to && p.chunk === chunk);
  return {
    kind: 'backfill',
    source,
    plans: known ? plans : [...plans, { from: range.from, to: range.to, chunk }],
    updated_at: new Date().toISOString(),
  };
}

/** What a worker may do with a chunk, given its lease (or none) at `now`. */
export type ChunkDecision = 'claim' | 'take-over' | 'renew-own' | 'busy' | 'done';

export function decide(lease: ChunkLease | undefined, owner: string, now: number): ChunkDecision {
  if (lease === undefined) return 'claim';
  if (lease.state === 'done') return 'done';
  if (lease.owner === owner) return 'renew-own';
  return Date.parse(lease.expires_at) <= now ? 'take-over' : 'busy';
}

/** The lease a worker writes when it claims, takes over or renews a chunk (pure). */
export function leaseFor(
  previous: ChunkLease | undefined,
  chunk: LedgerRange & { source: string },
  owner: string,
  now: number,
  leaseMs: number,
  progress?: number,
): ChunkLease {
  const at = new Date(now).toISOString();
  return {
    kind: 'chunk',
    source: chunk.source,
    from: chunk.from,
    to: chunk.to,
    state: 'leased',
    owner,
    expires_at: new Date(now + leaseMs).toISOString(),
    progress: Math.max(progress ?? chunk.from - 1, previous?.progress ?? chunk.from - 1),
    takeovers: (previous?.takeovers ?? 0) + (previous !== undefined && previous.owner !== owner ? 1 : 0),
    started_at: previous?.started_at ?? at,
    updated_at: at,
  };
}

/** Chunks by state, for `ingest status`: done, leased (live lease), expired (waiting for a takeover), pending (never claimed). */
export interface ChunkSummary {
  done: number;
  leased: number;
  expired: number;
  pending: number;
  /** Leased and expired chunks, with owner and progress. */
  active: { from: number; to: number; owner: string; progress: number; expires_at: string; expired: boolean }[];
}

export function summarizeChunks(
  planned: readonly LedgerRange[],
  leases: ReadonlyMap<string, ChunkLease>,
  source: string,
  now: number,
): ChunkSummary {
  const summary: ChunkSummary = { done: 0, leased: 0, expired: 0, pending: 0, active: [] };
  for (const chunk of planned) {
    const lease = leases.get(chunkId(source, chunk));
    if (lease === undefined) summary.pending += 1;
    else if (lease.state === 'done') summary.done += 1;
    else {
      const expired = Date.parse(lease.expires_at) <= now;
      if (expired) summary.expired += 1;
      else summary.leased += 1;
      summary.active.push({
        from: lease.from,
        to: lease.to,
        owner: lease.owner,
        progress: lease.progress,
        expires_at: lease.expires_at,
        expired,
      });
    }
  }
  return summary;
}
