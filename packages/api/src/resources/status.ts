import type { Json } from '@xle/documents';
import { RIPPLE_EPOCH_OFFSET } from '@xle/documents';
import type { Config } from '@xle/core';
import { coverageOf, readJobRun } from '../data-set-gate.js';
import type { Engine } from '../engine.js';
import { buildLatestSnapshotQuery } from '../queries/data-sets.js';
import { buildLedgerSlicesQuery, buildLedgerStatsQuery, buildWorkersQuery } from '../queries/status.js';
import { latestLedgers } from './ledgers.js';

export interface LedgerSpan {
  from: number;
  to: number;
}

/** What the ledgers index holds: its ranges and the gaps between them. */
export interface LedgerCoverage {
  first: number | null;
  last: number | null;
  indexed: number;
  missing: number;
  ranges: LedgerSpan[];
  gaps: LedgerSpan[];
  /** Spans the walk did not resolve within its budget, with how many of their ledgers are indexed. */
  unresolved: (LedgerSpan & { indexed: number })[];
}

/** Buckets per histogram request (the engine allows far more; a thousand keeps each answer small). */
const SLICES = 1000;
/** Histogram requests one report may make: about two per separate region partly indexed. */
const QUERY_BUDGET = 100;
/** Ranges and gaps listed (counts stay exact beyond it). */
export const SPANS_LISTED = 1000;

/** Adds [from, to] to `spans`, merged with the last one when they touch (spans arrive in order). */
function append(spans: LedgerSpan[], from: number, to: number): void {
  const last = spans[spans.length - 1];
  if (last !== undefined && last.to + 1 >= from) last.to = Math.max(last.to, to);
  else spans.push({ from, to });
}

/**
 * Which ledgers between the first and the last indexed one are indexed, from the index itself
 * (not from the ingester's own records): one ledger is one document (its index is its id), so a
 * slice of the histogram holding as many documents as ledgers is whole, one holding none is a
 * gap, and one partly indexed is looked at again in finer slices, down to single ledgers. The
 * walk makes at most QUERY_BUDGET requests; a partly indexed slice left when they are spent is
 * reported as unresolved, with how many of its ledgers are indexed.
 */
export async function ledgerCoverage(engine: Engine): Promise<LedgerCoverage> {
  const stats = await engine.search('ledgers', buildLedgerStatsQuery());
  const aggs = stats.aggregations as Record<string, { value: number | null }> | undefined;
  const first = aggs?.first?.value ?? null;
  const last = aggs?.last?.value ?? null;
  const indexed = aggs?.count?.value ?? 0;
  const coverage: LedgerCoverage = { first, last, indexed, missing: 0, ranges: [], gaps: [], unresolved: [] };
  if (first === null || last === null) return coverage;
  if (indexed === last - first + 1) {
    coverage.ranges.push({ from: first, to: last });
    return coverage;
  }
  let budget = QUERY_BUDGET;
  // Depth first, in ledger order, so ranges and gaps are appended in order.
  const walk = async (from: number, to: number): Promise<void> => {
    budget -= 1;
    const interval = Math.max(1, Math.ceil((to - from + 1) / SLICES));
    const answer = await engine.search('ledgers', buildLedgerSlicesQuery(from, to, interval));
    const buckets = (answer.aggregations?.slices as { buckets: { key: number; doc_count: number }[] } | undefined)
      ?.buckets;
    for (const bucket of buckets ?? []) {
      const start = Math.max(from, bucket.key);
      const end = Math.min(to, bucket.key + interval - 1);
      if (start > end) continue;
      // A ledger counted twice (never expected: its index is its id) still only makes its slice whole.
      if (bucket.doc_count >= end - start + 1) append(coverage.ranges, start, end);
      else if (bucket.doc_count === 0) append(coverage.gaps, start, end);
      else if (budget > 0) await walk(start, end);
      else coverage.unresolved.push({ from: start, to: end, indexed: bucket.doc_count });
    }
  };
  await walk(first, last);
  coverage.missing =
    coverage.gaps.reduce((n, g) => n + g.to - g.from + 1, 0) +
    coverage.unresolved.reduce((n, u) => n + u.to - u.from + 1 - u.indexed, 0);
  return coverage;
}

const ageSeconds = (iso: string | undefined, now: number): number | null =>
  iso === undefined || Number.isNaN(Date.parse(iso)) ? null : Math.max(0, Math.round((now - Date.parse(iso)) / 1000));

/** The newest validated ledger seen: the live follower's stream or a network snapshot, whichever is newer. */
async function newestValidated(
  engine: Engine,
  workers: Json[],
): Promise<{ ledger_index: number; seen_at: string; source: string } | null> {
  const seen: { ledger_index: number; seen_at: string; source: string }[] = [];
  for (const w of workers)
    if (typeof w.validated_ledger === 'number' && w.validated_ledger > 0)
      seen.push({
        ledger_index: w.validated_ledger,
        seen_at: String(w.heartbeat_at),
        source: `live follower ${String(w.owner)}`,
      });
  const snapshot = (await engine.search<Json>('network', buildLatestSnapshotQuery('server_info'))).hits.hits[0]
    ?._source;
  if (snapshot !== undefined && typeof snapshot.ledger_index === 'number')
    seen.push({
      ledger_index: snapshot.ledger_index,
      seen_at: String(snapshot.taken_at),
      source: `server_info of ${String(snapshot.server)}`,
    });
  return seen.sort((a, b) => b.ledger_index - a.ledger_index)[0] ?? null;
}

/** One network's completeness report. */
export async function networkStatus(
  engine: Engine,
  network: Config['network'],
  jobs: readonly string[],
  now: number,
): Promise<Json> {
  const [coverage, latest, workerHits, runs] = await Promise.all([
    engine.remember('status:coverage', 5_000, () => ledgerCoverage(engine)),
    latestLedgers(engine).then((l) => (l.ledgers as Json[])[0] ?? null),
    engine.search<Json>('ingest-state', buildWorkersQuery()),
    Promise.all(
      jobs.map(async (job) => {
        const run = await readJobRun(engine, job);
        return [job, run, run === undefined ? undefined : await coverageOf(engine, run)] as const;
      }),
    ),
  ]);
  const workers = workerHits.hits.hits.flatMap((h) => (h._source === undefined ? [] : [h._source]));
  const validated = await newestValidated(engine, workers);
  const newestIndex = typeof latest?.ledger_index === 'number' ? latest.ledger_index : null;
  return {
    network,
    ledgers: {
      ...coverage,
      complete: coverage.first !== null && coverage.missing === 0,
      ranges: coverage.ranges.slice(0, SPANS_LISTED),
      gaps: coverage.gaps.slice(0, SPANS_LISTED),
      ranges_count: coverage.ranges.length,
      gaps_count: coverage.gaps.length,
    },
    newest:
      latest === null
        ? null
        : {
            ledger_index: latest.ledger_index,
            close_time_human: latest.close_time_human ?? null,
            age_seconds: Math.max(0, Math.round(now / 1000 - (Number(latest.close_time) + RIPPLE_EPOCH_OFFSET))),
          },
    validated:
      validated === null
        ? null
        : {
            ...validated,
            lag_ledgers: newestIndex === null ? null : Math.max(0, validated.ledger_index - newestIndex),
          },
    data_sets: runs.map(([job, run, covers]) => ({
      name: job,
      computed: run !== undefined,
      as_of_ledger: run?.ledger_index ?? null,
      computed_at: run?.updated_at ?? null,
      age_seconds: ageSeconds(run?.updated_at, now),
      // Computed from the ledgers: whether ledgers indexed since its run (newer or older) are left out.
      behind: covers?.behind ?? null,
      unread_ledgers: covers?.unread_ledgers ?? null,
      unread_ranges: covers?.unread_ranges ?? null,
      state_changed: covers?.state_changed ?? null,
    })),
    workers: workers.map((w) => ({
      owner: String(w.owner),
      source: String(w.source),
      state: String(w.state),
      heartbeat_at: String(w.heartbeat_at),
      heartbeat_age_seconds: ageSeconds(String(w.heartbeat_at), now),
      progress: typeof w.progress === 'number' ? w.progress : null,
      validated_ledger: typeof w.validated_ledger === 'number' ? w.validated_ledger : null,
    })),
  };
}

/**
 * GET /status: the completeness report of every network indexed under this prefix (this
 * address's network first): indexed ranges and gaps, the newest ledger and the lag behind the
 * newest validated one seen, each data set's as-of ledger and age, and the ingest workers' last
 * heartbeats.
 */
export async function statusReport(
  engine: Engine,
  networks: readonly Config['network'][],
  jobs: readonly string[],
  now = Date.now(),
): Promise<Json> {
  const reports: Json[] = [];
  for (const network of [engine.network, ...networks.filter((n) => n !== engine.network)]) {
    const scoped = engine.forNetwork(network);
    if (network !== engine.network && !(await scoped.exists('ledgers'))) continue;
    reports.push(await networkStatus(scoped, network, jobs, now));
  }
  return { network: engine.network, generated_at: new Date(now).toISOString(), networks: reports };
}
