import type { estypes } from '@elastic/elasticsearch';
import type { CompositePage, IndexKind } from '@xle/core';
import { AMM_TRANSACTION_TYPES, METRIC_IDS, type MetricId } from '@xle/documents';
import type { IngestEngine } from '../engine/ingest-engine.js';
import { inLedgerRanges, type AsOf, type DataSetDocument } from './data-set.js';
import type { LedgerRange } from '../pipeline/checkpoint.js';

/** Per-day counts read from the engine; `day` is `YYYY-MM-DD` (UTC). */
export interface DailyInputs {
  transactions: Map<
    string,
    { total: number; payments: number; types: Record<string, number>; results: Record<string, number> }
  >;
  ledgers: Map<string, { count: number; txCount: number; firstClose: number; lastClose: number }>;
  accountsCreated: Map<string, number>;
  /**
   * The days this run recomputed (those that received ledgers since the last run), or undefined
   * when it read every day.
   */
  days?: string[];
}

const round = (n: number, places: number): number => Math.round(n * 10 ** places) / 10 ** places;

/**
 * Daily records of the four metrics, `_id` = `<metric_id>.<day>` (pure). `metric`:
 * transaction_count and payments_count (transactions closed that day), ledger_count,
 * ledger_interval (mean seconds between the day's ledger closes), tx_per_ledger (transactions
 * in the day's ledgers over their count), accounts_created; `type` and `result` count
 * transactions per TransactionType and per TransactionResult; `amm` counts the AMM transaction
 * types and their total.
 */
export function buildMetricDocs(inputs: DailyInputs, asOf: AsOf): DataSetDocument[] {
  const days = new Set([...inputs.transactions.keys(), ...inputs.ledgers.keys(), ...inputs.accountsCreated.keys()]);
  const docs: DataSetDocument[] = [];
  const push = (metric: MetricId, day: string, values: Record<string, number>): void => {
    docs.push({
      _id: `${metric}.${day}`,
      doc: { metric_id: metric, date: `${day}T00:00:00.000Z`, values, computed_at: asOf.close_time },
    });
  };
  for (const day of [...days].sort()) {
    const tx = inputs.transactions.get(day);
    const ledgers = inputs.ledgers.get(day);
    push('metric', day, {
      accounts_created: inputs.accountsCreated.get(day) ?? 0,
      ledger_count: ledgers?.count ?? 0,
      ledger_interval:
        ledgers === undefined || ledgers.count < 2
          ? 0
          : round((ledgers.lastClose - ledgers.firstClose) / (ledgers.count - 1), 3),
      payments_count: tx?.payments ?? 0,
      transaction_count: tx?.total ?? 0,
      tx_per_ledger: ledgers === undefined || ledgers.count === 0 ? 0 : round(ledgers.txCount / ledgers.count, 3),
    });
    if (tx === undefined) continue;
    push('type', day, tx.types);
    push('result', day, tx.results);
    const amm = Object.fromEntries(AMM_TRANSACTION_TYPES.map((t) => [t, tx.types[t] ?? 0]));
    push('amm', day, { ...amm, total: AMM_TRANSACTION_TYPES.reduce((sum, t) => sum + (tx.types[t] ?? 0), 0) });
  }
  return docs;
}

/** The ids a run over `inputs.days` may write or must delete: the four records of each day. */
export function metricScope(inputs: DailyInputs): readonly string[] | 'all' {
  if (inputs.days === undefined) return 'all';
  return inputs.days.flatMap((day) => METRIC_IDS.map((metric) => `${metric}.${day}`));
}

/** Pages a composite aggregation to the end, handing each bucket to `each`. */
async function forEachComposite(
  engine: IngestEngine,
  kind: IndexKind,
  query: estypes.QueryDslQueryContainer | undefined,
  sources: Record<string, estypes.AggregationsCompositeAggregationSource>[],
  each: (key: Record<string, unknown>, bucket: Record<string, unknown>) => void,
  aggs?: Record<string, estypes.AggregationsAggregationContainer>,
): Promise<void> {
  const buckets = engine.composite(
    kind,
    query === undefined ? {} : { query },
    (page) => ({ pages: { composite: { ...page, sources }, ...(aggs === undefined ? {} : { aggs }) } }),
    (found) => found.pages as CompositePage | undefined,
  );
  for await (const bucket of buckets) each(bucket.key as Record<string, unknown>, bucket);
}

const dayOf = (millis: unknown): string => new Date(Number(millis)).toISOString().slice(0, 10);
const daily = (field: string): estypes.AggregationsCompositeAggregationSource => ({
  date_histogram: { field, calendar_interval: '1d', time_zone: 'UTC' },
});

const dayAfter = (day: string): string =>
  new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);

/** UTC days as a query on a date field: one range per run of consecutive days. */
function onDays(field: string, days: readonly string[]): estypes.QueryDslQueryContainer {
  const runs: { from: string; to: string }[] = [];
  for (const day of [...days].sort()) {
    const last = runs[runs.length - 1];
    if (last !== undefined && dayAfter(last.to) === day) last.to = day;
    else runs.push({ from: day, to: day });
  }
  return {
    bool: {
      should: runs.map((r) => ({
        range: { [field]: { gte: `${r.from}T00:00:00.000Z`, lt: `${dayAfter(r.to)}T00:00:00.000Z` } },
      })),
      minimum_should_match: 1,
    },
  };
}

/** The UTC days of the ledgers in `ranges` (the days that received ledgers since the last run). */
async function daysOfLedgers(engine: IngestEngine, ranges: readonly LedgerRange[]): Promise<string[]> {
  if (ranges.length === 0) return [];
  const days: string[] = [];
  await forEachComposite(engine, 'ledgers', inLedgerRanges(ranges), [{ day: daily('close_time_human') }], (key) =>
    days.push(dayOf(key.day)),
  );
  return days;
}

/**
 * Reads the per-day counts with composite aggregations, so any length of history pages through.
 * With `since` (the ledgers indexed since the last run), only the days those ledgers closed on are
 * read, each one whole: a run costs what changed, not the whole history.
 */
export async function readDailyInputs(engine: IngestEngine, since?: readonly LedgerRange[]): Promise<DailyInputs> {
  const days = since === undefined ? undefined : await daysOfLedgers(engine, since);
  const transactions: DailyInputs['transactions'] = new Map();
  const ledgers: DailyInputs['ledgers'] = new Map();
  const accountsCreated: DailyInputs['accountsCreated'] = new Map();
  if (days !== undefined && days.length === 0) return { transactions, ledgers, accountsCreated, days };
  const within = (field: string): estypes.QueryDslQueryContainer | undefined =>
    days === undefined ? undefined : onDays(field, days);
  const dayOfTx = (day: string): NonNullable<ReturnType<DailyInputs['transactions']['get']>> => {
    let entry = transactions.get(day);
    if (entry === undefined) {
      entry = { total: 0, payments: 0, types: {}, results: {} };
      transactions.set(day, entry);
    }
    return entry;
  };
  await forEachComposite(
    engine,
    'transactions',
    within('_date'),
    [{ day: daily('_date') }, { type: { terms: { field: 'TransactionType' } } }],
    (key, bucket) => {
      const entry = dayOfTx(dayOf(key.day));
      const count = Number(bucket.doc_count);
      entry.types[String(key.type)] = count;
      entry.total += count;
      if (key.type === 'Payment') entry.payments += count;
    },
  );
  await forEachComposite(
    engine,
    'transactions',
    within('_date'),
    [{ day: daily('_date') }, { result: { terms: { field: 'meta.TransactionResult' } } }],
    (key, bucket) => {
      dayOfTx(dayOf(key.day)).results[String(key.result)] = Number(bucket.doc_count);
    },
  );
  await forEachComposite(
    engine,
    'ledgers',
    within('close_time_human'),
    [{ day: daily('close_time_human') }],
    (key, bucket) => {
      const value = (name: string): number => Number((bucket[name] as { value: number | null }).value ?? 0);
      ledgers.set(dayOf(key.day), {
        count: Number(bucket.doc_count),
        txCount: value('tx'),
        firstClose: value('first'),
        lastClose: value('last'),
      });
    },
    {
      tx: { sum: { field: 'tx_count' } },
      first: { min: { field: 'close_time' } },
      last: { max: { field: 'close_time' } },
    },
  );
  await forEachComposite(engine, 'accounts', within('inception'), [{ day: daily('inception') }], (key, bucket) => {
    accountsCreated.set(dayOf(key.day), Number(bucket.doc_count));
  });
  return days === undefined
    ? { transactions, ledgers, accountsCreated }
    : { transactions, ledgers, accountsCreated, days };
}
