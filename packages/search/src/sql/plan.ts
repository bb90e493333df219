// What a translated SQL statement is: the plan the executor runs (types and limits).
import type { estypes } from '@elastic/elasticsearch';
import type { IndexKind } from '@xle/core';

/** Tables the SQL API reads, and the index kind behind each. */
export const PUBLIC_TABLES: Readonly<Record<string, IndexKind>> = {
  transactions: 'transactions',
  ledgers: 'ledgers',
};

/** The largest LIMIT when rows must be ordered in memory (ORDER BY an aggregate). */
export const MAX_IN_MEMORY_ORDER = 10_000;

export interface Column {
  name: string;
  type: string;
}

/** A value a grouped row is made of: a group key, the bucket's count, or a metric aggregation. */
/**
 * What an output reads from a bucket: a group key, the bucket's document count, or a metric (`part`:
 * a field of a stats metric, which is NULL where the metric saw no value, as SQL's SUM over no rows).
 */
export type Ref = { key: string } | { count: true } | { metric: string; part?: 'sum' };

/** A HAVING condition, kept as data so that plans stay serialisable and testable. */
export type Condition =
  | { and: Condition[] }
  | { or: Condition[] }
  | { not: Condition }
  | { cmp: '=' | '!=' | '<' | '<=' | '>' | '>='; left: Operand; right: Operand }
  | { in: Operand; values: Operand[] }
  | { isNull: Operand; negate: boolean };

export type Operand = { ref: Ref } | { value: string | number | boolean | null };

export interface RowsPlan {
  kind: 'rows';
  table: IndexKind;
  columns: Column[];
  /** Source path of each column, and its engine type (values are coerced to it). */
  fields: { path: string; type: string }[];
  query: estypes.QueryDslQueryContainer;
  sort: estypes.SortCombinations[];
  limit?: number;
  offset: number;
}

export interface GroupsPlan {
  kind: 'groups';
  table: IndexKind;
  columns: Column[];
  query: estypes.QueryDslQueryContainer;
  /** Composite sources in GROUP BY order; empty for an aggregate over the whole result. */
  sources: Record<string, estypes.AggregationsCompositeAggregationSource>[];
  metrics: Record<string, estypes.AggregationsAggregationContainer>;
  outputs: Ref[];
  having?: Condition;
  /** Ordering by an aggregate happens in memory, bounded by LIMIT. */
  order?: { ref: Ref; desc: boolean }[];
  limit?: number;
  offset: number;
}

export type Plan = RowsPlan | GroupsPlan;
