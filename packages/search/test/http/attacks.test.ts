import t from 'tap';
import { rangeIndices } from '@xle/core';
import { loadedIndices, post, serveSearch } from '../fixtures/serve.js';

const target = await loadedIndices(t);
const base = await serveSearch(t, target);
const prefix = `${target.naming.prefix}-`;

/** Every index of the cluster with its document count, and every template: what an attack could change. */
async function clusterState(): Promise<unknown> {
  const indices = await target.client.cat.indices({ format: 'json', h: 'index,docs.count', expand_wildcards: 'all' });
  const rows = (indices as { index?: string; 'docs.count'?: string }[])
    .filter((i) => i.index?.startsWith(prefix) === true)
    .map((i) => `${i.index}=${i['docs.count']}`)
    .sort();
  const templates = await target.client.indices.getIndexTemplate({ name: `${target.naming.prefix}*` });
  return { rows, templates: templates.index_templates.map((x) => x.name).sort() };
}

const nested = (depth: number): unknown => (depth === 0 ? { match_all: {} } : { bool: { must: [nested(depth - 1)] } });
const nestedAggs = (depth: number): Record<string, unknown> =>
  depth === 0
    ? { terms: { field: 'Account' } }
    : { terms: { field: 'Account' }, aggs: { inner: nestedAggs(depth - 1) } };

/** Hostile SQL texts: writes, stacked statements, other indices, comment and unicode tricks, sizes. */
const SQL_ATTACKS: string[] = [
  'DROP TABLE transactions',
  'DELETE FROM transactions WHERE 1 = 1',
  "INSERT INTO transactions (hash) VALUES ('x')",
  "UPDATE transactions SET Fee = '0'",
  'TRUNCATE TABLE transactions',
  'ALTER TABLE transactions DROP COLUMN hash',
  'CREATE TABLE evil (a INT)',
  'GRANT ALL ON transactions TO public',
  'SELECT hash FROM transactions; DROP TABLE transactions',
  'SELECT hash FROM transactions; DELETE FROM transactions',
  'SELECT hash FROM transactions /* hidden */; DROP TABLE transactions',
  "SELECT hash FROM transactions WHERE hash = '' OR 1 = 1",
  "SELECT hash FROM transactions WHERE hash = ''; --'\nDROP TABLE transactions",
  'SELECT hash FROM transactions UNION SELECT Account FROM accounts',
  'SELECT * FROM "api-keys"',
  'SELECT * FROM usage',
  'SELECT * FROM "sql-cursors"',
  'DESCRIBE "api-keys"',
  'SHOW COLUMNS FROM "ingest-state" LIKE \'%\'',
  'SELECT * FROM ".security"',
  'SELECT * FROM ".kibana"',
  `SELECT * FROM "${prefix}mainnet-accounts"`,
  'SELECT * FROM "*"',
  'SELECT * FROM "transactions,accounts"',
  'SELECT * FROM other.transactions',
  'SELECT a.hash FROM transactions a JOIN accounts b ON a.Account = b.Account',
  'SELECT hash FROM transactions WHERE ledger_index > (SELECT MAX(ledger_index) FROM ledgers)',
  "SELECT hash FROM transactions WHERE MATCH(hash, 'x', 'script=doc.size()')",
  "SELECT SCRIPT('return 1') FROM transactions",
  "SELECT hash INTO OUTFILE '/tmp/x' FROM transactions",
  'SELECT hash FROM transactions FOR UPDATE',
  'SHOW DATABASES',
  'SHOW TABLES; DROP TABLE transactions',
  'EXPLAIN SELECT hash FROM transactions',
  "LOAD DATA INFILE '/etc/passwd' INTO TABLE transactions",
  'SELECT pg_sleep(10)',
  'SELECT hash FROM transactions\u037e DROP TABLE transactions',
  'ＳＥＬＥＣＴ hash FROM transactions',
  'SELECT hash FROM trans\u200bactions',
  "SELECT hash FROM transactions WHERE hash = '\u0000' OR ledger_index + 0 = 1",
  `SELECT hash FROM transactions WHERE ${'('.repeat(500)}ledger_index = 1${')'.repeat(500)}`,
  `SELECT ${Array.from({ length: 3000 }, () => 'hash').join(', ')} FROM transactions`,
  `SELECT hash FROM transactions WHERE hash IN (${Array.from({ length: 3000 }, (_, i) => `'${i}'`).join(',')})`,
  'SELECT Account, COUNT(*) AS n FROM transactions GROUP BY Account ORDER BY n DESC LIMIT 1000000',
];

/** Hostile search bodies: scripts everywhere, other indices, huge sizes, deep nesting. */
const DSL_ATTACKS: [string, unknown][] = [
  ['script query', { query: { script: { script: { source: '1 == 1' } } } }],
  ['upper-case script key', { query: { bool: { filter: [{ SCRIPT: { script: 'true' } }] } } }],
  ['script fields', { script_fields: { x: { script: { source: "doc['Fee']" } } } }],
  ['runtime mappings', { runtime_mappings: { x: { type: 'keyword', script: 'emit("1")' } } }],
  ['scripted metric', { aggs: { x: { scripted_metric: { map_script: 'state.x = 1' } } } }],
  [
    'bucket script',
    { aggs: { x: { terms: { field: 'Account' }, aggs: { y: { bucket_script: { buckets_path: {}, script: '1' } } } } } },
  ],
  [
    'bucket selector',
    {
      aggs: { x: { terms: { field: 'Account' }, aggs: { y: { bucket_selector: { buckets_path: {}, script: '1' } } } } },
    },
  ],
  ['script score', { query: { script_score: { query: { match_all: {} }, script: { source: '1' } } } }],
  ['function score with a script', { query: { function_score: { functions: [{ script_score: { script: '1' } }] } } }],
  ['terms lookup into another index', { query: { terms: { Account: { index: 'accounts', id: 'x', path: 'y' } } } }],
  [
    'more like this another index',
    { query: { more_like_this: { fields: ['hash'], like: [{ _index: 'accounts', _id: '1' }] } } },
  ],
  ['percolate', { query: { percolate: { field: 'q', index: 'accounts', id: '1' } } }],
  ['indexed shape', { query: { geo_shape: { loc: { indexed_shape: { index: 'accounts', id: '1', path: 's' } } } } }],
  ['wrapper query', { query: { wrapper: { query: Buffer.from('{"match_all":{}}').toString('base64') } } }],
  ['indices boost', { indices_boost: [{ accounts: 2 }] }],
  ['profile', { profile: true, query: { match_all: {} } }],
  ['stored fields', { stored_fields: ['*'] }],
  ['an index in the body', { index: 'accounts', query: { match_all: {} } }],
  ['server timeout override', { timeout: '1d' }],
  ['huge size', { size: 1_000_000 }],
  ['deep from', { from: 9_995, size: 10 }],
  ['negative from', { from: -1 }],
  ['size as text', { size: '10; DROP' }],
  ['huge terms size', { aggs: { x: { terms: { field: 'Account', size: 1_000_000 } } } }],
  ['huge top hits', { aggs: { x: { top_hits: { size: 5000 } } } }],
  ['aggregations nested 6 deep', { aggs: { x: nestedAggs(6) } }],
  [
    '40 aggregations',
    { aggs: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`a${i}`, { max: { field: 'ledger_index' } }])) },
  ],
  ['query nested 40 deep', { query: nested(40) }],
  ['forged point in time', { pit: { id: 'Zm9yZ2Vk.AAAA' } }],
  ['point in time kept for days', { pit: { id: 'x', keep_alive: '100d' } }],
  ['not an object', ['match_all']],
];

t.test('hostile SQL and search bodies are refused with a 400, and nothing changes', async (t) => {
  t.ok(SQL_ATTACKS.length + DSL_ATTACKS.length >= 50, `${SQL_ATTACKS.length + DSL_ATTACKS.length} attacks`);
  const before = await clusterState();
  for (const sql of SQL_ATTACKS) {
    const answer = await post(`${base}/sql`, { query: sql });
    const label = `SQL: ${sql.slice(0, 70)}`;
    t.equal(answer.status, 400, label);
    t.match(
      answer.json,
      { error: { code: /^(FORBIDDEN_QUERY|UNSUPPORTED_SQL|INVALID_QUERY|QUERY_LIMIT_EXCEEDED|INVALID_PARAMETER)$/ } },
      label,
    );
  }
  for (const [name, body] of DSL_ATTACKS) {
    const answer = await post(`${base}/search`, body);
    t.equal(answer.status, 400, `DSL: ${name}`);
    t.match(answer.json, { error: { code: String, message: String } }, `DSL: ${name}`);
  }
  for (const [what, url, body] of [
    ['another index by parameter', `${base}/search?index=secrets`, { query: { match_all: {} } }],
    ['a forged cursor', `${base}/sql`, { cursor: 'eyJrIjoic3FsIn0.AAAAAAAAAAAAAAAAAAAAAAAA' }],
    ['a format path', `${base}/sql`, { query: 'SELECT hash FROM transactions', format: '../../etc/passwd' }],
    ['a body that is not JSON', `${base}/sql`, '{"query": "SELECT'],
  ] as [string, string, unknown][]) {
    const answer = await post(url, body);
    t.equal(answer.status, 400, what);
  }
  await target.client.indices.refresh({ index: `${prefix}*` });
  t.same(await clusterState(), before, 'every index and template unchanged');
});

t.test('an oversized body is refused before it is parsed', async (t) => {
  const answer = await post(`${base}/search`, {
    query: { terms: { hash: Array.from({ length: 5000 }, (_, i) => `${i}`.padStart(64, '0')) } },
  });
  t.equal(answer.status, 413);
  t.match(answer.json, { error: { code: 'PAYLOAD_TOO_LARGE' } });
});

t.test('passing bodies reach the engine unchanged and come back in the search envelope', async (t) => {
  const body = {
    query: { bool: { must: [{ term: { TransactionType: 'Payment' } }] } },
    sort: [{ ledger_index: 'desc' }, { hash: 'asc' }],
    size: 3,
    track_total_hits: true,
    _source: ['hash', 'ledger_index'],
    aggs: { results: { terms: { field: 'meta.TransactionResult' } } },
  };
  const answer = await post(`${base}/search`, body);
  t.equal(answer.status, 200);
  // The alias spans one index per ledger range the fixtures fall in, one shard each.
  const ranges = await rangeIndices(target.client, target.naming, 'transactions');
  t.ok(ranges.length > 1, `${ranges.length} range indices`);
  t.match(answer.json, {
    took: Number,
    timed_out: false,
    _shards: { total: ranges.length, successful: ranges.length, failed: 0 },
    hits: {
      total: { value: Number, relation: 'eq' },
      hits: [{ _index: 'transactions', _id: String, _source: { hash: String }, sort: Array }],
    },
    aggregations: { results: { buckets: Array } },
  });
  const after = (answer.json as { hits: { hits: { sort: unknown[] }[] } }).hits.hits[2]?.sort;
  const next = await post(`${base}/search`, { ...body, search_after: after });
  t.equal(next.status, 200, 'search_after pages on');
  const ledgers = await post(`${base}/search?index=ledgers`, { size: 1, sort: [{ ledger_index: 'desc' }] });
  t.match(
    ledgers.json,
    { hits: { hits: [{ _index: 'ledgers', _source: { ledger_index: 94084608 } }] } },
    'allow-listed index',
  );
});

t.test('a body that names a field the index does not have is a 400 naming it and the closest fields', async (t) => {
  const typo = await post(`${base}/search`, { query: { term: { Acount: 'rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y' } } });
  t.equal(typo.status, 400, 'a typo is not an empty result');
  t.match(typo.json, {
    error: {
      code: 'INVALID_QUERY',
      message: /Acount .*did you mean Account/,
      details: { path: '$.query.term.Acount', field: 'Acount' },
    },
  });
  t.equal(
    (typo.json as { error: { details: { closest: string[] } } }).error.details.closest[0],
    'Account',
    'the closest mapped name first',
  );
  const stored = await post(`${base}/search`, {
    query: { term: { 'meta.AffectedNodes.ModifiedNode.FinalFields.Account': 'rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y' } },
  });
  t.equal(stored.status, 400);
  t.match(stored.json, {
    error: {
      code: 'INVALID_QUERY',
      message: /kept in the transactions documents but not indexed: query meta\._objects/,
      details: { stored_only: 'meta.AffectedNodes' },
    },
  });
  const cases: [string, unknown, string][] = [
    ['sort', { sort: [{ ledger_idx: 'desc' }] }, '$.sort[0].ledger_idx'],
    ['aggregation', { aggs: { a: { terms: { field: 'TransactionTyp' } } } }, '$.aggs.a.terms.field'],
    [
      'nested bool',
      { query: { bool: { filter: [{ bool: { must_not: [{ exists: { field: 'Destinaton' } }] } }] } } },
      '$.query.bool.filter[0].bool.must_not[0].exists.field',
    ],
    ['post_filter', { post_filter: { range: { ledger: { gte: 1 } } } }, '$.post_filter.range.ledger'],
    [
      'composite source',
      { aggs: { c: { composite: { sources: [{ k: { terms: { field: 'Acount' } } }] } } } },
      '$.aggs.c.composite.sources[0].k.terms.field',
    ],
  ];
  for (const [what, body, path] of cases) {
    const answer = await post(`${base}/search`, body);
    t.match(answer, { status: 400, json: { error: { code: 'INVALID_QUERY', details: { path } } } }, what);
  }
  // What stays valid: mapped fields and their multi-fields, objects for exists, nested paths,
  // patterns, metadata fields, a sort that declares the field may be unmapped, other indices' fields.
  const valid: [string, unknown][] = [
    ['object exists', { query: { exists: { field: 'Amount' } } }],
    ['leaf of an amount', { query: { range: { 'Amount._value': { gt: 1 } } } }],
    ['pattern', { query: { exists: { field: 'Memos*' } } }],
    ['nested', { query: { nested: { path: '_exchanges', query: { term: { '_exchanges.counter': 'XRP' } } } } }],
    ['metadata', { sort: ['_doc', { _score: 'desc' }], query: { ids: { values: ['A'] } } }],
    ['unmapped_type', { sort: [{ NoSuchField: { order: 'asc', unmapped_type: 'long' } }] }],
    ['stored meta objects', { query: { terms: { 'meta._types': ['AMM'] } } }],
  ];
  for (const [what, body] of valid) t.equal((await post(`${base}/search`, body)).status, 200, what);
  const ledgers = await post(`${base}/search?index=ledgers`, { query: { term: { Account: 'x' } } });
  t.match(
    ledgers,
    { status: 400, json: { error: { details: { field: 'Account' } } } },
    'checked against its own index',
  );
  t.equal((await post(`${base}/search?index=accounts`, { query: { term: { Account: 'x' } } })).status, 200);
});

t.test('a point in time opened here pages a search, and only signed ids are accepted', async (t) => {
  const opened = await post(`${base}/search/pit?keep_alive=1m`, {});
  t.equal(opened.status, 200);
  const id = (opened.json as { id: string }).id;
  const first = await post(`${base}/search`, {
    pit: { id, keep_alive: '1m' },
    size: 5,
    sort: [{ ledger_index: 'asc' }],
  });
  t.equal(first.status, 200);
  const json = first.json as { pit_id: string; hits: { hits: { sort: unknown[] }[] } };
  t.ok(json.pit_id.includes('.'), 'the answer carries a signed point-in-time id');
  const second = await post(`${base}/search`, {
    pit: { id: json.pit_id },
    size: 5,
    sort: [{ ledger_index: 'asc' }],
    search_after: json.hits.hits[4]?.sort,
  });
  t.equal(second.status, 200);
  const tampered = `${id.slice(0, -2)}${id.endsWith('AA') ? 'BB' : 'AA'}`;
  const refused = await post(`${base}/search`, { pit: { id: tampered } });
  t.match(refused.json, { error: { code: 'INVALID_CURSOR' } });
  const closed = await fetch(`${base}/search/pit`, {
    method: 'DELETE',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id }),
  });
  t.equal(closed.status, 200);
  const spent = await post(`${base}/search`, { pit: { id: json.pit_id }, size: 1 });
  t.equal(spent.status, 400, 'a closed point in time is a 400, not a 500');
  t.match(spent.json, { error: { code: 'INVALID_CURSOR' } });
});
