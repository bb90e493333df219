import t from 'tap';
import { buildMetricDocs, type DailyInputs } from '../../src/index.js';

const asOf = { ledger_index: 10, close_time: '2025-01-02T00:00:00.000Z', total_coins: '0' };

t.test('daily records of the four metrics', async (t) => {
  const inputs: DailyInputs = {
    transactions: new Map([
      [
        '2025-01-01',
        {
          total: 5,
          payments: 2,
          types: { Payment: 2, AMMDeposit: 2, OfferCreate: 1 },
          results: { tesSUCCESS: 4, tecPATH_DRY: 1 },
        },
      ],
    ]),
    ledgers: new Map([
      ['2025-01-01', { count: 3, txCount: 5, firstClose: 100, lastClose: 111 }],
      ['2024-12-31', { count: 1, txCount: 0, firstClose: 50, lastClose: 50 }],
    ]),
    accountsCreated: new Map([['2025-01-01', 1]]),
  };
  const docs = new Map(buildMetricDocs(inputs, asOf).map((d) => [d._id, d.doc]));
  t.same([...docs.keys()].sort(), [
    'amm.2025-01-01',
    'metric.2024-12-31',
    'metric.2025-01-01',
    'result.2025-01-01',
    'type.2025-01-01',
  ]);
  t.same(docs.get('metric.2025-01-01'), {
    metric_id: 'metric',
    date: '2025-01-01T00:00:00.000Z',
    values: {
      accounts_created: 1,
      ledger_count: 3,
      ledger_interval: 5.5,
      payments_count: 2,
      transaction_count: 5,
      tx_per_ledger: 1.667,
    },
    computed_at: asOf.close_time,
  });
  t.match(docs.get('metric.2024-12-31'), { values: { ledger_count: 1, ledger_interval: 0, transaction_count: 0 } });
  t.same(docs.get('amm.2025-01-01')?.values, {
    AMMCreate: 0,
    AMMDeposit: 2,
    AMMWithdraw: 0,
    AMMVote: 0,
    AMMBid: 0,
    AMMDelete: 0,
    AMMClawback: 0,
    total: 2,
  });
  t.same(docs.get('result.2025-01-01')?.values, { tesSUCCESS: 4, tecPATH_DRY: 1 });
});
