import { readFileSync } from 'node:fs';
import t from 'tap';
import { AppError } from '@xle/core';
import { evaluateCondition, likeToWildcard, translateSql } from '../../src/index.js';
import { templateSchemas } from '../fixtures/schemas.js';

/** NOW() in the golden plans: 2026-11-27T10:00:00Z. */
const NOW = Date.UTC(2026, 10, 27, 10, 0, 0);
const translate = (sql: string): unknown => translateSql(sql, templateSchemas, NOW);

/** Every allowed construct, one golden plan each (regenerate with TAP_SNAPSHOT=1, review the diff). */
const GOLDEN: [string, string][] = [
  ['column list', 'SELECT hash, Account, ledger_index FROM transactions'],
  ['star', 'SELECT * FROM ledgers'],
  [
    'expressions',
    "SELECT Fee / 1000000 AS xrp, _Fee * 2, UPPER(hash), CASE WHEN Fee > 10 THEN 'high' ELSE 'low' END AS band, CAST(Sequence AS VARCHAR), COALESCE(DestinationTag, 0), YEAR(_date), EXTRACT(MONTH FROM _date), 'tx:' || hash FROM transactions",
  ],
  ['relative dates', 'SELECT hash FROM transactions WHERE _date > NOW() - INTERVAL 7 DAY AND _date < CURRENT_DATE'],
  ['aliases', 'SELECT hash AS h, "Amount._value" AS amount FROM transactions'],
  ['quoted dotted name', 'SELECT "meta.TransactionResult" FROM transactions'],
  ['unquoted dotted name', 'SELECT meta.TransactionResult FROM transactions'],
  ['table-qualified column', "SELECT t.hash FROM transactions t WHERE t.Fee = '12'"],
  ['equality on keyword', "SELECT hash FROM transactions WHERE TransactionType = 'Payment'"],
  ['literal first', "SELECT hash FROM transactions WHERE 'Payment' = TransactionType"],
  ['not equal', "SELECT hash FROM transactions WHERE TransactionType <> 'Payment'"],
  ['not equal bang', "SELECT hash FROM transactions WHERE TransactionType != 'Payment'"],
  ['ranges', 'SELECT hash FROM transactions WHERE ledger_index >= 83258110 AND ledger_index < 94084608'],
  ['flipped range', 'SELECT hash FROM transactions WHERE 100 < "Amount._value"'],
  ['between', 'SELECT hash FROM transactions WHERE "Amount._value" BETWEEN 1 AND 1000'],
  ['not between', 'SELECT hash FROM transactions WHERE "Amount._value" NOT BETWEEN 1 AND 1000'],
  ['in', "SELECT hash FROM transactions WHERE TransactionType IN ('Payment', 'OfferCreate')"],
  ['not in', "SELECT hash FROM transactions WHERE TransactionType NOT IN ('Payment', 'OfferCreate')"],
  ['like', "SELECT hash FROM transactions WHERE Account LIKE 'rKi%'"],
  ['like single char and escapes', "SELECT hash FROM transactions WHERE Account LIKE 'r_x*?%'"],
  ['not like', "SELECT hash FROM transactions WHERE Account NOT LIKE 'rKi%'"],
  ['is null', 'SELECT hash FROM transactions WHERE DestinationTag IS NULL'],
  ['is not null', 'SELECT hash FROM transactions WHERE DestinationTag IS NOT NULL'],
  [
    'and or not',
    "SELECT hash FROM transactions WHERE (TransactionType = 'Payment' OR TransactionType = 'OfferCreate') AND NOT \"meta.TransactionResult\" = 'tesSUCCESS'",
  ],
  ['not of a group', 'SELECT hash FROM transactions WHERE NOT (ledger_index > 3 OR ledger_index < 1)'],
  ['boolean literal', 'SELECT hash FROM transactions WHERE validated = TRUE'],
  ['negative and decimal numbers', 'SELECT hash FROM transactions WHERE "Amount._value" > -1.5 AND _Fee < 1.2e1'],
  ['date comparison', "SELECT hash FROM transactions WHERE _date >= '2023-10-16T00:00:00Z'"],
  ['escaped quote in a string', "SELECT hash FROM transactions WHERE \"Memos.Memo._MemoData\" = 'it''s'"],
  ['match on decoded memos', 'SELECT hash FROM transactions WHERE MATCH("Memos.Memo._MemoData", \'hello world\')'],
  [
    'match with options',
    "SELECT hash FROM transactions WHERE MATCH(\"Memos.Memo._MemoData\", 'hello world', 'operator=AND;fuzziness=AUTO')",
  ],
  [
    'match on several fields',
    "SELECT hash FROM transactions WHERE MATCH('Memos.Memo._MemoData^2,Memos.Memo._MemoType', 'invoice')",
  ],
  ['query', "SELECT hash FROM transactions WHERE QUERY('TransactionType:Payment AND Fee:12')"],
  [
    'full text with filters',
    'SELECT hash FROM transactions WHERE MATCH("Memos.Memo._MemoData", \'x\') AND ledger_index > 1',
  ],
  ['order by', 'SELECT hash, ledger_index FROM transactions ORDER BY ledger_index DESC, hash'],
  ['order by alias', 'SELECT "Amount._value" AS v FROM transactions ORDER BY v DESC'],
  ['order by text uses its keyword', 'SELECT hash FROM transactions ORDER BY "Memos.Memo._MemoData"'],
  ['limit', 'SELECT hash FROM transactions LIMIT 5'],
  ['limit offset', 'SELECT hash FROM transactions LIMIT 5 OFFSET 10'],
  ['group by count', 'SELECT TransactionType, COUNT(*) FROM transactions GROUP BY TransactionType'],
  ['group by alias', 'SELECT TransactionType AS type, COUNT(*) AS n FROM transactions GROUP BY type'],
  ['sum avg min max', 'SELECT Account, SUM(_Fee), AVG(_Fee), MIN(_Fee), MAX(_Fee) FROM transactions GROUP BY Account'],
  [
    'count column and distinct',
    'SELECT TransactionType, COUNT(Destination), COUNT(DISTINCT Account) FROM transactions GROUP BY TransactionType',
  ],
  [
    'group by two keys',
    'SELECT TransactionType, "meta.TransactionResult", COUNT(*) FROM transactions GROUP BY TransactionType, "meta.TransactionResult"',
  ],
  ['having', 'SELECT Account, COUNT(*) AS n FROM transactions GROUP BY Account HAVING COUNT(*) > 10'],
  [
    'having with an aggregate not selected',
    'SELECT Account FROM transactions GROUP BY Account HAVING SUM(_Fee) >= 100 AND COUNT(*) < 5',
  ],
  ['having on alias', 'SELECT Account, COUNT(*) AS n FROM transactions GROUP BY Account HAVING n BETWEEN 2 AND 9'],
  [
    'order by group key desc',
    'SELECT TransactionType, COUNT(*) FROM transactions GROUP BY TransactionType ORDER BY TransactionType DESC',
  ],
  [
    'order by aggregate with limit',
    'SELECT Account, COUNT(*) AS n FROM transactions GROUP BY Account ORDER BY n DESC LIMIT 10',
  ],
  [
    'order by aggregate expression',
    'SELECT Account, SUM(_Fee) FROM transactions GROUP BY Account ORDER BY SUM(_Fee) DESC LIMIT 3',
  ],
  ['histogram by day', 'SELECT HISTOGRAM(_date, INTERVAL 1 DAY) AS day, COUNT(*) FROM transactions GROUP BY day'],
  ['histogram by 6 hours', 'SELECT HISTOGRAM(_date, INTERVAL 6 HOUR) AS h, COUNT(*) FROM transactions GROUP BY h'],
  ['histogram by month', 'SELECT HISTOGRAM(_date, INTERVAL 1 MONTH) AS m, COUNT(*) FROM transactions GROUP BY m'],
  ['numeric histogram', 'SELECT HISTOGRAM(ledger_index, 1000000) AS l, COUNT(*) FROM transactions GROUP BY l'],
  ['date_trunc hour', "SELECT DATE_TRUNC('hour', _date) AS h, COUNT(*) FROM transactions GROUP BY h"],
  ['date_trunc day', "SELECT DATE_TRUNC('day', _date) AS d, SUM(_Fee) FROM transactions GROUP BY d ORDER BY d DESC"],
  [
    'date_trunc month repeated in group by',
    "SELECT DATE_TRUNC('month', _date), COUNT(*) FROM transactions GROUP BY DATE_TRUNC('month', _date)",
  ],
  [
    'global aggregates',
    'SELECT COUNT(*), SUM(_Fee), AVG("Amount._value") FROM transactions WHERE TransactionType = \'Payment\'',
  ],
  ['min max of dates', 'SELECT MIN(_date), MAX(_date) FROM transactions'],
  [
    'group with where and limit offset',
    "SELECT Account, COUNT(*) FROM transactions WHERE TransactionType = 'Payment' GROUP BY Account LIMIT 5 OFFSET 5",
  ],
  ['ledgers table', 'SELECT ledger_index, tx_count FROM ledgers WHERE tx_count > 100 ORDER BY ledger_index DESC'],
  ['keywords in lower case', "select hash from transactions where TransactionType = 'Payment' limit 1"],
];

for (const [name, sql] of GOLDEN) {
  t.test(name, async (t) => {
    t.matchSnapshot(translate(sql), sql);
  });
}

/** Everything outside the subset: one error code each, with the clause named (fixtures/rejected-sql.json). */
const REJECTED: [string, string, string][] = [
  ...(JSON.parse(readFileSync(new URL('../../../test/fixtures/rejected-sql.json', import.meta.url), 'utf8')) as [
    string,
    string,
    string,
  ][]),
  [`SELECT hash FROM transactions WHERE hash = '${'a'.repeat(17000)}'`, 'QUERY_LIMIT_EXCEEDED', 'query'],
];

t.test('rejected constructs: a 400 with a stable code and the clause', async (t) => {
  for (const [sql, code, clause] of REJECTED) {
    try {
      translate(sql);
      t.fail(`accepted: ${sql.slice(0, 80)}`);
    } catch (error) {
      t.ok(error instanceof AppError, sql.slice(0, 80));
      const e = error as AppError;
      t.equal(e.status, 400, sql.slice(0, 80));
      t.equal(e.code, code, `${sql.slice(0, 80)} → ${e.message}`);
      t.match(e.details, { clause }, `${sql.slice(0, 80)} names ${clause}`);
    }
  }
});

t.test('errors carry the position of the offending clause', async (t) => {
  const error = (sql: string): AppError => {
    try {
      translate(sql);
    } catch (e) {
      return e as AppError;
    }
    throw new Error('accepted');
  };
  t.match(error('SELECT hash FROM transactions WHERE\n  nope = 1').details, { line: 2, column: 3 });
  t.match(error('SELECT hash FROM nowhere').message, /^line 1:18: Unknown table \[nowhere\]/);
  t.match(error('SELECT nope FROM transactions').message, /Unknown column \[nope\]/);
});

t.test('LIKE patterns become wildcard patterns', async (t) => {
  t.equal(likeToWildcard('r%'), 'r*');
  t.equal(likeToWildcard('a_b'), 'a?b');
  t.equal(likeToWildcard('a*b?c\\d'), 'a\\*b\\?c\\\\d');
});

t.test('HAVING conditions evaluate over a grouped row', async (t) => {
  const read = (ref: unknown): unknown => ((ref as { count?: boolean }).count === true ? 7 : null);
  t.ok(evaluateCondition({ cmp: '>', left: { ref: { count: true } }, right: { value: 5 } }, read));
  t.notOk(evaluateCondition({ cmp: '<', left: { ref: { count: true } }, right: { value: 5 } }, read));
  t.ok(evaluateCondition({ isNull: { ref: { metric: 'm0' } }, negate: false }, read), 'a missing metric is null');
  t.notOk(
    evaluateCondition({ cmp: '=', left: { ref: { metric: 'm0' } }, right: { value: 0 } }, read),
    'null compares false',
  );
  t.ok(evaluateCondition({ not: { in: { ref: { count: true } }, values: [{ value: 1 }, { value: 2 }] } }, read));
});
