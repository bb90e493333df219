import t from 'tap';
import { indexName } from '@xle/core';
import { engineOf, loadNetworkData, runAllJobs } from '@xle/test-loaded';
import { FORMATS } from '../../src/index.js';
import { FUNCTIONS } from '../../src/sql/show.js';
import { TABLES } from '../../src/sql/plan.js';
import { decodeAnswer } from '../fixtures/decode.js';
import { loadedIndices, post, serveSearch } from '../fixtures/serve.js';

/**
 * Schema discovery and the tables beyond transactions and ledgers, on the fixture ledgers with
 * every derived data set built: each answer is checked against the engine itself (its counts and
 * its field capabilities), not against the code that made it.
 */
const target = await loadedIndices(t);
await runAllJobs(target);
await loadNetworkData(engineOf(target));
const base = await serveSearch(t, target);

interface JsonAnswer {
  columns: { name: string; type: string }[];
  rows: unknown[][];
}

async function sql(query: string): Promise<JsonAnswer> {
  const answer = await post(`${base}/sql`, { query });
  if (answer.status !== 200) throw new Error(`${query}: ${answer.status} ${answer.text.slice(0, 300)}`);
  return answer.json as JsonAnswer;
}

t.test('SHOW TABLES, in every format', async (t) => {
  for (const format of FORMATS) {
    const answer = await post(`${base}/sql?format=${format}`, { query: 'SHOW TABLES' });
    t.equal(answer.status, 200, format);
    const decoded = decodeAnswer(format, answer.bytes);
    t.same(
      decoded.rows.map((r) => r[0]),
      Object.keys(TABLES),
      `${format}: every table`,
    );
  }
  t.same((await sql("SHOW TABLES LIKE '%s_'")).rows, [], 'LIKE filters the names');
  t.same(
    (await sql("SHOW TABLES LIKE 'ledger_'")).rows.map((r) => r[0]),
    ['ledgers'],
  );
});

t.test('every table answers, with the engine count of its index', async (t) => {
  for (const [name, table] of Object.entries(TABLES)) {
    const index = indexName(target.naming, table.kind);
    const { count } = await target.client.count({ index });
    const viaSql = await sql(`SELECT COUNT(*) AS n FROM ${name}`);
    t.same(viaSql.rows, [[count]], `${name}: ${count} rows`);
    const rows = await sql(`SELECT * FROM ${name} LIMIT 3`);
    t.equal(rows.rows.length, Math.min(3, count), `${name}: SELECT * answers`);
    const described = await sql(`DESCRIBE ${name}`);
    t.same(
      rows.columns.map((c) => c.name),
      described.rows.filter((r) => r[3] === true).map((r) => r[0]),
      `${name}: SELECT * has the selectable columns DESCRIBE lists`,
    );
  }
  const nonEmpty = [
    'transactions',
    'ledgers',
    'balance_changes',
    'accounts',
    'objects',
    'tokens',
    'balances',
    'metrics',
    'amendments',
  ];
  for (const name of nonEmpty) {
    const [[n]] = (await sql(`SELECT COUNT(*) FROM ${name}`)).rows as [[number]];
    t.ok(n > 0, `${name} holds ${n} rows on the fixture data`);
  }
});

t.test('DESCRIBE agrees with the engine field capabilities', async (t) => {
  for (const [name, table] of Object.entries(TABLES)) {
    const index = indexName(target.naming, table.kind);
    const caps = await target.client.fieldCaps({ index, fields: '*' });
    const described = await sql(`SHOW COLUMNS FROM ${name}`);
    let compared = 0;
    for (const [column, , mapping, , searchable] of described.rows as [string, string, string, boolean, boolean][]) {
      const cap = caps.fields[column];
      if (cap === undefined) continue;
      const [type, entry] = Object.entries(cap)[0] as [string, { searchable: boolean }];
      if (type !== mapping || entry.searchable !== searchable)
        t.fail(`${name}.${column}: DESCRIBE says ${mapping}/${searchable}, the engine ${type}/${entry.searchable}`);
      compared += 1;
    }
    t.ok(compared > 0, `${name}: ${compared} columns match the engine's type and searchability`);
  }
  const tx = await sql("DESCRIBE transactions LIKE '\\_Fee'".replace('\\', ''));
  t.same(tx.rows, [['_Fee', 'double', 'double', true, true, 'Fee in XRP']], 'a described column');
  const unknown = await post(`${base}/sql`, { query: 'DESCRIBE transaction' });
  t.equal(unknown.status, 400);
  t.match(unknown.json, { error: { code: 'INVALID_QUERY', message: /did you mean \[transactions\]/ } });
});

/** One query per function, as an analyst writes it: each must run. */
const USES: Record<string, string> = {
  COUNT: 'SELECT COUNT(*), COUNT(Destination), COUNT(DISTINCT Account) FROM transactions',
  SUM: 'SELECT SUM(_Fee) FROM transactions',
  AVG: 'SELECT AVG(_Fee) FROM transactions',
  MIN: 'SELECT MIN(_date) FROM transactions',
  MAX: 'SELECT MAX(ledger_index) FROM transactions',
  PERCENTILE: 'SELECT TransactionType, PERCENTILE(_Fee, 95) FROM transactions GROUP BY TransactionType',
  PERCENTILE_RANK: 'SELECT PERCENTILE_RANK(_Fee, 0.000012) FROM transactions',
  STDDEV_POP: 'SELECT STDDEV_POP(_Fee) FROM transactions',
  STDDEV_SAMP: 'SELECT STDDEV_SAMP(_Fee) FROM transactions',
  VAR_POP: 'SELECT VAR_POP(_Fee) FROM transactions HAVING VAR_POP(_Fee) > 0',
  VAR_SAMP: 'SELECT Account, VAR_SAMP(_Fee) AS v FROM transactions GROUP BY Account ORDER BY v DESC LIMIT 5',
  SUM_OF_SQUARES: 'SELECT SUM_OF_SQUARES(ledger_index) FROM ledgers',
  HISTOGRAM: 'SELECT HISTOGRAM(_date, INTERVAL 1 YEAR) AS y, COUNT(*) FROM transactions GROUP BY y',
  DATE_TRUNC: "SELECT DATE_TRUNC('month', _date) AS m, COUNT(*) FROM transactions GROUP BY m",
  MATCH: 'SELECT hash FROM transactions WHERE MATCH("Memos.Memo._MemoData", \'xrp\')',
  QUERY: "SELECT hash FROM transactions WHERE QUERY('TransactionType:Payment')",
  ...Object.fromEntries(
    Object.entries({
      CASE: "CASE WHEN Fee > 10 THEN 'high' ELSE 'low' END",
      CAST: 'CAST(Fee AS DOUBLE)',
      EXTRACT: 'EXTRACT(YEAR FROM _date)',
      ABS: 'ABS(Fee)',
      ROUND: 'ROUND(_Fee, 3)',
      FLOOR: 'FLOOR(_Fee)',
      CEIL: 'CEIL(_Fee)',
      CEILING: 'CEILING(_Fee)',
      POWER: 'POWER(Fee, 2)',
      SQRT: 'SQRT(Fee)',
      SIGN: 'SIGN(Fee)',
      UPPER: 'UPPER(hash)',
      UCASE: 'UCASE(hash)',
      LOWER: 'LOWER(hash)',
      LCASE: 'LCASE(hash)',
      LENGTH: 'LENGTH(Account)',
      CHAR_LENGTH: 'CHAR_LENGTH(Account)',
      SUBSTRING: 'SUBSTRING(hash, 1, 4)',
      LEFT: 'LEFT(hash, 4)',
      RIGHT: 'RIGHT(hash, 4)',
      CONCAT: "CONCAT(Account, ':', hash)",
      TRIM: 'TRIM(Account)',
      LTRIM: 'LTRIM(Account)',
      RTRIM: 'RTRIM(Account)',
      REPLACE: "REPLACE(Account, 'r', 'R')",
      COALESCE: 'COALESCE(DestinationTag, 0)',
      IFNULL: 'IFNULL(DestinationTag, 0)',
      NULLIF: 'NULLIF(Fee, 10)',
      YEAR: 'YEAR(_date)',
      MONTH: 'MONTH(_date)',
      DAY: 'DAY(_date)',
      DAY_OF_MONTH: 'DAY_OF_MONTH(_date)',
      HOUR: 'HOUR(_date)',
      MINUTE: 'MINUTE(_date)',
      SECOND: 'SECOND(_date)',
      ISO_DAY_OF_WEEK: 'ISO_DAY_OF_WEEK(_date)',
    }).map(([name, expression]) => [name, `SELECT ${expression} FROM transactions LIMIT 5`]),
  ),
};

t.test('SHOW FUNCTIONS lists what runs, and only that', async (t) => {
  const listed = await sql('SHOW FUNCTIONS');
  t.same(
    listed.rows.map((r) => r[0]),
    FUNCTIONS.map((f) => f.name),
  );
  for (const f of FUNCTIONS) {
    const query = USES[f.name];
    if (query === undefined) {
      t.fail(`${f.name}: no query uses it in this test`);
      continue;
    }
    const answer = await post(`${base}/sql`, { query });
    t.equal(answer.status, 200, `${f.name}: ${query}`);
  }
  const unlisted = await post(`${base}/sql`, { query: 'SELECT SOUNDEX(hash) FROM transactions' });
  t.equal(unlisted.status, 400, 'a function not listed is refused');
  t.same(
    (await sql("SHOW FUNCTIONS LIKE 'M%'")).rows.map((r) => r[0]),
    FUNCTIONS.filter((f) => f.name.startsWith('M')).map((f) => f.name),
  );
});

t.test('an unknown column or table names the closest', async (t) => {
  const column = await post(`${base}/sql`, {
    query: "SELECT hash FROM transactions WHERE TransactonType = 'Payment'",
  });
  t.equal(column.status, 400);
  t.match(column.json, { error: { code: 'INVALID_QUERY', message: /did you mean \[TransactionType\]/ } });
  const table = await post(`${base}/sql`, { query: 'SELECT COUNT(*) FROM acounts' });
  t.match(table.json, {
    error: { code: 'INVALID_QUERY', message: /did you mean \[accounts\]/, details: { clause: 'FROM', line: 1 } },
  });
});
