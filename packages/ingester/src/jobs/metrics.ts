import type { estypes } from '@elastic/elasticsearch';
import type { CompositePage, IndexKind } from '@xle/core';
import { AMM_TRANSACTION_TYPES, type MetricId } from '@xle/documents';
import type { IngestEngine } from '../engine/ingest-engine.js';
import type { AsOf, DataSetDocument } from './data-set.js';

/** Per-day counts read from the engine; `day` is `YYYY-MM-DD` (UTC). */
export interface DailyInputs {
  transactions: Map<
    string,
    { total: number; payments: number; types: Record<string, number>; results: Record<string, number> }
  >;
  ledgers: Map<string, { count: number; txCount: number; firstClose: number; lastClose: number }>;
  accountsCreated: Map<string, number>;
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

/** Pages a composite aggregation to the end, handing each bucket to `each`. */
async function forEachComposite(
  engine: IngestEngine,
  kind: IndexKind,
  sources: Record<string, estypes.AggregationsCompositeAggregationSource>[],
  each: (key: Record<string, unknown>, bucket: Record<string, unknown>) => void,
  aggs?: Record<string, estypes.AggregationsAggregationContainer>,
): Promise<void> {
  const buckets = engine.composite(
    kind,
    {},
    (page) => ({ pages: { composite: { ...page, sources }, ...(aggs === undefined ? {} : { aggs }) } }),
    (found) => found.pages as CompositePage | undefined,
  );
  for await (const bucket of buckets) each(bucket.key as Record<string, unknown>, bucket);
}

const dayOf = (millis: unknown): string => new Date(Number(millis)).toISOString().slice(0, 10);
const daily = (field: string): estypes.AggregationsCompositeAggregationSource => ({
  date_histogram: { field, calendar_interval: '1d', time_zone: 'UTC' },
});

/** Reads the per-day counts with composite aggregations, so any length of history pages through. */
export async function readDailyInputs(engine: IngestEngine): Promise<DailyInputs> {
  const transactions: DailyInputs['transactions'] = new Map();
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
    [{ day: daily('_date') }, { result: { terms: { field: 'meta.TransactionResult' } } }],
    (key, bucket) => {
      dayOfTx(dayOf(key.day)).results[String(key.result)] = Number(bucket.doc_count);
    },
  );
  const ledgers: DailyInputs['ledgers'] = new Map();
  await forEachComposite(
    engine,
    'ledgers',
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
  const accountsCreated: DailyInputs['accountsCreated'] = new Map();
  await forEachComposite(engine, 'accounts', [{ day: daily('inception') }], (key, bucket) => {
    accountsCreated.set(dayOf(key.day), Number(bucket.doc_count));
  });
  return { transactions, ledgers, accountsCreated };
}
