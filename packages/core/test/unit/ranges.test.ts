import t from 'tap';
import { ledgerSpanOf, rangesOverlapping } from '../../src/index.js';

const naming = { prefix: 'xrpl', network: 'mainnet', rangeLedgers: 1000 } as const;

t.test('ledgerSpanOf: the ledgers every matching document lies in', async (t) => {
  t.same(ledgerSpanOf(undefined), {}, 'no query: unconfined');
  t.same(ledgerSpanOf({ match_all: {} }), {});
  t.same(ledgerSpanOf({ range: { ledger_index: { gte: 10, lte: 20 } } }), { gte: 10, lte: 20 });
  t.same(ledgerSpanOf({ range: { ledger_index: { gt: 10, lt: 20 } } }), { gte: 11, lte: 19 }, 'bounds excluded');
  t.same(ledgerSpanOf({ range: { ledger_index: { gt: 10.5 } } }), { gte: 11 }, 'a fractional bound');
  t.same(ledgerSpanOf({ range: { ledger_index: { gte: '15' } } }), { gte: 15 }, 'a numeric string');
  t.same(ledgerSpanOf({ term: { ledger_index: 7 } }), { gte: 7, lte: 7 });
  t.same(ledgerSpanOf({ term: { ledger_index: { value: 7 } } }), { gte: 7, lte: 7 });
  t.same(
    ledgerSpanOf({
      bool: {
        filter: [{ range: { ledger_index: { gte: 10 } } }, { term: { Account: 'r' } }],
        must: { bool: { filter: { range: { ledger_index: { lte: 50, gte: 5 } } } } },
      },
    }),
    { gte: 10, lte: 50 },
    'every clause that must hold narrows, nested bools included',
  );
  t.same(
    ledgerSpanOf({ constant_score: { filter: { range: { ledger_index: { lte: 9 } } } } }),
    { lte: 9 },
    'a constant score filter',
  );
  t.same(
    ledgerSpanOf({
      bool: {
        should: [{ range: { ledger_index: { lte: 10 } } }, { range: { ledger_index: { gte: 90 } } }],
        must_not: [{ range: { ledger_index: { lte: 50 } } }],
      },
    }),
    {},
    'should and must_not never confine',
  );
  t.same(ledgerSpanOf({ range: { _date: { gte: 10 } } }), {}, 'another field');
  t.same(
    ledgerSpanOf({ range: { ledger_index: { gte: 20, gt: 10, lte: 30, lt: 40 } } }),
    { gte: 11, lte: 39 },
    'both forms of a bound: the wider (the engine takes the last written)',
  );
  t.same(
    ledgerSpanOf({ range: { ledger_index: { from: 20, to: 30, gte: 25 } as never } }),
    {},
    'the legacy from / to: not read, nothing narrowed',
  );
  t.same(ledgerSpanOf({ range: { ledger_index: { gte: 'now' } } }), {}, 'a bound that is not a ledger');
});

t.test('rangesOverlapping: the ranges that may hold a ledger of the span, oldest first', async (t) => {
  const starts = [3000, 0, 1000, 5000];
  const names = (span: Parameters<typeof rangesOverlapping>[3]): string[] =>
    rangesOverlapping(naming, 'transactions', starts, span).map((a) => a.slice(-4));
  t.same(names({}), ['0000', '1000', '3000', '5000'], 'every range, sorted');
  t.same(names({ gte: 999, lte: 1000 }), ['0000', '1000'], 'both ends included');
  t.same(names({ gte: 1000, lte: 1999 }), ['1000'], 'one range exactly');
  t.same(names({ gte: 2000, lte: 2999 }), [], 'a gap between ranges');
  t.same(names({ gte: 4500 }), ['5000'], 'open above');
  t.same(names({ lte: 999 }), ['0000'], 'open below');
  t.same(names({ gte: 10, lte: 5 }), [], 'an empty span');
  t.same(
    rangesOverlapping(naming, 'transactions', [1000, 1000], {}),
    ['xrpl-mainnet-transactions-0000001000'],
    'a range once',
  );
});
