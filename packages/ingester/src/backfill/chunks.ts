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

/** Ledgers of a chunk the source could not serve (after its retries), with its last answer. */
export interface ChunkGap {
  from: number;
  to: number;
  reason: string;
}

/**
 * A chunk of a backfill: leased by one worker until `expires_at`, done, or done with gaps
 * (`gaps`: every ledger of it indexed but those of `gaps`, which the next run of a backfill over
 * it fetches again).
 */
export interface ChunkLease {
  kind: 'chunk';
  source: string;
  from: number;
  to: number;
  /** The chunk size of the plan that first leased it (tells a plan's chunks from an overlapping plan's). */
  chunk?: number;
  state: 'leased' | 'done' | 'gaps';
  owner: string;
  /** ISO time after which another worker may take the chunk over. */
  expires_at: string;
  /**
   * The last ledger of the chunk known written, from - 1 when none: a takeover resumes after it.
   * Every ledger from `from` to `progress` is indexed, except those in `gaps`.
   */
  progress: number;
  /** Ledgers up to `progress` that could not be fetched: retried by the next run, not by this one. */
  gaps?: ChunkGap[];
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
  /** Backfill workers work, wait, finish or fail (with `error`); the live follower follows. */
  state: 'working' | 'waiting' | 'finished' | 'failed' | 'following';
  /** Why a worker failed. */
  error?: string;
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

/** A plan's name in `backfill --list` and `--cancel`: its range, `from-to`. */
export const planName = (plan: LedgerRange): string => `${plan.from}-${plan.to}`;

/** What a worker may do with a chunk, given its lease (or none) at `now`. */
export type ChunkDecision = 'claim' | 'take-over' | 'renew-own' | 'retry-gaps' | 'busy' | 'done';

/**
 * A chunk done with gaps counts as done for the run that left them (or any run that started after
 * they were left): a run started at `since` retries the gaps that were left before it. Without
 * `since`, gaps are not retried.
 */
export function decide(lease: ChunkLease | undefined, owner: string, now: number, since?: number): ChunkDecision {
  if (lease === undefined) return 'claim';
  if (lease.state === 'done') return 'done';
  if (lease.state === 'gaps')
    return since !== undefined && Date.parse(lease.finished_at ?? lease.updated_at) < since ? 'retry-gaps' : 'done';
  if (lease.owner === owner) return 'renew-own';
  return Date.parse(lease.expires_at) <= now ? 'take-over' : 'busy';
}

/** Whether a worker may lease a chunk it decided on (as opposed to skipping it or waiting for it). */
export const claimable = (decision: ChunkDecision): boolean => decision !== 'busy' && decision !== 'done';

/**
 * The lease a worker writes when it claims, takes over or renews a chunk (pure). `gaps`, when
 * given, replaces the recorded gaps (the holder's own bookkeeping); otherwise they are kept.
 */
export function leaseFor(
  previous: ChunkLease | undefined,
  chunk: LedgerRange & { source: string; chunk?: number },
  owner: string,
  now: number,
  leaseMs: number,
  progress?: number,
  gaps?: readonly ChunkGap[],
): ChunkLease {
  const at = new Date(now).toISOString();
  const size = previous?.chunk ?? chunk.chunk;
  const kept = gaps ?? previous?.gaps ?? [];
  return {
    kind: 'chunk',
    source: chunk.source,
    from: chunk.from,
    to: chunk.to,
    ...(size === undefined ? {} : { chunk: size }),
    state: 'leased',
    owner,
    expires_at: new Date(now + leaseMs).toISOString(),
    progress: Math.max(progress ?? chunk.from - 1, previous?.progress ?? chunk.from - 1),
    ...(kept.length === 0 ? {} : { gaps: kept.map((g) => ({ ...g })) }),
    // Taking a chunk from another worker's lease is a takeover; fetching the gaps another left is not.
    takeovers: (previous?.takeovers ?? 0) + (previous?.state === 'leased' && previous.owner !== owner ? 1 : 0),
    started_at: previous?.started_at ?? at,
    updated_at: at,
  };
}

/** A held lease handed back before its expiry (a failed or stopped worker): free to take now, its progress and gaps kept. */
export function releasedLease(lease: ChunkLease, now: number, progress: number, gaps: readonly ChunkGap[]): ChunkLease {
  const at = new Date(now).toISOString();
  const { gaps: _previous, ...rest } = lease;
  return {
    ...rest,
    progress: Math.max(lease.progress, progress),
    ...(gaps.length === 0 ? {} : { gaps: gaps.map((g) => ({ ...g })) }),
    expires_at: at,
    updated_at: at,
  };
}

/** A held lease finished: done, or done with gaps when some ledgers could not be fetched. */
export function finishedLease(lease: ChunkLease, now: number, gaps: readonly ChunkGap[]): ChunkLease {
  const at = new Date(now).toISOString();
  const { gaps: _previous, ...rest } = lease;
  return {
    ...rest,
    state: gaps.length === 0 ? 'done' : 'gaps',
    progress: lease.to,
    ...(gaps.length === 0 ? {} : { gaps: gaps.map((g) => ({ ...g })) }),
    finished_at: at,
    updated_at: at,
  };
}

// Gap bookkeeping: sorted, disjoint inclusive ranges of ledgers, each with the source's last answer.

/** Gaps with one more ledger that could not be fetched (merged with a neighbour; its reason is the newest). */
export function withGap(gaps: readonly ChunkGap[], ledger: number, reason: string): ChunkGap[] {
  const all = [...withoutLedgers(gaps, [ledger]), { from: ledger, to: ledger, reason }].sort((a, b) => a.from - b.from);
  const merged: ChunkGap[] = [];
  for (const gap of all) {
    const last = merged[merged.length - 1];
    if (last !== undefined && gap.from <= last.to + 1) {
      if (gap.to >= last.to) last.to = gap.to;
      if (gap.from === ledger) last.reason = reason;
    } else merged.push({ ...gap });
  }
  return merged;
}

/** Gaps without some ledgers (those fetched and written since). */
export function withoutLedgers(gaps: readonly ChunkGap[], ledgers: readonly number[]): ChunkGap[] {
  let out = gaps.map((g) => ({ ...g }));
  for (const ledger of ledgers)
    out = out.flatMap((g) =>
      ledger < g.from || ledger > g.to
        ? [g]
        : [
            ...(ledger > g.from ? [{ ...g, to: ledger - 1 }] : []),
            ...(ledger < g.to ? [{ ...g, from: ledger + 1 }] : []),
          ],
    );
  return out;
}

/** The part of gaps at or below `progress` (a lease records no gap ahead of its progress). */
export function gapsUpTo(gaps: readonly ChunkGap[], progress: number): ChunkGap[] {
  return gaps.flatMap((g) => (g.from > progress ? [] : [{ ...g, to: Math.min(g.to, progress) }]));
}

/** How many ledgers gaps hold. */
export const gapLedgers = (gaps: readonly ChunkGap[] | undefined): number =>
  (gaps ?? []).reduce((n, g) => n + g.to - g.from + 1, 0);

/** What a holder of a lease has to fetch, in order: the recorded gaps, then what follows its progress. */
export function rangesToWork(lease: ChunkLease): LedgerRange[] {
  return [
    ...(lease.gaps ?? []).map((g) => ({ from: g.from, to: g.to })),
    ...(lease.progress < lease.to ? [{ from: lease.progress + 1, to: lease.to }] : []),
  ];
}

// Which chunk a worker takes next.

/**
 * The order in which worker `slot` of `slots` looks at a plan's chunks: the plan rotated so each
 * worker starts at its own share (slot × chunks / slots), so that K workers start in K different
 * stretches of the range, and so in different range indices when the range spans several.
 */
export function chunkOrder(chunks: readonly LedgerRange[], slot: number, slots: number): LedgerRange[] {
  if (chunks.length === 0 || slots <= 1) return [...chunks];
  const offset = Math.floor((((slot % slots) + slots) % slots) * (chunks.length / slots));
  return [...chunks.slice(offset), ...chunks.slice(0, offset)];
}

/** The range indices (by first ledger / rangeLedgers) a chunk writes. */
function rangesOfChunk(chunk: LedgerRange, rangeLedgers: number): number[] {
  const out: number[] = [];
  for (let r = Math.floor(chunk.from / rangeLedgers); r <= Math.floor(chunk.to / rangeLedgers); r += 1) out.push(r);
  return out;
}

export interface ChunkChoice {
  /** The chunk to lease next, with what the worker decided about it; none when nothing is free. */
  next?: { chunk: LedgerRange; decision: ChunkDecision };
  /** Whether any chunk is still to do (false: the plan is finished for this run). */
  open: boolean;
}

/**
 * The chunk a worker leases next (pure): the first free one in its order (see `chunkOrder`) whose
 * range index no other worker's live lease is writing, else the first free one. Concurrent
 * workers thus write the primaries of different range indices while there are several to write.
 */
export function chooseChunk(
  ordered: readonly LedgerRange[],
  leases: ReadonlyMap<string, ChunkLease>,
  source: string,
  owner: string,
  now: number,
  since: number,
  rangeLedgers: number,
): ChunkChoice {
  const written = new Set<number>();
  for (const lease of leases.values())
    if (lease.state === 'leased' && lease.owner !== owner && Date.parse(lease.expires_at) > now)
      for (const r of rangesOfChunk(lease, rangeLedgers)) written.add(r);
  let open = false;
  let first: ChunkChoice['next'];
  for (const chunk of ordered) {
    const decision = decide(leases.get(chunkId(source, chunk)), owner, now, since);
    if (decision === 'done') continue;
    open = true;
    if (!claimable(decision)) continue;
    if (!rangesOfChunk(chunk, rangeLedgers).some((r) => written.has(r))) return { next: { chunk, decision }, open };
    first ??= { chunk, decision };
  }
  return first === undefined ? { open } : { next: first, open };
}

// Plans: which chunk documents belong to a plan, and how far a plan is.

/** How many chunks a plan is cut into (without listing them). */
export const plannedChunkCount = (plan: BackfillPlan['plans'][number]): number =>
  Math.floor(plan.to / plan.chunk) - Math.floor(plan.from / plan.chunk) + 1;

/** Whether a chunk (by its bounds) is one of a plan's chunks (see `chunksOf`). */
export function isChunkOf(plan: BackfillPlan['plans'][number], chunk: LedgerRange): boolean {
  const bucket = Math.floor(chunk.from / plan.chunk);
  return (
    chunk.from >= plan.from &&
    chunk.to <= plan.to &&
    bucket === Math.floor(chunk.to / plan.chunk) &&
    (chunk.from === plan.from || chunk.from === bucket * plan.chunk) &&
    (chunk.to === plan.to || chunk.to === (bucket + 1) * plan.chunk - 1)
  );
}

/** A plan's first and last chunks (clipped to its range: the only ones not aligned on the chunk size). */
export function endChunks(plan: BackfillPlan['plans'][number]): LedgerRange[] {
  const first = { from: plan.from, to: Math.min(plan.to, (Math.floor(plan.from / plan.chunk) + 1) * plan.chunk - 1) };
  const last = { from: Math.max(plan.from, Math.floor(plan.to / plan.chunk) * plan.chunk), to: plan.to };
  return first.from === last.from ? [first] : [first, last];
}

/** A plan's chunks by state: done, done with gaps, leased (live lease), expired (waiting for a takeover), pending (never leased). */
export interface ChunkCounts {
  chunks: number;
  done: number;
  gaps: number;
  leased: number;
  expired: number;
  pending: number;
}

export interface PlanSummary extends ChunkCounts {
  /** `from-to`, the name `backfill --cancel` takes. */
  name: string;
  from: number;
  to: number;
  chunk: number;
  /** Ledgers left unfetched in chunks done with gaps. */
  gap_ledgers: number;
  /** Leased and expired chunks, with owner and progress (the first ones). */
  active: { from: number; to: number; owner: string; progress: number; expires_at: string; expired: boolean }[];
  /** Chunks with gaps, and their gaps (the first ones). */
  gapped: { from: number; to: number; state: ChunkLease['state']; gaps: ChunkGap[] }[];
}

/**
 * A plan's summary from counts of its chunk documents (by state, and the leased ones already
 * expired) and some of its unfinished chunks (pure): pending is the planned count minus the
 * documents found, so a plan of any size costs one query.
 */
export function summarizePlan(
  plan: BackfillPlan['plans'][number],
  counts: { done: number; gaps: number; leased: number; expired: number; gapLedgers: number },
  unfinished: readonly ChunkLease[],
  now: number,
): PlanSummary {
  const chunks = plannedChunkCount(plan);
  const live = counts.leased - counts.expired;
  return {
    name: planName(plan),
    from: plan.from,
    to: plan.to,
    chunk: plan.chunk,
    chunks,
    done: counts.done,
    gaps: counts.gaps,
    leased: live,
    expired: counts.expired,
    pending: Math.max(0, chunks - counts.done - counts.gaps - counts.leased),
    gap_ledgers: counts.gapLedgers,
    active: unfinished
      .filter((l) => l.state === 'leased')
      .map((l) => ({
        from: l.from,
        to: l.to,
        owner: l.owner,
        progress: l.progress,
        expires_at: l.expires_at,
        expired: Date.parse(l.expires_at) <= now,
      })),
    gapped: unfinished
      .filter((l) => (l.gaps ?? []).length > 0)
      .map((l) => ({ from: l.from, to: l.to, state: l.state, gaps: l.gaps ?? [] })),
  };
}

/** Counts over several plans (a chunk shared by two overlapping plans counts in each). */
export function totalOf(plans: readonly ChunkCounts[]): ChunkCounts {
  const total: ChunkCounts = { chunks: 0, done: 0, gaps: 0, leased: 0, expired: 0, pending: 0 };
  for (const p of plans) for (const key of Object.keys(total) as (keyof ChunkCounts)[]) total[key] += p[key];
  return total;
}
