import t from 'tap';
import { loadTemplateSet } from '@xle/core';
import { likeMatcher, showPlan, showStatement } from '../../src/sql/show.js';
import { TABLES } from '../../src/sql/plan.js';
import { SCALAR_FUNCTIONS } from '../../src/sql/expressions.js';
import { FUNCTIONS } from '../../src/sql/show.js';
import { translateSql } from '../../src/sql/translate.js';
import { templateSchemas } from '../fixtures/schemas.js';

t.test('schema statements are recognised, with their table and LIKE pattern', async (t) => {
  t.same(showStatement('SHOW TABLES'), { show: 'tables' });
  t.same(showStatement("  show tables like 'tr%' ; "), { show: 'tables', like: 'tr%' });
  t.same(showStatement('DESCRIBE transactions'), { show: 'columns', table: 'transactions' });
  t.same(showStatement('desc "ledgers"'), { show: 'columns', table: 'ledgers' });
  t.same(showStatement("SHOW COLUMNS FROM transactions LIKE 'Amount.%'"), {
    show: 'columns',
    table: 'transactions',
    like: 'Amount.%',
  });
  t.same(showStatement('SHOW COLUMNS IN objects'), { show: 'columns', table: 'objects' });
  t.same(showStatement("SHOW FUNCTIONS LIKE 'PERCENT%'"), { show: 'functions', like: 'PERCENT%' });
  for (const other of ['SELECT 1', 'SHOW DATABASES', 'DESCRIBE', 'SHOW TABLES; DROP TABLE x', 'DESCRIBE a b'])
    t.equal(showStatement(other), undefined, other);
});

t.test('LIKE: % any run, _ one character, everything else literal', async (t) => {
  const like = likeMatcher('Amount._v%');
  t.ok(like('Amount._value'));
  t.notOk(like('AmountX_value'), 'a dot is a dot');
  t.ok(likeMatcher('_ate')('date'));
  t.notOk(likeMatcher('_ate')('_date'));
  t.ok(likeMatcher(undefined)('anything'));
  // Runs of % that a regular expression would backtrack through without bound.
  t.notOk(likeMatcher(`${'%'.repeat(40)}!`)('Memos.Memo._MemoData.somewhat_long'), 'a long run of % stays linear');
  t.ok(likeMatcher('%a%b%c%')('xxaxxbxxcxx'));
  t.notOk(likeMatcher('%a%b%c%d')('xxaxxbxxcxx'));
});

t.test('spaces around a schema statement cost what they weigh', async (t) => {
  t.equal(showStatement(`SHOW TABLES${' '.repeat(16_000)}x`), undefined);
  t.same(showStatement(`  SHOW TABLES${' '.repeat(16_000)};  `), { show: 'tables' });
});

t.test('DESCRIBE lists the mapping: types, selectable, searchable, descriptions', async (t) => {
  const plan = showPlan({ show: 'columns', table: 'transactions' }, templateSchemas);
  t.same(
    plan.columns.map((c) => c.name),
    ['column', 'type', 'mapping', 'selectable', 'searchable', 'description'],
  );
  const byName = new Map(plan.rows.map((r) => [r[0] as string, r]));
  t.same(byName.get('_date'), ['_date', 'datetime', 'date', true, true, 'Close time of the ledger, ISO 8601 UTC']);
  t.same(byName.get('_Fee')?.slice(1, 5), ['double', 'double', true, true]);
  t.same(byName.get('meta.AffectedNodes')?.slice(1, 5), ['object', 'object', false, false], 'stored only');
  t.equal(byName.get('TxnSignature')?.[4], false, 'TxnSignature is stored, neither indexed nor in doc values');
  const selectable = plan.rows.filter((r) => r[3] === true).map((r) => r[0]);
  const star = translateSql('SELECT * FROM transactions', templateSchemas);
  t.same(
    selectable,
    star.columns.map((c) => c.name),
    'the selectable columns are what SELECT * returns',
  );
  t.throws(() => showPlan({ show: 'columns', table: 'transaction' }, templateSchemas), {
    code: 'INVALID_QUERY',
    message: /Unknown table \[transaction\]; did you mean \[transactions\]\?/,
  });
});

t.test('every column a template describes is a column of its table', async (t) => {
  const set = loadTemplateSet();
  for (const [name, table] of Object.entries(TABLES)) {
    const mappings = (set.indices.get(table.kind)?.template as { mappings?: { _meta?: { columns?: object } } })
      ?.mappings;
    const described = Object.keys(mappings?._meta?.columns ?? {});
    const schema = templateSchemas(table.kind);
    const missing = described.filter((c) => !schema.has(c));
    t.same(missing, [], `${name}: ${described.length} described columns`);
  }
});

t.test('SHOW TABLES names every table, and each has a template', async (t) => {
  const plan = showPlan({ show: 'tables' }, templateSchemas);
  t.same(
    plan.rows.map((r) => r[0]),
    Object.keys(TABLES),
  );
  const set = loadTemplateSet();
  for (const table of Object.values(TABLES)) t.ok(set.indices.has(table.kind), table.kind);
  t.same(
    showPlan({ show: 'tables', like: 'a%' }, templateSchemas).rows.map((r) => r[0]),
    ['accounts', 'activations', 'amendments'],
  );
});

t.test('an unknown column names the closest, and a double-quoted string is called out', async (t) => {
  t.throws(() => translateSql("SELECT hash FROM transactions WHERE TransactonType = 'Payment'", templateSchemas), {
    code: 'INVALID_QUERY',
    message: /Unknown column \[TransactonType\]; did you mean \[TransactionType\]/,
  });
  t.throws(() => translateSql('SELECT hash FROM transactions WHERE TransactionType = "Payment"', templateSchemas), {
    code: 'INVALID_QUERY',
    message: /double-quoted "Payment" names a column; write the string 'Payment' in single quotes/,
  });
  t.throws(() => translateSql('SELECT hash FROM transaction', templateSchemas), {
    code: 'INVALID_QUERY',
    message: /did you mean \[transactions\]/,
  });
});

t.test('SHOW FUNCTIONS lists exactly the scalar functions the evaluator knows', async (t) => {
  t.same(
    FUNCTIONS.filter((f) => f.type === 'SCALAR')
      .map((f) => f.name)
      .filter((n) => !['CASE', 'CAST', 'EXTRACT'].includes(n))
      .sort(),
    [...SCALAR_FUNCTIONS].sort(),
  );
  t.equal(new Set(FUNCTIONS.map((f) => f.name)).size, FUNCTIONS.length, 'each listed once');
});
