import t from 'tap';
import { rowOf } from '../../src/sql/execute.js';
import { MAX_TEXT } from '../../src/sql/expressions.js';
import type { RowsPlan } from '../../src/sql/plan.js';
import { translateSql } from '../../src/sql/translate.js';
import { templateSchemas } from '../fixtures/schemas.js';

/** One row of `SELECT <expressions> FROM transactions` over a source document. */
function select(expressions: string, source: Record<string, unknown> = {}, now?: number): unknown[] {
  const plan = translateSql(`SELECT ${expressions} FROM transactions`, templateSchemas, now) as RowsPlan;
  return rowOf(plan, source);
}
const typesOf = (expressions: string): string[] =>
  translateSql(`SELECT ${expressions} FROM transactions`, templateSchemas).columns.map((c) => c.type);

t.test('a literal with a point or an exponent is a decimal: no integer division', async (t) => {
  t.same(select('Fee / 2.0, Fee / 2, 10.0 / 4, Fee * 1.0 / 8, -Fee / 2.0', { Fee: '15' }), [7.5, 7, 2.5, 1.875, -7.5]);
  t.same(typesOf('Fee / 2.0, Fee / 2, 1.5'), ['double', 'long', 'double']);
});

t.test('ROUND: half away from zero, NULL digits NULL, huge digits harmless', async (t) => {
  t.same(
    select('ROUND(-2.5), ROUND(2.5), ROUND(-1.005, 2), ROUND(1234.5, -2), ROUND(5, 400), ROUND(_Fee, NULL)', {
      _Fee: 1,
    }),
    [-3, 3, -1, 1200, 5, null],
  );
});

t.test('LEFT, RIGHT and SUBSTRING take whole numbers of characters', async (t) => {
  t.same(select("RIGHT('abc', 0.5), LEFT('abc', 1.9), SUBSTRING('abcdef', 2.7, 2.2), RIGHT('abc', -1)"), [
    '',
    'a',
    'bc',
    '',
  ]);
});

t.test('text that would grow past MAX_TEXT is NULL, never a failed row', async (t) => {
  const big = 'x'.repeat(1000);
  const account = 'r'.repeat(2000);
  const nested = `REPLACE(REPLACE(Account, 'r', '${big}'), 'x', '${big}')`;
  t.same(select(nested, { Account: account }), [null], `${account.length * 1000 * 1000} characters would be NULL`);
  t.same(select(`REPLACE(Account, 'r', 'RR')`, { Account: 'rab' }), ['RRab']);
  t.same(select(`REPLACE(Account, NULL, 'x')`, { Account: 'rab' }), [null], 'NULL in, NULL out');
  const doubled = Array.from({ length: 5 }).reduce<string>((e) => `(${e} || ${e})`, 'Account');
  t.same(select(doubled, { Account: 'r'.repeat(MAX_TEXT / 16) }), [null], 'nested || stops at the cap');
});

t.test('relative dates: months clamp to the month end; an interval past the calendar is a 400', async (t) => {
  const march31 = Date.UTC(2025, 2, 31, 12, 0, 0);
  const plan = translateSql(
    'SELECT hash FROM transactions WHERE _date > NOW() - INTERVAL 1 MONTH AND _date < NOW() + INTERVAL 1 YEAR',
    templateSchemas,
    march31,
  );
  const json = JSON.stringify(plan);
  t.match(json, /"gt":"2025-02-28T12:00:00.000Z"/, '31 March - 1 month is 28 February');
  t.match(json, /"lt":"2026-03-31T12:00:00.000Z"/);
  const leap = translateSql(
    'SELECT hash FROM transactions WHERE _date > NOW() - INTERVAL 1 YEAR',
    templateSchemas,
    Date.UTC(2024, 1, 29),
  );
  t.match(JSON.stringify(leap), /"gt":"2023-02-28T00:00:00.000Z"/, '29 February - 1 year is 28 February');
  for (const interval of ['99999999999 DAY', '300000 YEAR'])
    t.throws(
      () => translateSql(`SELECT hash FROM transactions WHERE _date > NOW() - INTERVAL ${interval}`, templateSchemas),
      {
        status: 400,
        code: 'INVALID_QUERY',
        message: /INTERVAL reaches past/,
      },
    );
});
