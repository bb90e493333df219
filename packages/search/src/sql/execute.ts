import type { estypes } from '@elastic/elasticsearch';
import { totalHits, type BucketPage, type CompositePage } from '@xle/core';
import type { SearchEngine } from '../engine.js';
import { NUMERIC } from './schema.js';
import { evaluateCondition } from './having.js';
import { evaluate, pathsOf } from './expressions.js';
import { ErrorCode } from '@xle/core';
import { sqlError } from './parse.js';
import { MAX_IN_MEMORY_ORDER, type GroupsPlan, type OrderKey, type Plan, type Ref, type RowsPlan } from './plan.js';

export type Row = unknown[];

/** Where a result stands after a page: enough to carry on from a cursor. */
export interface RunState {
  /** Point in time of a row scan, kept open between cursor pages. */
  pit?: string;
  /** `search_after` of a row scan, or `after_key` of a composite aggregation. */
  after?: unknown;
  /** Rows produced so far (after OFFSET). */
  emitted: number;
  /** Rows skipped so far for OFFSET. */
  skipped: number;
  /** True once the engine has nothing more. */
  done: boolean;
  /**
   * ORDER BY an aggregate under a cursor: the sorted rows not yet sent (every group is read and
   * sorted on the first page, at most MAX_IN_MEMORY_ORDER of them; the next pages are these).
   */
  pending?: Row[];
  /** GROUP BY CASE: the branch being read (its composite's `after` is `after`). */
  branch?: number;
}

/** What an SQL cursor carries between pages (kept in the engine, see CursorStore). */
export interface SqlCursor {
  sql: string;
  /** The instant NOW() stood for on the first page: every page reads the same rows. */
  now: number;
  state: RunState;
  fetchSize: number;
  carry?: unknown;
}

/** How long a point in time lives between two pages of a row scan (also a cursor's lifetime). */
export const PAGE_KEEP_ALIVE = '90s';

export const initialState = (): RunState => ({ emitted: 0, skipped: 0, done: false });

/** Reads a dotted path in a source document; arrays along the way contribute every value (pure). */
export function readPath(source: unknown, path: string): unknown {
  const values: unknown[] = [];
  const walk = (node: unknown, parts: string[]): void => {
    if (node === undefined || node === null) return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item, parts);
      return;
    }
    if (parts.length === 0) {
      values.push(node);
      return;
    }
    if (typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    // A field may also be stored under a dotted key (`{"a.b": 1}`), as the engine allows.
    for (let i = parts.length; i >= 1; i -= 1) {
      const key = parts.slice(0, i).join('.');
      if (key in record) {
        walk(record[key], parts.slice(i));
        return;
      }
    }
  };
  walk(source, path.split('.'));
  if (values.length === 0) return null;
  return values.length === 1 ? values[0] : values;
}

/** A source value as the column's type shows it: numbers as numbers, dates as ISO 8601 (pure). */
export function coerce(value: unknown, esType: string): unknown {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map((v) => coerce(v, esType));
  if (NUMERIC.has(esType) && typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : value;
  }
  if ((esType === 'date' || esType === 'date_nanos') && (typeof value === 'string' || typeof value === 'number')) {
    const d = new Date(value);
    return Number.isNaN(d.getTime()) ? value : d.toISOString();
  }
  if (esType === 'boolean' && typeof value === 'string') return value === 'true';
  return value;
}

function sourceOf(plan: RowsPlan): string[] | false {
  const paths = [...new Set(plan.values.flatMap((v) => [...pathsOf(v)]))];
  return paths.length === 0 ? false : paths;
}

export function rowOf(plan: RowsPlan, source: unknown): Row {
  const read = (path: string, type: string): unknown => coerce(readPath(source, path), type);
  return plan.values.map((value) => ('col' in value ? read(value.col, value.type) : evaluate(value, read)));
}

export interface RunOptions {
  pageSize: number;
  state?: RunState;
  signal?: AbortSignal;
  /** Request the next page while the current one is written (streamed exports, not cursor pages). */
  prefetch?: boolean;
}

/** One page of rows and the state after it. */
export interface Batch {
  rows: Row[];
  state: RunState;
}

/**
 * Runs a plan page by page. Each call to the iterator sends one engine request; a consumer that
 * stops early (a closed connection, a full cursor page) calls `return()`, which aborts the engine
 * request under way. The point in time is closed at the end unless the caller keeps it for a cursor.
 */
export async function* runPlan(
  engine: SearchEngine,
  plan: Plan,
  options: RunOptions,
): AsyncGenerator<Batch, void, undefined> {
  if (plan.kind === 'values') {
    const state = options.state ?? initialState();
    if (state.done) return;
    state.done = true;
    state.emitted = plan.rows.length;
    yield { rows: plan.rows, state };
  } else if (plan.kind === 'rows') yield* runRows(engine, plan, options);
  else if (plan.sources.length === 0 && plan.split === undefined) yield* runGlobal(engine, plan, options);
  else if (plan.order !== undefined) yield* runOrderedGroups(engine, plan, options);
  else yield* runGroups(engine, plan, options);
}

const wanted = (plan: RowsPlan | GroupsPlan, state: RunState): number =>
  plan.limit === undefined ? Number.POSITIVE_INFINITY : plan.limit - state.emitted;

/** Applies OFFSET and LIMIT to one page (pure but for the state it advances). */
function take(plan: RowsPlan | GroupsPlan, state: RunState, rows: Row[]): Row[] {
  let from = 0;
  if (state.skipped < plan.offset) {
    from = Math.min(rows.length, plan.offset - state.skipped);
    state.skipped += from;
  }
  const out = rows.slice(from, from + Math.max(0, wanted(plan, state)));
  state.emitted += out.length;
  return out;
}

async function* runRows(engine: SearchEngine, plan: RowsPlan, options: RunOptions): AsyncGenerator<Batch> {
  const state = options.state ?? initialState();
  if (state.done) return;
  // Hits still wanted: what LIMIT leaves, and what OFFSET still skips.
  const limit =
    plan.limit === undefined ? undefined : plan.limit - state.emitted + Math.max(0, plan.offset - state.skipped);
  // The walk reads the table's point in time (opened by the first page, kept for the cursor's next
  // pages and closed by the cursor's owner); with `prefetch`, the next page is on its way while
  // this one is shaped and written. A consumer that stops early aborts the page under way.
  const pages = engine.hits(
    {
      query: plan.query,
      sort: [...plan.sort, { _shard_doc: { order: 'asc' } }],
      // Only the fields the columns read (none for literals alone: an empty list would mean all).
      _source: sourceOf(plan),
    },
    {
      pit:
        state.pit === undefined
          ? { index: await engine.target(plan.table, { query: plan.query }), keepAlive: PAGE_KEEP_ALIVE }
          : { id: state.pit, keepAlive: PAGE_KEEP_ALIVE },
      keepPit: true,
      after: state.after as estypes.SortResults | undefined,
      pageSize: options.pageSize,
      ...(limit === undefined ? {} : { limit }),
      ...(options.prefetch === undefined ? {} : { prefetch: options.prefetch }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    },
  );
  for await (const page of pages) {
    if (page.pitId !== undefined) state.pit = page.pitId;
    if (page.after !== undefined) state.after = page.after;
    const rows = take(
      plan,
      state,
      page.hits.map((h) => rowOf(plan, h._source)),
    );
    if (page.last || wanted(plan, state) <= 0) state.done = true;
    // A page OFFSET skipped whole is read on, never answered as an empty page with a cursor.
    if (rows.length === 0 && !state.done) continue;
    yield { rows, state };
    if (state.done) return;
  }
}

/** A grouped row's value: a group key, the bucket's document count, or a metric (pure). */
export function readBucket(
  ref: Ref,
  bucket: { key?: Record<string, unknown>; doc_count: number; [agg: string]: unknown },
  keyTypes: ReadonlyMap<string, string>,
): unknown {
  if ('count' in ref) return bucket.doc_count;
  if ('expr' in ref)
    return evaluate(ref.expr, (path) => readBucket(ref.refs[Number(path.slice(1))] as Ref, bucket, keyTypes));
  if ('key' in ref) {
    const value = bucket.key?.[ref.key] ?? null;
    const type = keyTypes.get(ref.key);
    if (type === 'datetime' && typeof value === 'number') return new Date(value).toISOString();
    // A key the engine formatted (YEAR(date): "2015") is the number it names.
    if ((type === 'integer' || type === 'long') && typeof value === 'string') return Number(value);
    return value;
  }
  if (ref.part !== undefined) {
    const metric = bucket[ref.metric] as { count?: number } | undefined;
    if (metric?.count === 0) return null;
    let value: unknown = metric;
    for (const step of ref.part.split('.')) value = (value as Record<string, unknown> | undefined)?.[step];
    return typeof value === 'number' ? value : null;
  }
  const agg = bucket[ref.metric] as { value?: number | null; value_as_string?: string } | undefined;
  const value = agg?.value ?? null;
  if (value !== null && agg?.value_as_string !== undefined && /^\d{4}-\d{2}-\d{2}T/.test(agg.value_as_string))
    return new Date(value).toISOString();
  return value;
}

function keyTypesOf(plan: GroupsPlan): Map<string, string> {
  const types = new Map<string, string>();
  plan.outputs.forEach((ref, i) => {
    if ('key' in ref) types.set(ref.key, plan.columns[i]?.type ?? 'keyword');
  });
  for (const source of plan.sources) {
    const [id, spec] = Object.entries(source)[0] as [string, Record<string, unknown>];
    if ('date_histogram' in spec && (spec.date_histogram as { format?: string }).format === undefined)
      types.set(id, 'datetime');
  }
  return types;
}

type Bucket = { key?: Record<string, unknown>; doc_count: number; [agg: string]: unknown };

function groupedRow(plan: GroupsPlan, bucket: Bucket, keyTypes: Map<string, string>): Row | undefined {
  const read = (ref: Ref): unknown => readBucket(ref, bucket, keyTypes);
  if (plan.having !== undefined && !evaluateCondition(plan.having, read)) return undefined;
  return plan.outputs.map(read);
}

async function* compositePages(
  engine: SearchEngine,
  plan: GroupsPlan,
  pageSize: number,
  state: RunState,
  signal?: AbortSignal,
): AsyncGenerator<Bucket[]> {
  if (state.done) return;
  const pages = engine.buckets(
    plan.table,
    { query: plan.query },
    (page) => ({
      groups: {
        composite: { ...page, sources: plan.sources },
        ...(Object.keys(plan.metrics).length > 0 ? { aggs: plan.metrics } : {}),
      },
    }),
    (aggregations) => aggregations.groups as CompositePage | undefined,
    {
      pageSize,
      after: state.after as BucketPage['after'],
      ...(signal === undefined ? {} : { signal }),
    },
  );
  for await (const page of pages) {
    if (page.after !== undefined) state.after = page.after;
    if (page.last) state.done = true;
    yield page.buckets as Bucket[];
  }
}

/**
 * The buckets of a grouped plan, page by page: its composite, or for GROUP BY CASE each branch in
 * turn (the branch's query beside the plan's, its value set as the CASE key of every bucket; a
 * branch without other keys is one bucket, left out when no row takes it). The state names the
 * branch and its composite's position, so a cursor resumes where the page ended.
 */
async function* groupPages(
  engine: SearchEngine,
  plan: GroupsPlan,
  pageSize: number,
  state: RunState,
  signal?: AbortSignal,
): AsyncGenerator<Bucket[]> {
  const split = plan.split;
  if (split === undefined) {
    yield* compositePages(engine, plan, pageSize, state, signal);
    return;
  }
  if (state.done) return;
  for (let at = state.branch ?? 0; at < split.branches.length; at += 1) {
    const branch = split.branches[at] as NonNullable<GroupsPlan['split']>['branches'][number];
    const query = { bool: { filter: [plan.query, branch.query] } };
    const valued = (bucket: Bucket): Bucket => ({
      ...bucket,
      key: { ...(bucket.key ?? {}), [split.key]: branch.value },
    });
    const last = at === split.branches.length - 1;
    const finish = (): void => {
      state.after = undefined;
      if (last) state.done = true;
      else state.branch = at + 1;
    };
    state.branch = at;
    if (plan.sources.length === 0) {
      const bucket = await wholeBucket(engine, plan, query, signal);
      finish();
      yield bucket.doc_count === 0 ? [] : [valued(bucket)];
      continue;
    }
    const inner: RunState = { ...initialState(), after: state.after };
    for await (const buckets of compositePages(engine, { ...plan, query }, pageSize, inner, signal)) {
      state.after = inner.after;
      if (inner.done) finish();
      yield buckets.map(valued);
    }
    if (!inner.done) finish();
  }
  state.done = true;
}

async function* runGroups(engine: SearchEngine, plan: GroupsPlan, options: RunOptions): AsyncGenerator<Batch> {
  const state = options.state ?? initialState();
  const keyTypes = keyTypesOf(plan);
  const pageSize = Math.min(options.pageSize, 10_000);
  for await (const buckets of groupPages(engine, plan, pageSize, state, options.signal)) {
    const rows: Row[] = [];
    for (const bucket of buckets) {
      const row = groupedRow(plan, bucket, keyTypes);
      if (row !== undefined) rows.push(row);
    }
    const taken = take(plan, state, rows);
    if (wanted(plan, state) <= 0) state.done = true;
    if (taken.length === 0 && !state.done) continue;
    yield { rows: taken, state };
    if (state.done) return;
  }
}

/** Compares two values for ORDER BY: nulls last, numbers and strings in their natural order (pure). */
export function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : 1;
}

/**
 * ORDER BY an aggregate: every bucket is read and sorted in memory, then sent a page at a time.
 * With LIMIT, only the best OFFSET + LIMIT rows (at most MAX_IN_MEMORY_ORDER) are kept however
 * many groups there are; without it, every group is kept, and more than MAX_IN_MEMORY_ORDER
 * groups is a 400 that says so (Elasticsearch SQL's own bound on sorting groups). A cursor's next
 * pages are the sorted rows the first one left (`state.pending`): every page is of one sort.
 */
async function* runOrderedGroups(engine: SearchEngine, plan: GroupsPlan, options: RunOptions): AsyncGenerator<Batch> {
  const state = options.state ?? initialState();
  if (state.done) return;
  const pageSize = Math.max(1, Math.min(options.pageSize, MAX_IN_MEMORY_ORDER));
  let pending = state.pending ?? (await sortedGroups(engine, plan, state, options.signal));
  do {
    const rows = pending.slice(0, pageSize);
    pending = pending.slice(pageSize);
    if (pending.length === 0) {
      state.done = true;
      delete state.pending;
    } else state.pending = pending;
    yield { rows, state };
  } while (!state.done);
}

/** Every group of a plan ordered by an aggregate, OFFSET and LIMIT applied. */
async function sortedGroups(
  engine: SearchEngine,
  plan: GroupsPlan,
  state: RunState,
  signal: AbortSignal | undefined,
): Promise<Row[]> {
  const keyTypes = keyTypesOf(plan);
  const keep = plan.limit === undefined ? Number.POSITIVE_INFINITY : plan.limit + plan.offset;
  const order = plan.order ?? [];
  const missing = (v: unknown): boolean => v === null || v === undefined;
  const compare = (a: { sortKey: unknown[] }, b: { sortKey: unknown[] }): number => {
    for (let i = 0; i < order.length; i += 1) {
      const key = order[i] as OrderKey;
      const x = a.sortKey[i];
      const y = b.sortKey[i];
      // NULLS FIRST / LAST, when written, place nulls whatever the direction.
      if (key.nulls !== undefined && missing(x) !== missing(y)) return missing(x) === (key.nulls === 'first') ? -1 : 1;
      const c = compareValues(x, y);
      if (c !== 0) return key.desc ? -c : c;
    }
    return 0;
  };
  let best: { row: Row; sortKey: unknown[] }[] = [];
  let groups = 0;
  const scan: RunState = initialState();
  for await (const buckets of groupPages(engine, plan, 1000, scan, signal)) {
    for (const bucket of buckets) {
      const row = groupedRow(plan, bucket, keyTypes);
      if (row === undefined) continue;
      groups += 1;
      if (plan.limit === undefined && groups > MAX_IN_MEMORY_ORDER)
        throw sqlError(
          ErrorCode.QueryLimitExceeded,
          `ORDER BY an aggregate sorts at most ${MAX_IN_MEMORY_ORDER} groups, and this GROUP BY has more: ` +
            `add LIMIT (with OFFSET, at most ${MAX_IN_MEMORY_ORDER} in all), or fewer groups through WHERE.`,
          'ORDER BY',
        );
      best.push({ row, sortKey: order.map((o) => readBucket(o.ref, bucket, keyTypes)) });
    }
    // Stable sort keeps the composite (group key) order among equal aggregates.
    if (best.length > keep * 2 + 1000) best = best.sort(compare).slice(0, keep);
  }
  best = best.sort(compare).slice(0, keep);
  return take(
    plan,
    state,
    best.map((b) => b.row),
  );
}

/** The plan's metrics over every row `query` matches, as one bucket (its document count included). */
async function wholeBucket(
  engine: SearchEngine,
  plan: GroupsPlan,
  query: estypes.QueryDslQueryContainer,
  signal: AbortSignal | undefined,
): Promise<Bucket> {
  const answer = await engine.search(
    plan.table,
    {
      query,
      size: 0,
      track_total_hits: true,
      ...(Object.keys(plan.metrics).length > 0 ? { aggs: plan.metrics } : {}),
    },
    signal,
  );
  return { doc_count: totalHits(answer.hits), ...(answer.aggregations ?? {}) };
}

/** Aggregates without GROUP BY: one row over the whole result. */
async function* runGlobal(engine: SearchEngine, plan: GroupsPlan, options: RunOptions): AsyncGenerator<Batch> {
  const state = options.state ?? initialState();
  if (state.done) return;
  const bucket = await wholeBucket(engine, plan, plan.query, options.signal);
  const row = groupedRow(plan, bucket, new Map());
  state.done = true;
  yield { rows: take(plan, state, row === undefined ? [] : [row]), state };
}
