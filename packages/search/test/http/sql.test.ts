import t, { type Test } from 'tap';
import { indexName } from '@xle/core';
import { FORMATS, MEDIA_TYPES, textOf, type Format } from '../../src/index.js';
import { decodeAnswer } from '../fixtures/decode.js';
import { loadedIndices, post, serveSearch } from '../fixtures/serve.js';

const target = await loadedIndices(t);
const base = await serveSearch(t, target);
const transactions = indexName(target.naming, 'transactions');

type Row = unknown[];

/** The same rows as text, for formats that only carry text. */
const asText = (rows: Row[], format: Format): string[][] =>
  rows.map((r) => r.map((v) => (v === null && (format === 'txt' || format === 'text') ? 'null' : textOf(v))));

async function sqlRows(
  query: string,
  format: Format,
): Promise<{ columns?: { name: string }[]; rows: unknown[][]; textual: boolean }> {
  const answer = await post(`${base}/sql?format=${format}`, { query });
  if (answer.status !== 200) throw new Error(`${format}: ${answer.status} ${answer.text.slice(0, 300)}`);
  return decodeAnswer(format, answer.bytes);
}

/** Checks one SQL question in every format against the expected rows. */
async function checkEveryFormat(t: Test, query: string, columns: string[], expected: Row[]): Promise<void> {
  for (const format of FORMATS) {
    const decoded = await sqlRows(query, format);
    t.same(
      decoded.columns?.map((c) => c.name),
      columns,
      `${format}: columns`,
    );
    if (decoded.textual) t.same(decoded.rows, asText(expected, format), `${format}: rows`);
    else t.same(decoded.rows, expected, `${format}: rows`);
  }
}

t.test('rows: SQL, /search and the engine agree, in every format', async (t) => {
  const query =
    'SELECT hash, ledger_index, "Amount._value" AS amount, _date FROM transactions WHERE TransactionType = \'Payment\' AND ledger_index >= 83258110 ORDER BY ledger_index DESC, hash LIMIT 300';
  const dsl = {
    query: {
      bool: {
        filter: [{ term: { TransactionType: 'Payment' } }, { range: { ledger_index: { gte: 83258110 } } }],
      },
    },
    sort: [{ ledger_index: 'desc' }, { hash: 'asc' }],
    size: 300,
    _source: ['hash', 'ledger_index', 'Amount._value', '_date'],
  };
  const direct = await target.client.search<Record<string, unknown>>({ index: transactions, ...dsl } as never);
  const viaSearch = (await post(`${base}/search`, dsl)).json as {
    hits: { hits: { _source: Record<string, unknown> }[] };
  };
  const toRow = (s: Record<string, unknown>): Row => [
    s.hash,
    s.ledger_index,
    (s.Amount as { _value?: number } | undefined)?._value ?? null,
    s._date,
  ];
  const expected = direct.hits.hits.map((h) => toRow(h._source ?? {}));
  t.ok(expected.length > 50, `${expected.length} payments`);
  t.same(
    viaSearch.hits.hits.map((h) => toRow(h._source)),
    expected,
    '/search returns the engine answer',
  );
  await checkEveryFormat(t, query, ['hash', 'ledger_index', 'amount', '_date'], expected);
  const json = (await post(`${base}/sql`, { query })).json as { columns: { name: string; type: string }[] };
  t.same(json.columns, [
    { name: 'hash', type: 'keyword' },
    { name: 'ledger_index', type: 'long' },
    { name: 'amount', type: 'double' },
    { name: '_date', type: 'datetime' },
  ]);
});

t.test('GROUP BY: SQL, a /search aggregation and the engine agree, in every format', async (t) => {
  const query =
    'SELECT TransactionType, COUNT(*) AS n, SUM(_Fee) AS fees, COUNT(DISTINCT Account) AS senders FROM transactions GROUP BY TransactionType';
  const dsl = {
    size: 0,
    aggs: {
      types: {
        terms: { field: 'TransactionType', size: 100, order: { _key: 'asc' } },
        aggs: { fees: { sum: { field: '_Fee' } }, senders: { cardinality: { field: 'Account' } } },
      },
    },
  };
  type Agg = {
    types: { buckets: { key: string; doc_count: number; fees: { value: number }; senders: { value: number } }[] };
  };
  const direct = await target.client.search({ index: transactions, ...dsl } as never);
  const viaSearch = (await post(`${base}/search`, dsl)).json as { aggregations: Agg };
  const buckets = (direct.aggregations as unknown as Agg).types.buckets;
  const expected = buckets.map((b) => [b.key, b.doc_count, b.fees.value, b.senders.value]);
  t.ok(expected.length > 3, `${expected.length} transaction types`);
  t.same(viaSearch.aggregations, direct.aggregations, '/search returns the engine aggregation');
  await checkEveryFormat(t, query, ['TransactionType', 'n', 'fees', 'senders'], expected);
});

t.test('HAVING, ORDER BY an aggregate, LIMIT and OFFSET', async (t) => {
  const all = (
    (await post(`${base}/sql`, { query: 'SELECT Account, COUNT(*) AS n FROM transactions GROUP BY Account' })).json as {
      rows: [string, number][];
    }
  ).rows;
  const busy = all.filter(([, n]) => n > 5);
  const having = (
    (
      await post(`${base}/sql`, {
        query: 'SELECT Account, COUNT(*) AS n FROM transactions GROUP BY Account HAVING COUNT(*) > 5',
      })
    ).json as { rows: [string, number][] }
  ).rows;
  t.same(having, busy, 'HAVING keeps the groups it should');
  const top = [...all].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(2, 7);
  const ordered = (
    (
      await post(`${base}/sql`, {
        query: 'SELECT Account, COUNT(*) AS n FROM transactions GROUP BY Account ORDER BY n DESC LIMIT 5 OFFSET 2',
      })
    ).json as { rows: [string, number][] }
  ).rows;
  t.same(
    ordered.map((r) => r[1]),
    top.map((r) => r[1]),
    'the counts of the 3rd to 7th busiest accounts',
  );
  // Without LIMIT (every group, as Elasticsearch SQL sorts up to 10,000), paged by fetch_size.
  const query = 'SELECT Account, COUNT(*) AS n FROM transactions GROUP BY Account ORDER BY n DESC, Account';
  const paged: [string, number][] = [];
  let page = (await post(`${base}/sql`, { query, fetch_size: 7 })).json as {
    rows: [string, number][];
    cursor?: string;
  };
  let pages = 1;
  paged.push(...page.rows);
  while (page.cursor !== undefined) {
    page = (await post(`${base}/sql`, { cursor: page.cursor })).json as typeof page;
    t.ok(page.rows.length <= 7);
    paged.push(...page.rows);
    pages += 1;
  }
  const sorted = [...all].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  t.same(paged, sorted, `${all.length} groups in ${pages} pages of 7, sorted by count then account`);
  t.ok(pages >= 10, `${pages} pages`);
  const tooMany = await post(`${base}/sql`, { query: `${query} LIMIT 10001` });
  t.equal(tooMany.status, 400);
  t.match(tooMany.json, { error: { code: 'QUERY_LIMIT_EXCEEDED', message: /at most 10000/ } });
});

t.test('OFFSET without LIMIT skips rows and returns the rest; LIMIT ALL limits nothing', async (t) => {
  const rowsOf = async (query: string): Promise<unknown[][]> => {
    const answer = await post(`${base}/sql`, { query });
    t.equal(answer.status, 200, query);
    return (answer.json as { rows: unknown[][] }).rows;
  };
  const payments = await rowsOf(
    "SELECT hash FROM transactions WHERE TransactionType = 'Payment' ORDER BY ledger_index, hash LIMIT 10000",
  );
  t.ok(payments.length > 100, `${payments.length} payments`);
  const skip = payments.length - 10;
  t.same(
    await rowsOf(
      `SELECT hash FROM transactions WHERE TransactionType = 'Payment' ORDER BY ledger_index, hash OFFSET ${skip}`,
    ),
    payments.slice(skip),
    `OFFSET ${skip} alone: the last 10, not the first ${skip}`,
  );
  t.same(
    await rowsOf(
      "SELECT hash FROM transactions WHERE TransactionType = 'Payment' ORDER BY ledger_index, hash LIMIT ALL OFFSET 5",
    ),
    payments.slice(5),
    'LIMIT ALL OFFSET 5',
  );
  const groups = await rowsOf('SELECT Account, COUNT(*) AS n FROM transactions GROUP BY Account');
  t.ok(groups.length > 20);
  t.same(
    await rowsOf(`SELECT Account, COUNT(*) AS n FROM transactions GROUP BY Account OFFSET ${groups.length - 7}`),
    groups.slice(groups.length - 7),
    'GROUP BY … OFFSET: the last 7 groups',
  );
});

t.test('NULL is unknown: a negation never returns rows without the column, as SQL says', async (t) => {
  const countOf = async (where: string): Promise<number> => {
    const answer = await post(`${base}/sql`, { query: `SELECT COUNT(*) AS n FROM transactions WHERE ${where}` });
    t.equal(answer.status, 200, where);
    return (answer.json as { rows: [number][] }).rows[0]![0];
  };
  const engineCount = async (query: object): Promise<number> =>
    (await target.client.count({ index: transactions, query })).count;
  const tagged = await engineCount({ exists: { field: 'DestinationTag' } });
  const tag999 = await engineCount({ term: { DestinationTag: 999 } });
  const all = await engineCount({ match_all: {} });
  t.ok(tagged > 0 && tagged < all, `${tagged} of ${all} transactions have a DestinationTag`);
  t.equal(await countOf('DestinationTag <> 999'), tagged - tag999, '<> counts only rows with a tag');
  t.equal(await countOf('DestinationTag != 999'), tagged - tag999);
  t.equal(await countOf('DestinationTag NOT IN (999)'), tagged - tag999, 'NOT IN too');
  t.equal(
    await countOf('NOT (DestinationTag > 5)'),
    await engineCount({ range: { DestinationTag: { lte: 5 } } }),
    'NOT (x > 5) is x <= 5, never a row without x',
  );
  t.equal(
    await countOf('NOT (DestinationTag > 5 OR DestinationTag IS NULL)'),
    await engineCount({ range: { DestinationTag: { lte: 5 } } }),
    'NOT (a OR b): false only where both are false',
  );
  t.equal(
    await countOf("NOT (DestinationTag > 5 AND TransactionType = 'Payment')"),
    await engineCount({
      bool: {
        should: [
          { range: { DestinationTag: { lte: 5 } } },
          {
            bool: {
              filter: [{ exists: { field: 'TransactionType' } }],
              must_not: [{ term: { TransactionType: 'Payment' } }],
            },
          },
        ],
        minimum_should_match: 1,
      },
    }),
    'NOT (a AND b): false where either is false',
  );
  t.equal(await countOf('NOT (DestinationTag IS NULL)'), tagged, 'IS NULL is never unknown');
  t.equal(
    await countOf("InvoiceID NOT LIKE 'A%'"),
    await engineCount({
      bool: { filter: [{ exists: { field: 'InvoiceID' } }], must_not: [{ prefix: { InvoiceID: 'A' } }] },
    }),
    'NOT LIKE only over rows with the column',
  );
});

t.test('a date literal is an instant; SUM over no rows is NULL', async (t) => {
  const rowsOf = async (query: string): Promise<unknown[][]> => {
    const answer = await post(`${base}/sql`, { query });
    t.equal(answer.status, 200, query);
    return (answer.json as { rows: unknown[][] }).rows;
  };
  const day = '2015-01-14';
  const wholeDay = (
    await rowsOf(`SELECT COUNT(*) FROM transactions WHERE _date >= '${day}' AND _date < '2015-01-15'`)
  )[0]![0] as number;
  t.ok(wholeDay > 0, `${wholeDay} transactions on ${day}`);
  const midnight = (
    await target.client.count({ index: transactions, query: { term: { _date: `${day}T00:00:00.000Z` } } })
  ).count;
  t.same(
    await rowsOf(`SELECT COUNT(*) FROM transactions WHERE _date = '${day}'`),
    [[midnight]],
    '= a date: its midnight',
  );
  t.match(await post(`${base}/sql`, { query: "SELECT hash FROM transactions WHERE _date > 'yesterday'" }), {
    status: 400,
    json: { error: { code: 'INVALID_QUERY', message: /is not a date/ } },
  });
  t.match(await post(`${base}/sql`, { query: `SELECT hash FROM transactions WHERE "Amount.value" > '1000'` }), {
    status: 400,
    json: { error: { code: 'INVALID_QUERY', message: /compare \[Amount\._value\]/ } },
  });
  t.equal(
    (await rowsOf(`SELECT COUNT(*) FROM transactions WHERE "Amount._value" > 1000`))[0]![0],
    (await target.client.count({ index: transactions, query: { range: { 'Amount._value': { gt: 1000 } } } })).count,
    'the number compares as a number',
  );
  t.same(
    await rowsOf("SELECT SUM(Fee) AS fees, COUNT(*) AS n FROM transactions WHERE TransactionType = 'NoSuchType'"),
    [[null, 0]],
    'SUM over no rows is NULL, COUNT 0',
  );
  const fees = await rowsOf("SELECT SUM(DestinationTag) FROM transactions WHERE TransactionType = 'OfferCreate'");
  t.same(fees, [[null]], 'SUM of a column no matching row has is NULL too');
});

t.test('global aggregates and date buckets', async (t) => {
  const total = await target.client.count({ index: transactions });
  const one = (
    await post(`${base}/sql`, {
      query: 'SELECT COUNT(*) AS n, MIN(_date) AS first, MAX(ledger_index) AS last FROM transactions',
    })
  ).json as {
    rows: [number, string, number][];
  };
  t.equal(one.rows.length, 1);
  t.equal(one.rows[0]?.[0], total.count, 'COUNT(*) is the index count');
  t.match(one.rows[0]?.[1], /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, 'dates in ISO 8601');
  t.equal(one.rows[0]?.[2], 94084608);
  const days = (
    await post(`${base}/sql`, {
      query: "SELECT DATE_TRUNC('day', _date) AS day, COUNT(*) AS n FROM transactions GROUP BY day",
    })
  ).json as { rows: [string, number][] };
  t.equal(
    days.rows.reduce((sum, [, n]) => sum + n, 0),
    total.count,
    'every transaction falls in one day bucket',
  );
  const histogram = (
    await post(`${base}/sql`, {
      query: 'SELECT HISTOGRAM(_date, INTERVAL 1 DAY) AS day, COUNT(*) AS n FROM transactions GROUP BY day',
    })
  ).json as { rows: unknown[] };
  t.same(histogram.rows, days.rows, 'HISTOGRAM by one day is DATE_TRUNC to the day');
});

t.test('full-text MATCH on decoded memos', async (t) => {
  const found = await target.client.search<{ hash: string }>({
    index: transactions,
    query: { exists: { field: 'Memos.Memo._MemoData' } },
    size: 1,
    _source: ['hash', 'Memos'],
  });
  const memo = (found.hits.hits[0]?._source as { Memos?: { Memo: { _MemoData?: string } }[] } | undefined)?.Memos?.[0]
    ?.Memo._MemoData;
  t.ok(memo !== undefined, 'the fixtures hold a decoded memo');
  const word = (memo ?? '').split(/[^A-Za-z0-9]+/).find((w) => w.length >= 3) ?? 'x';
  const direct = await target.client.search({
    index: transactions,
    query: { match: { 'Memos.Memo._MemoData': word } },
    size: 1000,
    _source: ['hash'],
  });
  const viaSql = (
    await post(`${base}/sql`, {
      query: `SELECT hash FROM transactions WHERE MATCH("Memos.Memo._MemoData", '${word.replaceAll("'", "''")}')`,
    })
  ).json as {
    rows: [string][];
  };
  t.same(
    viaSql.rows.map((r) => r[0]).sort(),
    direct.hits.hits.map((h) => (h._source as { hash: string }).hash).sort(),
    `MATCH(memo, '${word}') finds what the engine's match query finds`,
  );
});

t.test('fetch_size pages with a cursor reach every row exactly once, in json and csv', async (t) => {
  const query = 'SELECT hash FROM transactions ORDER BY ledger_index, hash';
  const everything = ((await post(`${base}/sql`, { query })).json as { rows: [string][] }).rows.map((r) => r[0]);
  let page = (await post(`${base}/sql`, { query, fetch_size: 100 })).json as {
    rows: [string][];
    cursor?: string;
    columns?: unknown;
  };
  t.ok(page.columns !== undefined, 'the first page has the columns');
  const seen = page.rows.map((r) => r[0]);
  let pages = 1;
  while (page.cursor !== undefined) {
    page = (await post(`${base}/sql`, { cursor: page.cursor })).json as {
      rows: [string][];
      cursor?: string;
      columns?: unknown;
    };
    t.equal(page.columns, undefined, 'later pages do not repeat the columns');
    seen.push(...page.rows.map((r) => r[0]));
    pages += 1;
  }
  t.same(seen, everything, `${pages} pages, every row once, in order`);
  const csvFirst = await post(`${base}/sql?format=csv`, { query, fetch_size: 500 });
  const cursor = csvFirst.headers.get('cursor');
  t.ok(cursor !== null, 'csv carries the cursor in a Cursor header');
  const csvNext = await post(`${base}/sql?format=csv`, { cursor });
  const lines = [...csvFirst.text.split('\r\n'), ...csvNext.text.split('\r\n')].filter((l) => l !== '');
  t.equal(lines[0], 'hash', 'one header line');
  t.same(lines.slice(1, 1001), everything.slice(0, 1000), 'the csv pages continue each other');
  const closed = await post(`${base}/sql/close`, { cursor: csvNext.headers.get('cursor') ?? cursor });
  t.same(closed.json, { succeeded: true });

  // OFFSET skips whole pages on the server: no page answers empty while a cursor says more exist.
  t.ok(everything.length > 1150, `${everything.length} rows`);
  const skipped = `${query} LIMIT 150 OFFSET 1000`;
  let offsetPage = (await post(`${base}/sql`, { query: skipped, fetch_size: 100 })).json as {
    rows: [string][];
    cursor?: string;
  };
  const sizes = [offsetPage.rows.length];
  const offsetSeen = offsetPage.rows.map((r) => r[0]);
  while (offsetPage.cursor !== undefined) {
    offsetPage = (await post(`${base}/sql`, { cursor: offsetPage.cursor })).json as {
      rows: [string][];
      cursor?: string;
    };
    sizes.push(offsetPage.rows.length);
    offsetSeen.push(...offsetPage.rows.map((r) => r[0]));
  }
  t.same(sizes, [100, 50], 'LIMIT 150 OFFSET 1000 with fetch_size 100: pages of 100 and 50, none empty');
  t.same(offsetSeen, everything.slice(1000, 1150), 'the 150 rows after the first 1,000');
});

t.test('format from the query parameter, the body, or Accept; media types', async (t) => {
  const query = 'SELECT hash FROM transactions LIMIT 1';
  for (const format of FORMATS) {
    const answer = await post(`${base}/sql?format=${format}`, { query });
    t.equal(answer.headers.get('content-type'), MEDIA_TYPES[format], format);
  }
  t.equal(
    (await post(`${base}/sql`, { query, format: 'csv' })).headers.get('content-type'),
    MEDIA_TYPES.csv,
    'body format',
  );
  t.equal(
    (await post(`${base}/sql?format=tsv`, { query, format: 'csv' })).headers.get('content-type'),
    MEDIA_TYPES.tsv,
    'the query parameter wins',
  );
  t.equal(
    (await post(`${base}/sql`, { query }, { accept: 'text/csv' })).headers.get('content-type'),
    MEDIA_TYPES.csv,
    'Accept',
  );
  t.equal((await post(`${base}/sql`, { query })).headers.get('content-type'), MEDIA_TYPES.json, 'json by default');
  const bad = await post(`${base}/sql?format=xml`, { query });
  t.equal(bad.status, 400);
  t.match(bad.json, { error: { code: 'INVALID_PARAMETER', details: { parameter: 'format' } } });
});

t.test('txt is a column-aligned table', async (t) => {
  const answer = await post(`${base}/sql?format=txt`, {
    query: 'SELECT ledger_index, hash FROM transactions ORDER BY ledger_index LIMIT 2',
  });
  const lines = answer.text.split('\n');
  t.equal(lines[0], ` ledger_index  |${' '.repeat(30)}hash${' '.repeat(30)}`, 'header names centred in their columns');
  t.match(lines[1], /^-{15}\+-{64}$/, 'the rule under the header');
  t.match(lines[2], /^\d+ +\|[0-9A-F]{64}$/, 'values left-aligned');
  t.equal(lines[2]?.indexOf('|'), 15, 'padded to the column width (at least 15)');
});

t.test('statistics and percentiles: against the fee values themselves and the engine', async (t) => {
  // Every fee, read from the engine's documents: the statistics are computed here from them.
  const fees: number[] = [];
  const all = await target.client.search<{ _Fee: number }>({
    index: transactions,
    size: 10_000,
    track_total_hits: true,
    query: { exists: { field: '_Fee' } },
    _source: ['_Fee'],
  });
  for (const hit of all.hits.hits) fees.push(hit._source?._Fee as number);
  t.equal(fees.length, (all.hits.total as { value: number }).value, `every fee: ${fees.length}`);
  const n = fees.length;
  const mean = fees.reduce((a, b) => a + b, 0) / n;
  const squares = fees.reduce((a, b) => a + b * b, 0);
  const deviations = fees.reduce((a, b) => a + (b - mean) ** 2, 0);
  const rowsOf = async (query: string): Promise<unknown[][]> => {
    const answer = await post(`${base}/sql`, { query });
    t.equal(answer.status, 200, query);
    return (answer.json as { rows: unknown[][] }).rows;
  };
  const [row] = await rowsOf(
    'SELECT STDDEV_POP(_Fee), STDDEV_SAMP(_Fee), VAR_POP(_Fee), VAR_SAMP(_Fee), SUM_OF_SQUARES(_Fee) FROM transactions',
  );
  const expected = [
    Math.sqrt(deviations / n),
    Math.sqrt(deviations / (n - 1)),
    deviations / n,
    deviations / (n - 1),
    squares,
  ];
  (row as number[]).forEach((value, i) =>
    t.ok(
      Math.abs(value - (expected[i] as number)) <= 1e-9 * Math.max(1, Math.abs(expected[i] as number)),
      `${['STDDEV_POP', 'STDDEV_SAMP', 'VAR_POP', 'VAR_SAMP', 'SUM_OF_SQUARES'][i]}: ${value} for ${expected[i]} over ${n} fees`,
    ),
  );
  t.same(
    await rowsOf(
      "SELECT STDDEV_POP(_Fee), PERCENTILE(_Fee, 50) FROM transactions WHERE TransactionType = 'NoSuchType'",
    ),
    [[null, null]],
    'NULL over no value',
  );
  // Percentiles are the engine's TDigest estimate, as in Elasticsearch SQL: the same request direct.
  const direct = await target.client.search({
    index: transactions,
    size: 0,
    aggs: {
      p: { percentiles: { field: '_Fee', percents: [95], keyed: false } },
      r: { percentile_ranks: { field: '_Fee', values: [0.000012], keyed: false } },
    },
  });
  const aggs = direct.aggregations as Record<string, { values: { value: number }[] }>;
  t.same(
    await rowsOf('SELECT PERCENTILE(_Fee, 95), PERCENTILE_RANK(_Fee, 0.000012) FROM transactions'),
    [[aggs.p?.values[0]?.value, aggs.r?.values[0]?.value]],
    'PERCENTILE and PERCENTILE_RANK as the engine estimates them',
  );
  const below = fees.filter((f) => f <= 0.000012).length / n;
  t.ok(
    Math.abs((aggs.r?.values[0]?.value as number) / 100 - below) < 0.05,
    `PERCENTILE_RANK within 5 points of the exact share (${(below * 100).toFixed(1)} %)`,
  );
  const bad = await post(`${base}/sql`, { query: 'SELECT PERCENTILE(_Fee, 101) FROM transactions' });
  t.match(bad.json, { error: { code: 'INVALID_QUERY', message: /0 to 100/ } });
});

t.test('expressions in SELECT: evaluated on each row, as computed here from the documents', async (t) => {
  const query =
    "SELECT hash, Fee * 2 AS f2, _Fee / 2 AS half, Fee / 7 AS q, LENGTH(Account) AS len, SUBSTRING(hash, 1, 8) AS head, CASE WHEN DestinationTag IS NULL THEN 'none' WHEN DestinationTag > 1000 THEN 'big' ELSE 'small' END AS tagged, COALESCE(DestinationTag, -1) AS tag, YEAR(_date) AS y, ISO_DAY_OF_WEEK(_date) AS dow, CAST(ledger_index AS VARCHAR) AS li, LOWER(TransactionType) || '!' AS kind, ROUND(_Fee * 1000, 2) AS milli FROM transactions WHERE TransactionType = 'Payment' ORDER BY ledger_index, hash LIMIT 200";
  const answer = await post(`${base}/sql`, { query });
  t.equal(answer.status, 200, answer.text.slice(0, 300));
  const { columns, rows } = answer.json as { columns: { name: string; type: string }[]; rows: unknown[][] };
  t.same(
    columns.map((c) => `${c.name}:${c.type}`),
    [
      'hash:keyword',
      'f2:long',
      'half:double',
      'q:long',
      'len:long',
      'head:keyword',
      'tagged:keyword',
      'tag:long',
      'y:long',
      'dow:long',
      'li:keyword',
      'kind:keyword',
      'milli:double',
    ],
  );
  const direct = await target.client.search<Record<string, unknown>>({
    index: transactions,
    size: 200,
    query: { term: { TransactionType: 'Payment' } },
    sort: [{ ledger_index: 'asc' }, { hash: 'asc' }],
  });
  const expected = direct.hits.hits.map(({ _source: s = {} }) => {
    const fee = Number(s.Fee);
    const tag = s.DestinationTag as number | undefined;
    const date = new Date(s._date as string);
    return [
      s.hash,
      fee * 2,
      (s._Fee as number) / 2,
      Math.trunc(fee / 7),
      (s.Account as string).length,
      (s.hash as string).slice(0, 8),
      tag === undefined ? 'none' : tag > 1000 ? 'big' : 'small',
      tag ?? -1,
      date.getUTCFullYear(),
      date.getUTCDay() === 0 ? 7 : date.getUTCDay(),
      String(s.ledger_index),
      `${(s.TransactionType as string).toLowerCase()}!`,
      Math.round((s._Fee as number) * 1000 * 100) / 100,
    ];
  });
  t.equal(rows.length, 200);
  t.same(rows, expected, 'every expression on every row');
});

t.test('relative dates: NOW(), CURRENT_DATE and INTERVAL, as instants the engine filters on', async (t) => {
  const count = async (query: string): Promise<number> => {
    const answer = await post(`${base}/sql`, { query });
    t.equal(answer.status, 200, query);
    return ((answer.json as { rows: [[number]] }).rows[0] as [number])[0];
  };
  const now = new Date();
  for (const years of [1, 5, 12]) {
    const since = new Date(now);
    since.setUTCFullYear(since.getUTCFullYear() - years);
    const { count: engine } = await target.client.count({
      index: transactions,
      query: { range: { _date: { gt: since.toISOString() } } },
    });
    t.equal(
      await count(`SELECT COUNT(*) FROM transactions WHERE _date > NOW() - INTERVAL ${years} YEAR`),
      engine,
      `the last ${years} years: ${engine} transactions`,
    );
  }
  const midnight = new Date(Math.floor(now.getTime() / 86_400_000) * 86_400_000);
  const { count: before } = await target.client.count({
    index: transactions,
    query: { range: { _date: { lt: midnight.toISOString() } } },
  });
  t.equal(await count('SELECT COUNT(*) FROM transactions WHERE _date < CURRENT_DATE'), before, 'before today');
  const wrong = await post(`${base}/sql`, { query: 'SELECT hash FROM transactions WHERE ledger_index > NOW()' });
  t.match(wrong.json, { error: { code: 'INVALID_QUERY', message: /compare with dates/ } });
});
