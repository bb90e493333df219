import type { Client, estypes } from '@elastic/elasticsearch';
import {
  indexName,
  rangeAlias,
  rangeIndexName,
  rangeLast,
  rangeStartOf,
  type IndexNaming,
  type RangedKind,
} from '../index-names.js';

/**
 * Request options of a cluster-state change (an index created, aliases swapped, a template put):
 * the master publishes it to every node and waits for the shards, which on a busy cluster takes
 * far longer than a search, so it gets its own time limit.
 */
export const ADMIN = { requestTimeout: 120_000 } as const;

/**
 * Creates the index of one range (generation 1) with its two aliases: the kind's read alias and
 * the range's write alias. Idempotent: a range another process created meanwhile is left as it is.
 * The index template (pattern `<kind alias>-*`) gives it its mappings and settings.
 */
export async function createRange(
  client: Client,
  naming: IndexNaming,
  kind: RangedKind,
  ledgerIndex: number,
): Promise<'created' | 'exists'> {
  const alias = rangeAlias(naming, kind, ledgerIndex);
  if (await client.indices.existsAlias({ name: alias })) return 'exists';
  const created = await client.indices.create(
    { index: rangeIndexName(alias), aliases: { [indexName(naming, kind)]: {}, [alias]: {} } },
    { ...ADMIN, ignore: [400] },
  );
  return (created as { acknowledged?: boolean }).acknowledged === true ? 'created' : 'exists';
}

/** The concrete indices of every range of a kind (those behind its alias, and any not yet behind it). */
export async function rangeIndices(client: Client, naming: IndexNaming, kind: RangedKind): Promise<string[]> {
  const found = await client.indices.get(
    {
      index: `${indexName(naming, kind)}-*`,
      ignore_unavailable: true,
      allow_no_indices: true,
      expand_wildcards: 'all',
    },
    { ignore: [404] },
  );
  return Object.keys(found)
    .filter((name) => !name.startsWith('.'))
    .sort();
}

/** The concrete index behind a range alias now (undefined when the range does not exist). */
export async function rangeIndexOf(
  client: Client,
  naming: IndexNaming,
  kind: RangedKind,
  ledgerIndex: number,
): Promise<string | undefined> {
  const alias = rangeAlias(naming, kind, ledgerIndex);
  const found = await client.indices.getAlias({ name: alias }, { ignore: [404] });
  return Object.keys(found).find((name) => name !== 'error' && name !== 'status');
}

/**
 * Points a range's two aliases (the range's and the kind's) at a rebuilt index in one atomic
 * step: readers see either the old range or the new one, never both or neither. Answers the
 * indices it replaced, which the caller deletes once nothing more is to be copied from them.
 */
export async function swapRange(
  client: Client,
  naming: IndexNaming,
  kind: RangedKind,
  ledgerIndex: number,
  rebuilt: string,
): Promise<string[]> {
  const alias = rangeAlias(naming, kind, ledgerIndex);
  const kindAlias = indexName(naming, kind);
  const current = Object.keys(await client.indices.getAlias({ name: alias }, { ignore: [404] })).filter(
    (name) => name !== 'error' && name !== 'status' && name !== rebuilt,
  );
  await client.indices.updateAliases(
    {
      actions: [
        ...current.flatMap((index) => [{ remove: { index, alias } }, { remove: { index, alias: kindAlias } }]),
        { add: { index: rebuilt, alias } },
        { add: { index: rebuilt, alias: kindAlias } },
      ],
    },
    ADMIN,
  );
  return current;
}

/**
 * The most range indices one read names: a search's request line carries their names (about 40
 * bytes each, commas escaped), and the engine refuses a line over 4 KB; past this, a reader asks
 * the kind's alias with the ledgers as a filter.
 */
export const MAX_NAMED_RANGES = 32;

/** The ledgers a read is confined to: `gte` and `lte` both included, either open. */
export interface LedgerSpan {
  gte?: number;
  lte?: number;
}

const bound = (value: unknown): number | undefined => {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
};

/**
 * The ledgers a query confines its documents to, from the `ledger_index` ranges and terms that
 * every document must match (the query itself, and the `filter` and `must` clauses of its bools,
 * recursively); `{}` when nothing confines it (pure). A condition under `should` or `must_not`
 * confines nothing, so it is never read: the span is never narrower than the query's.
 */
export function ledgerSpanOf(query: estypes.QueryDslQueryContainer | undefined): LedgerSpan {
  const span: LedgerSpan = {};
  const narrow = (gte: number | undefined, lte: number | undefined): void => {
    if (gte !== undefined) span.gte = Math.max(span.gte ?? gte, gte);
    if (lte !== undefined) span.lte = Math.min(span.lte ?? lte, lte);
  };
  const visit = (q: estypes.QueryDslQueryContainer | undefined): void => {
    if (q === undefined) return;
    const range = q.range?.ledger_index as
      (estypes.QueryDslNumberRangeQuery & { from?: unknown; to?: unknown }) | undefined;
    // The legacy `from` / `to` (with include_lower / include_upper) confine nothing here: the span
    // may be wider than the query, never narrower.
    if (range !== undefined && range.from === undefined && range.to === undefined) {
      const gt = bound(range.gt);
      const lt = bound(range.lt);
      // Both `gte` and `gt` given: the engine takes the last one written; the wider of the two is
      // never narrower than what it takes.
      const widest = (a: number | undefined, b: number | undefined, pick: (x: number, y: number) => number) =>
        a === undefined ? b : b === undefined ? a : pick(a, b);
      narrow(
        widest(bound(range.gte), gt === undefined ? undefined : Math.floor(gt) + 1, Math.min),
        widest(bound(range.lte), lt === undefined ? undefined : Math.ceil(lt) - 1, Math.max),
      );
    }
    const term = q.term?.ledger_index;
    const value = bound(typeof term === 'object' && term !== null ? (term as { value?: unknown }).value : term);
    if (value !== undefined) narrow(value, value);
    const all = (clauses: estypes.QueryDslQueryContainer | estypes.QueryDslQueryContainer[] | undefined): void => {
      for (const clause of clauses === undefined ? [] : Array.isArray(clauses) ? clauses : [clauses]) visit(clause);
    };
    all(q.bool?.filter);
    all(q.bool?.must);
    if (q.constant_score !== undefined) visit(q.constant_score.filter);
  };
  visit(query);
  return span;
}

/** The first ledgers of the ranges behind a kind's read alias now: what its readers see. */
export async function rangeStartsBehind(client: Client, naming: IndexNaming, kind: RangedKind): Promise<number[]> {
  const found = await client.indices.getAlias({ name: indexName(naming, kind) }, { ignore: [404] });
  const starts = new Set<number>();
  for (const index of Object.keys(found)) {
    const first = rangeStartOf(index);
    if (first !== undefined) starts.add(first);
  }
  return [...starts].sort((a, b) => a - b);
}

/**
 * The range aliases, oldest first, among ranges that start at `starts`, that may hold a ledger of
 * `span` (pure): a range holds `rangeLedgers` ledgers from its start.
 */
export function rangesOverlapping(
  naming: IndexNaming,
  kind: RangedKind,
  starts: readonly number[],
  span: LedgerSpan,
): string[] {
  if (span.gte !== undefined && span.lte !== undefined && span.gte > span.lte) return [];
  return [...new Set(starts)]
    .filter(
      (first) =>
        (span.lte === undefined || first <= span.lte) &&
        (span.gte === undefined || rangeLast(naming, first) >= span.gte),
    )
    .sort((a, b) => a - b)
    .map((first) => rangeAlias(naming, kind, first));
}
