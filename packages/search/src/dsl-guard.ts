import { BadRequestError, ErrorCode } from '@xle/core';
import { isRecord } from '@xle/documents';

/** Caps on what one search body may ask of the engine. */
export interface SearchLimits {
  /** Hits per request. */
  maxSize: number;
  /** `from + size`: deeper pages go through `search_after`. */
  maxWindow: number;
  /** `size` of any bucketing or top-hits aggregation. */
  maxBuckets: number;
  /** Aggregations nested inside aggregations. */
  maxAggDepth: number;
  /** Aggregations in the whole body. */
  maxAggCount: number;
  /** JSON nesting depth of the whole body (bounds query nesting). */
  maxDepth: number;
  /** Longest point-in-time keep-alive, in seconds. */
  maxKeepAliveSeconds: number;
}

export const DEFAULT_LIMITS: SearchLimits = {
  maxSize: 1000,
  maxWindow: 10_000,
  maxBuckets: 1000,
  maxAggDepth: 3,
  maxAggCount: 25,
  maxDepth: 24,
  maxKeepAliveSeconds: 300,
};

/** Top-level keys a body may use; anything else is refused, so new engine features stay off until reviewed. */
const TOP_LEVEL = new Set([
  'query',
  'sort',
  'size',
  'from',
  'search_after',
  'pit',
  'aggs',
  'aggregations',
  '_source',
  'track_total_hits',
  'fields',
  'docvalue_fields',
  'highlight',
  'post_filter',
  'min_score',
  'collapse',
  'track_scores',
  'terminate_after',
]);

/** Top-level keys refused with a reason of their own. */
const FORBIDDEN_TOP_LEVEL: Record<string, string> = {
  script_fields: 'scripts are not allowed',
  runtime_mappings: 'runtime mappings run scripts and are not allowed',
  indices_boost: 'other indices are not searchable here',
  profile: 'profiling exposes engine internals',
  stored_fields: 'stored fields are not exposed; use _source or fields',
  rescore: 'rescoring is not allowed',
  knn: 'vector search is not available',
  retriever: 'retrievers are not allowed',
  slice: 'sliced scrolls are not allowed',
  stats: 'search statistics groups are not allowed',
  ext: 'search extensions are not allowed',
  timeout: 'the server sets the timeout',
};

/** Keys refused anywhere in the body. */
const FORBIDDEN_ANYWHERE: Record<string, string> = {
  percolate: 'percolate queries read other indices',
  indexed_shape: 'indexed shapes read other indices',
  _index: 'references to other indices are not allowed',
  more_like_this: 'more_like_this can read other indices',
  runtime_mappings: 'runtime mappings run scripts and are not allowed',
  wrapper: 'wrapper queries hide their content from these checks',
};

/** Any key naming a script (script, script_score, scripted_metric, bucket_script, ..._script). */
const SCRIPT_KEY = /script/i;

/** Aggregation types whose `size` is a bucket or hit count. */
const SIZED_AGGS = new Set([
  'terms',
  'multi_terms',
  'composite',
  'significant_terms',
  'significant_text',
  'top_hits',
  'top_metrics',
  'rare_terms',
  'categorize_text',
]);

const forbidden = (path: string, reason: string): BadRequestError =>
  new BadRequestError(`Not allowed at ${path}: ${reason}.`, { path }, ErrorCode.ForbiddenQuery);
const tooLarge = (path: string, message: string): BadRequestError =>
  new BadRequestError(`${message} (at ${path}).`, { path }, ErrorCode.QueryLimitExceeded);
const invalid = (path: string, message: string): BadRequestError =>
  new BadRequestError(`${message} (at ${path}).`, { path }, ErrorCode.InvalidQuery);

function nonNegativeInt(body: Record<string, unknown>, key: string, path: string): number {
  const value = body[key];
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw invalid(`${path}${key}`, `"${key}" must be a non-negative integer`);
  return value;
}

/** Keys anywhere, depth, script and cross-index references. */
function walk(node: unknown, path: string, depth: number, limits: SearchLimits): void {
  if (depth > limits.maxDepth) throw tooLarge(path, `The body is nested deeper than ${limits.maxDepth} levels`);
  if (Array.isArray(node)) {
    node.forEach((item, i) => walk(item, `${path}[${i}]`, depth + 1, limits));
    return;
  }
  if (!isRecord(node)) return;
  for (const [key, value] of Object.entries(node)) {
    const at = `${path}.${key}`;
    if (SCRIPT_KEY.test(key)) throw forbidden(at, 'scripts are not allowed');
    const reason = FORBIDDEN_ANYWHERE[key];
    if (reason !== undefined) throw forbidden(at, reason);
    // A terms lookup ({"terms": {"field": {"index", "id", "path"}}}) reads a document of another index.
    if (key === 'terms' && isRecord(value)) {
      for (const [field, terms] of Object.entries(value)) {
        if (isRecord(terms) && ('index' in terms || 'id' in terms || 'path' in terms))
          throw forbidden(`${at}.${field}`, 'terms lookups read other indices');
      }
    }
    walk(value, at, depth + 1, limits);
  }
}

/** Aggregation count, nesting and bucket sizes. */
function checkAggs(aggs: unknown, path: string, depth: number, limits: SearchLimits, count: { n: number }): void {
  if (!isRecord(aggs)) throw invalid(path, 'Aggregations must be an object of named aggregations');
  if (depth > limits.maxAggDepth)
    throw tooLarge(path, `Aggregations are nested deeper than ${limits.maxAggDepth} levels`);
  for (const [name, agg] of Object.entries(aggs)) {
    const at = `${path}.${name}`;
    if (!isRecord(agg)) throw invalid(at, 'An aggregation must be an object');
    count.n += 1;
    if (count.n > limits.maxAggCount) throw tooLarge(at, `More than ${limits.maxAggCount} aggregations`);
    for (const [type, spec] of Object.entries(agg)) {
      if (type === 'aggs' || type === 'aggregations') {
        checkAggs(spec, `${at}.${type}`, depth + 1, limits, count);
        continue;
      }
      if (!SIZED_AGGS.has(type) || !isRecord(spec)) continue;
      for (const key of ['size', 'shard_size', 'max_doc_count']) {
        const value = spec[key];
        const cap = key === 'shard_size' ? limits.maxBuckets * 5 : limits.maxBuckets;
        if (value !== undefined && (typeof value !== 'number' || value > cap))
          throw tooLarge(`${at}.${type}.${key}`, `"${key}" may be at most ${cap}`);
      }
    }
  }
}

/** `1m`, `30s`, ... as seconds; undefined when not an engine time value. */
function keepAliveSeconds(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^(\d{1,7})(ms|s|m|h|d)$/.exec(value);
  if (match === null) return undefined;
  const unit = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 }[match[2] as 'ms' | 's' | 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
}

/**
 * Checks a search body against the guard rails and returns it unchanged; throws a 400 naming the
 * offending path otherwise (pure).
 */
export function checkSearchBody(body: unknown, limits: SearchLimits = DEFAULT_LIMITS): Record<string, unknown> {
  if (!isRecord(body)) throw invalid('$', 'The body must be a JSON object');
  for (const key of Object.keys(body)) {
    const reason = FORBIDDEN_TOP_LEVEL[key];
    if (reason !== undefined) throw forbidden(`$.${key}`, reason);
    if (SCRIPT_KEY.test(key)) throw forbidden(`$.${key}`, 'scripts are not allowed');
    if (!TOP_LEVEL.has(key)) throw invalid(`$.${key}`, `Unknown or unsupported key "${key}"`);
  }
  walk(body, '$', 0, limits);
  const size = body.size === undefined ? 10 : nonNegativeInt(body, 'size', '$.');
  const from = nonNegativeInt(body, 'from', '$.');
  if (size > limits.maxSize) throw tooLarge('$.size', `"size" may be at most ${limits.maxSize}`);
  if (from + size > limits.maxWindow)
    throw tooLarge('$.from', `"from" + "size" may be at most ${limits.maxWindow}; page deeper with search_after`);
  if (body.terminate_after !== undefined) nonNegativeInt(body, 'terminate_after', '$.');
  const count = { n: 0 };
  for (const key of ['aggs', 'aggregations'] as const) {
    if (body[key] !== undefined) checkAggs(body[key], `$.${key}`, 1, limits, count);
  }
  if (body.pit !== undefined) {
    const pit = body.pit;
    if (!isRecord(pit) || typeof pit.id !== 'string') throw invalid('$.pit', '"pit" must be {"id", "keep_alive"}');
    for (const key of Object.keys(pit)) {
      if (key !== 'id' && key !== 'keep_alive') throw invalid(`$.pit.${key}`, `Unknown key "${key}" in "pit"`);
    }
    if (pit.keep_alive !== undefined) {
      const seconds = keepAliveSeconds(pit.keep_alive);
      if (seconds === undefined) throw invalid('$.pit.keep_alive', '"keep_alive" must be a time value such as 1m');
      if (seconds > limits.maxKeepAliveSeconds)
        throw tooLarge('$.pit.keep_alive', `"keep_alive" may be at most ${limits.maxKeepAliveSeconds}s`);
    }
  }
  return body;
}
