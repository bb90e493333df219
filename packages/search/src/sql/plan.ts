// What a translated SQL statement is: the plan the executor runs (types and limits).
import type { estypes } from '@elastic/elasticsearch';
import type { IndexKind } from '@xle/core';
import type { Expr } from './expressions.js';

/** A table of the SQL API: the index kind behind it and what its rows are, for SHOW TABLES. */
export interface TableInfo {
  kind: IndexKind;
  description: string;
}

/** Tables the SQL API reads (every public data set with rows), and the index behind each. */
export const TABLES: Readonly<Record<string, TableInfo>> = {
  transactions: { kind: 'transactions', description: 'One row per validated transaction, with derived fields.' },
  ledgers: { kind: 'ledgers', description: 'One row per validated ledger header.' },
  balance_changes: {
    kind: 'balance-changes',
    description:
      'One row per change of an account’s balance of one asset in one transaction (the fee its own row), with the balance after it.',
  },
  accounts: {
    kind: 'accounts',
    description: 'One row per account (its AccountRoot now, with its activation), deleted ones included.',
  },
  objects: {
    kind: 'objects',
    description: 'Ledger entries now: offers, trust lines, AMMs, NFT pages, escrows, checks, … (LedgerEntryType).',
  },
  activations: { kind: 'activations', description: 'One row per account activation: who funded it, when, with what.' },
  tokens: { kind: 'tokens', description: 'One row per issued token: holders, trust lines, supply, metadata.' },
  nfts: { kind: 'nfts', description: 'One row per NFToken ever seen: issuer, taxon, serial, owner, burned.' },
  balances: { kind: 'balances', description: 'The XRP rich list: accounts ranked by balance (drops).' },
  metrics: { kind: 'metrics', description: 'Daily metric records; `values.*` holds one number per measure.' },
  facts: { kind: 'facts', description: 'Named facts per namespace (AMM, ObjectCount, XRP).' },
  amendments: { kind: 'amendments', description: 'One row per amendment: name, status, votes, when enabled.' },
  validators: {
    kind: 'validators',
    description: 'One row per validator: keys, domain, UNL membership, agreement.',
  },
  nodes: { kind: 'nodes', description: 'One row per peer node seen by the crawler.' },
};

/** Tables the SQL API reads, and the index kind behind each. */
export const PUBLIC_TABLES: Readonly<Record<string, IndexKind>> = Object.fromEntries(
  Object.entries(TABLES).map(([name, table]) => [name, table.kind]),
);

/** The largest LIMIT when rows must be ordered in memory (ORDER BY an aggregate). */
export const MAX_IN_MEMORY_ORDER = 10_000;

export interface Column {
  name: string;
  type: string;
}

/** A value a grouped row is made of: a group key, the bucket's count, or a metric aggregation. */
/**
 * What an output reads from a bucket: a group key, the bucket's document count, or a metric. `part`
 * is where the value sits in a multi-value metric's answer (`sum` of stats, `std_deviation` of
 * extended stats, `values.0.value` of percentiles): NULL where the metric saw no value, as SQL's
 * SUM over no rows.
 */
export type Ref =
  | { key: string }
  | { count: true }
  | { metric: string; part?: string }
  /** An expression over a bucket's values (SUM(Fee) / 1000000.0): its leaves `\u0000<i>` read refs[i]. */
  | { expr: Expr; refs: Ref[] };

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
  /** What the translation noticed that is valid but likely not meant (Warning headers). */
  warnings?: string[];
  kind: 'rows';
  table: IndexKind;
  columns: Column[];
  /** The value of each column: a source path (coerced to its engine type) or an expression over them. */
  values: Expr[];
  query: estypes.QueryDslQueryContainer;
  sort: estypes.SortCombinations[];
  limit?: number;
  offset: number;
}

export interface GroupsPlan {
  /** What the translation noticed that is valid but likely not meant (Warning headers). */
  warnings?: string[];
  kind: 'groups';
  table: IndexKind;
  columns: Column[];
  query: estypes.QueryDslQueryContainer;
  /** Composite sources in GROUP BY order; empty for an aggregate over the whole result. */
  sources: Record<string, estypes.AggregationsCompositeAggregationSource>[];
  /**
   * GROUP BY CASE: the first key's groups, each the rows of one query, read one after another
   * (each with the composite of the other keys, or as one bucket when there are none).
   */
  split?: {
    key: string;
    branches: { value: string | number | boolean | null; query: estypes.QueryDslQueryContainer }[];
  };
  metrics: Record<string, estypes.AggregationsAggregationContainer>;
  outputs: Ref[];
  having?: Condition;
  /** Ordering by an aggregate happens in memory, bounded by LIMIT. */
  order?: OrderKey[];
  limit?: number;
  offset: number;
}

/** Rows the service answers itself (schema discovery): no engine request. */
export interface ValuesPlan {
  kind: 'values';
  columns: Column[];
  rows: unknown[][];
}

export type Plan = RowsPlan | GroupsPlan | ValuesPlan;

/** One key of an in-memory order: descending or not, nulls first or last when ORDER BY says so. */
export interface OrderKey {
  ref: Ref;
  desc: boolean;
  nulls?: 'first' | 'last';
}
