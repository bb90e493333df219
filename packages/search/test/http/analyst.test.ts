import t, { type Test } from 'tap';
import { indexName } from '@xle/core';
import { createTestIndices, syntheticLedgers } from '@xle/test-helpers';
import { fixtureLedgers, ingest } from '@xle/test-loaded';
import { loadedIndices, post, serveSearch } from '../fixtures/serve.js';

/**
 * An analyst's session: the questions people ask of the ledger first (counts by day and type, top
 * fee payers, token volume by issuer, memo search, offers by pair, a long export), each answered
 * by POST /sql and checked against a second computation made here, in plain code, from every
 * document the engine holds (read once, by a plain search): never from the SQL layer's own pieces.
 */
const target = await loadedIndices(t);
const base = await serveSearch(t, target);

type Doc = Record<string, unknown>;

async function everything(kind: 'transactions' | 'ledgers' | 'accounts' | 'objects'): Promise<Doc[]> {
  const answer = await target.client.search<Doc>({
    index: indexName(target.naming, kind),
    size: 10_000,
    track_total_hits: true,
    query: { match_all: {} },
  });
  const total = (answer.hits.total as { value: number }).value;
  if (total > 10_000) throw new Error(`${kind}: ${total} documents, more than this test reads at once`);
  return answer.hits.hits.map((h) => h._source ?? {});
}

const txs = await everything('transactions');
const ledgers = await everything('ledgers');
const accounts = await everything('accounts');
const objects = await everything('objects');

/** Every (SQL, expected rows) pair the suite runs: counted at the end. */
let asked = 0;

async function rows(query: string): Promise<unknown[][]> {
  asked += 1;
  const answer = await post(`${base}/sql`, { query });
  if (answer.status !== 200) throw new Error(`${query}: ${answer.status} ${answer.text.slice(0, 300)}`);
  return (answer.json as { rows: unknown[][] }).rows;
}

const near = (a: unknown, b: unknown): boolean =>
  typeof a === 'number' && typeof b === 'number'
    ? Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b))
    : JSON.stringify(a) === JSON.stringify(b);

/** Rows as a map from their key columns (all but the last) to the last column. */
function asMap(found: unknown[][]): Map<string, unknown> {
  return new Map(found.map((r) => [JSON.stringify(r.slice(0, -1)), r[r.length - 1]]));
}

/** Checks grouped rows against the expected groups, whatever their order. */
async function sameGroups(t: Test, query: string, expected: Map<string, unknown>): Promise<void> {
  const found = asMap(await rows(query));
  const wrong = [...expected].filter(([k, v]) => !near(found.get(k), v));
  t.same(wrong, [], `${query} (${expected.size} groups)`);
  t.equal(found.size, expected.size, `${query}: no extra group`);
}

function countBy<T>(items: T[], key: (item: T) => unknown[] | undefined): Map<string, number> {
  const out = new Map<string, number>();
  for (const item of items) {
    const k = key(item);
    if (k === undefined) continue;
    const id = JSON.stringify(k);
    out.set(id, (out.get(id) ?? 0) + 1);
  }
  return out;
}

function sumBy<T>(
  items: T[],
  key: (item: T) => unknown[] | undefined,
  value: (item: T) => number | undefined,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const item of items) {
    const k = key(item);
    const v = value(item);
    if (k === undefined || v === undefined) continue;
    const id = JSON.stringify(k);
    out.set(id, (out.get(id) ?? 0) + v);
  }
  return out;
}

const field = (doc: Doc, path: string): unknown =>
  path.split('.').reduce<unknown>((node, part) => (node as Doc | undefined)?.[part], doc);
const result = (tx: Doc): string => field(tx, 'meta.TransactionResult') as string;
const day = (iso: unknown): string => `${String(iso).slice(0, 10)}T00:00:00.000Z`;
const month = (iso: unknown): string => `${String(iso).slice(0, 7)}-01T00:00:00.000Z`;
const types = [...new Set(txs.map((tx) => tx.TransactionType as string))].sort();
const years = [...new Set(txs.map((tx) => String(tx._date).slice(0, 4)))].sort();

t.test('counts by type, result, day, month and year', async (t) => {
  for (const type of types)
    t.same(
      await rows(`SELECT COUNT(*) FROM transactions WHERE TransactionType = '${type}'`),
      [[txs.filter((tx) => tx.TransactionType === type).length]],
      `${type}`,
    );
  await sameGroups(
    t,
    'SELECT TransactionType, COUNT(*) FROM transactions GROUP BY TransactionType',
    countBy(txs, (tx) => [tx.TransactionType]),
  );
  await sameGroups(
    t,
    'SELECT "meta.TransactionResult" AS r, COUNT(*) FROM transactions GROUP BY r',
    countBy(txs, (tx) => [result(tx)]),
  );
  await sameGroups(
    t,
    "SELECT DATE_TRUNC('day', _date) AS d, COUNT(*) FROM transactions GROUP BY d",
    countBy(txs, (tx) => [day(tx._date)]),
  );
  await sameGroups(
    t,
    "SELECT DATE_TRUNC('month', _date) AS m, TransactionType, COUNT(*) FROM transactions GROUP BY m, TransactionType",
    countBy(txs, (tx) => [month(tx._date), tx.TransactionType]),
  );
  for (const year of years)
    t.same(
      await rows(
        `SELECT COUNT(*) FROM transactions WHERE _date >= '${year}-01-01' AND _date < '${Number(year) + 1}-01-01'`,
      ),
      [[txs.filter((tx) => String(tx._date).startsWith(year)).length]],
      `transactions in ${year}`,
    );
  for (const type of types) {
    const own = txs.filter((tx) => tx.TransactionType === type).map((tx) => String(tx._date));
    t.same(
      await rows(`SELECT MIN(_date), MAX(_date) FROM transactions WHERE TransactionType = '${type}'`),
      [
        [own.reduce((a, b) => (a < b ? a : b)), own.reduce((a, b) => (a > b ? a : b))].map((d) =>
          new Date(d).toISOString(),
        ),
      ],
      `first and last ${type}`,
    );
  }
  t.same(
    await rows('SELECT COUNT(*) FROM transactions WHERE "meta.TransactionResult" <> \'tesSUCCESS\''),
    [[txs.filter((tx) => result(tx) !== 'tesSUCCESS').length]],
    'failed transactions',
  );
});

t.test('fees: top payers, by type, statistics', async (t) => {
  const fees = sumBy(
    txs,
    (tx) => [tx.Account],
    (tx) => tx._Fee as number,
  );
  const top = [...fees].sort((a, b) => b[1] - a[1]).slice(0, 10);
  const found = await rows(
    'SELECT Account, SUM(_Fee) AS paid FROM transactions GROUP BY Account ORDER BY paid DESC LIMIT 10',
  );
  t.same(
    found.map((r) => r[1]).map((v) => Number((v as number).toPrecision(12))),
    top.map(([, v]) => Number(v.toPrecision(12))),
    'the ten largest fee totals, in order',
  );
  t.ok(
    found.every((r) => near(fees.get(JSON.stringify([r[0]])), r[1])),
    'each named payer paid that much',
  );
  const counts = countBy(txs, (tx) => [tx.Account]);
  const busiest = await rows(
    'SELECT Account, COUNT(*) AS n FROM transactions GROUP BY Account ORDER BY n DESC LIMIT 5',
  );
  t.same(
    busiest.map((r) => r[1]),
    [...counts.values()].sort((a, b) => b - a).slice(0, 5),
    'the five busiest senders',
  );
  const byType = sumBy(
    txs,
    (tx) => [tx.TransactionType],
    (tx) => tx._Fee as number,
  );
  const n = countBy(txs, (tx) => [tx.TransactionType]);
  await sameGroups(
    t,
    'SELECT TransactionType, AVG(_Fee) FROM transactions GROUP BY TransactionType',
    new Map([...byType].map(([k, v]) => [k, v / (n.get(k) as number)])),
  );
  await sameGroups(
    t,
    'SELECT TransactionType, MAX(ledger_index) FROM transactions GROUP BY TransactionType',
    new Map(
      types.map((type) => [
        JSON.stringify([type]),
        Math.max(...txs.filter((tx) => tx.TransactionType === type).map((tx) => tx.ledger_index as number)),
      ]),
    ),
  );
  await sameGroups(
    t,
    'SELECT TransactionType, SUM(_Fee) FROM transactions GROUP BY TransactionType HAVING COUNT(*) > 20',
    new Map([...byType].filter(([k]) => (n.get(k) as number) > 20)),
  );
  for (const type of types.slice(0, 6))
    t.ok(
      near(
        (await rows(`SELECT SUM(Fee) FROM transactions WHERE TransactionType = '${type}'`))[0]?.[0],
        txs.filter((tx) => tx.TransactionType === type).reduce((a, tx) => a + Number(tx.Fee), 0),
      ),
      `fees of ${type} in drops`,
    );
});

t.test('token volume by issuer and currency', async (t) => {
  const tokenPayments = txs.filter(
    (tx) => tx.TransactionType === 'Payment' && result(tx) === 'tesSUCCESS' && field(tx, 'Amount.native') === false,
  );
  await sameGroups(
    t,
    'SELECT "Amount.issuer", SUM("Amount._value") FROM transactions WHERE TransactionType = \'Payment\' AND "meta.TransactionResult" = \'tesSUCCESS\' AND "Amount.native" = false GROUP BY "Amount.issuer"',
    sumBy(
      tokenPayments,
      (tx) => [field(tx, 'Amount.issuer')],
      (tx) => field(tx, 'Amount._value') as number,
    ),
  );
  await sameGroups(
    t,
    'SELECT "Amount._currency", COUNT(*) FROM transactions WHERE TransactionType = \'Payment\' AND "meta.TransactionResult" = \'tesSUCCESS\' AND "Amount.native" = false GROUP BY "Amount._currency"',
    countBy(tokenPayments, (tx) => [field(tx, 'Amount._currency')]),
  );
  const xrp = txs.filter((tx) => tx.TransactionType === 'Payment' && field(tx, 'Amount.native') === true);
  t.ok(
    near(
      (
        await rows(
          'SELECT SUM("Amount._value") FROM transactions WHERE TransactionType = \'Payment\' AND "Amount.native" = true',
        )
      )[0]?.[0],
      xrp.reduce((a, tx) => a + (field(tx, 'Amount._value') as number), 0),
    ),
    'XRP sent by payments',
  );
});

t.test('memo search', async (t) => {
  const memos = txs.filter((tx) => Array.isArray(tx.Memos));
  const words = new Map<string, number>();
  for (const tx of memos) {
    const text = (tx.Memos as { Memo?: { _MemoData?: string } }[]).map((m) => m.Memo?._MemoData ?? '').join(' ');
    for (const word of new Set(text.toLowerCase().match(/[a-z]{5,12}/g) ?? []))
      words.set(word, (words.get(word) ?? 0) + 1);
  }
  const common = [...words].sort((a, b) => b[1] - a[1]).slice(0, 3);
  t.ok(common.length > 0, `${memos.length} transactions with memos`);
  const direct = async (word: string): Promise<number> =>
    (
      await target.client.count({
        index: indexName(target.naming, 'transactions'),
        query: { match: { 'Memos.Memo._MemoData': word } },
      })
    ).count;
  for (const [word] of common)
    t.same(
      await rows(`SELECT COUNT(*) FROM transactions WHERE MATCH("Memos.Memo._MemoData", '${word}')`),
      [[await direct(word)]],
      `memos with "${word}"`,
    );
  t.same(
    await rows('SELECT COUNT(*) FROM transactions WHERE "Memos.Memo._MemoData" IS NOT NULL'),
    [
      [
        txs.filter((tx) =>
          (tx.Memos as { Memo?: { _MemoData?: string } }[] | undefined)?.some((m) => m.Memo?._MemoData !== undefined),
        ).length,
      ],
    ],
    'transactions with decoded memo data',
  );
});

t.test('ledger entries: offers by pair, trust lines by token, entries by type', async (t) => {
  const offers = objects.filter((o) => o.LedgerEntryType === 'Offer');
  await sameGroups(
    t,
    'SELECT "TakerGets._currency", "TakerPays._currency", COUNT(*) FROM objects WHERE LedgerEntryType = \'Offer\' GROUP BY "TakerGets._currency", "TakerPays._currency"',
    countBy(offers, (o) => [field(o, 'TakerGets._currency'), field(o, 'TakerPays._currency')]),
  );
  await sameGroups(
    t,
    'SELECT LedgerEntryType, COUNT(*) FROM objects GROUP BY LedgerEntryType',
    countBy(objects, (o) => [o.LedgerEntryType]),
  );
  await sameGroups(
    t,
    "SELECT _token, COUNT(*) FROM objects WHERE LedgerEntryType = 'RippleState' GROUP BY _token",
    // A multi-valued field puts its document in the group of each of its values, as the engine
    // does; lines without a token (their issuer side unknown) form SQL's NULL group.
    countBy(
      objects
        .filter((o) => o.LedgerEntryType === 'RippleState')
        .flatMap((o) => (Array.isArray(o._token) ? (o._token as unknown[]) : [o._token ?? null])),
      (token) => [token],
    ),
  );
});

t.test('ledgers and accounts', async (t) => {
  t.same(await rows('SELECT SUM(tx_count), COUNT(*), MAX(ledger_index) FROM ledgers'), [
    [
      ledgers.reduce((a, l) => a + (l.tx_count as number), 0),
      ledgers.length,
      Math.max(...ledgers.map((l) => l.ledger_index as number)),
    ],
  ]);
  await sameGroups(
    t,
    'SELECT HISTOGRAM(close_time_human, INTERVAL 1 YEAR) AS y, SUM(tx_count) FROM ledgers GROUP BY y',
    sumBy(
      ledgers,
      (l) => [`${String(l.close_time_human).slice(0, 4)}-01-01T00:00:00.000Z`],
      (l) => l.tx_count as number,
    ),
  );
  t.same(await rows('SELECT COUNT(*) FROM accounts'), [[accounts.length]], 'accounts');
  t.same(
    await rows('SELECT COUNT(*) FROM accounts WHERE deleted = true'),
    [[accounts.filter((a) => a.deleted === true).length]],
    'deleted accounts',
  );
  await sameGroups(
    t,
    'SELECT parent, COUNT(*) FROM accounts WHERE parent IS NOT NULL GROUP BY parent',
    countBy(
      accounts.filter((a) => typeof a.parent === 'string'),
      (a) => [a.parent],
    ),
  );
});

t.test('destination tags and three-valued logic', async (t) => {
  const tagged = txs.filter((tx) => typeof tx.DestinationTag === 'number');
  t.same(await rows('SELECT COUNT(*) FROM transactions WHERE DestinationTag IS NOT NULL'), [[tagged.length]]);
  t.same(
    await rows('SELECT COUNT(*) FROM transactions WHERE DestinationTag <> 0'),
    [[tagged.filter((tx) => tx.DestinationTag !== 0).length]],
    'a row without a tag is neither equal nor unequal to 0',
  );
  t.same(await rows('SELECT COUNT(*) FROM transactions WHERE DestinationTag NOT IN (0, 1)'), [
    [tagged.filter((tx) => tx.DestinationTag !== 0 && tx.DestinationTag !== 1).length],
  ]);
});

t.test('Elasticsearch SQL spellings: plural interval units, weeks, YEAR TO MONTH, CAST AS LONG', async (t) => {
  // Each interval is checked against the instant computed here from CURRENT_DATE (midnight UTC).
  const midnight = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000);
  const monthsBack = (n: number): Date => {
    const d = new Date(midnight);
    d.setUTCMonth(d.getUTCMonth() - n);
    return d;
  };
  const since = (at: Date): number => txs.filter((tx) => Date.parse(String(tx._date)) > at.getTime()).length;
  const cases: [string, Date][] = [
    ['INTERVAL 10 YEARS', monthsBack(120)],
    ['INTERVAL 130 MONTHS', monthsBack(130)],
    ["INTERVAL '8-6' YEAR TO MONTH", monthsBack(102)],
    ['INTERVAL 520 WEEKS', new Date(midnight.getTime() - 520 * 7 * 86_400_000)],
    ['INTERVAL 3000 DAYS', new Date(midnight.getTime() - 3000 * 86_400_000)],
    ['INTERVAL 70000 HOURS', new Date(midnight.getTime() - 70_000 * 3_600_000)],
    ['INTERVAL 4000000 MINUTES', new Date(midnight.getTime() - 4_000_000 * 60_000)],
    ['INTERVAL 250000000 SECONDS', new Date(midnight.getTime() - 250_000_000 * 1000)],
  ];
  for (const [interval, at] of cases)
    t.same(
      await rows(`SELECT COUNT(*) FROM transactions WHERE _date > CURRENT_DATE - ${interval}`),
      [[since(at)]],
      `${interval}: ${since(at)} of ${txs.length}`,
    );
  t.not(new Set(cases.map(([, at]) => since(at))).size, 1, 'the intervals split the history differently');
  const byHash = [...txs].sort((a, b) => String(a.hash).localeCompare(String(b.hash))).slice(0, 20);
  t.same(
    await rows('SELECT hash, CAST(Fee AS LONG) AS fee FROM transactions ORDER BY hash LIMIT 20'),
    byHash.map((tx) => [tx.hash, Number(tx.Fee)]),
    'CAST(Fee AS LONG), as BIGINT',
  );
  const named = await post(`${base}/sql`, { query: 'SELECT CAST(Fee AS LONG) FROM transactions LIMIT 1' });
  t.same((named.json as { columns: { name: string }[] }).columns[0]?.name, 'CAST(Fee AS LONG)', 'named as written');
  t.same(
    await rows("SELECT COUNT(*) FROM transactions WHERE TransactionType = 'INTERVAL 3 DAYS'"),
    [[0]],
    'a string literal is never rewritten',
  );
});

t.test('ORDER BY … NULLS FIRST / NULLS LAST, rows and groups', async (t) => {
  const tag = (tx: Doc): number | null => (typeof tx.DestinationTag === 'number' ? tx.DestinationTag : null);
  const byHash = (a: Doc, b: Doc): number => String(a.hash).localeCompare(String(b.hash));
  const untagged = txs.filter((tx) => tag(tx) === null).sort(byHash);
  const tagged = txs.filter((tx) => tag(tx) !== null);
  t.ok(untagged.length >= 30 && tagged.length >= 30, `${tagged.length} tagged, ${untagged.length} not`);
  t.same(
    await rows('SELECT hash, DestinationTag FROM transactions ORDER BY DestinationTag NULLS FIRST, hash LIMIT 30'),
    untagged.slice(0, 30).map((tx) => [tx.hash, null]),
    'ascending, nulls first',
  );
  const descending = [...tagged].sort((a, b) => (tag(b) as number) - (tag(a) as number) || byHash(a, b));
  t.same(
    await rows('SELECT hash, DestinationTag FROM transactions ORDER BY DestinationTag DESC NULLS LAST, hash LIMIT 30'),
    descending.slice(0, 30).map((tx) => [tx.hash, tag(tx)]),
    'descending, nulls last',
  );
  const last = await rows(
    `SELECT hash FROM transactions ORDER BY DestinationTag NULLS LAST, hash LIMIT 30 OFFSET ${txs.length - 30}`,
  );
  t.same(
    last,
    untagged.slice(-30).map((tx) => [tx.hash]),
    'ascending, nulls last: the untagged at the end',
  );
  const groups = await rows(
    'SELECT DestinationTag, COUNT(*) FROM transactions GROUP BY DestinationTag ORDER BY DestinationTag NULLS FIRST LIMIT 2',
  );
  const smallest = Math.min(...tagged.map((tx) => tag(tx) as number));
  t.same(
    groups,
    [
      [null, untagged.length],
      [smallest, tagged.filter((tx) => tag(tx) === smallest).length],
    ],
    'a group key: the missing bucket first',
  );
  const byCount = await rows(
    'SELECT DestinationTag, COUNT(*) AS n FROM transactions GROUP BY DestinationTag ORDER BY n DESC NULLS FIRST LIMIT 3',
  );
  const counts = countBy(txs, (tx) => [tag(tx)]);
  const top = [...counts.values()].sort((a, b) => b - a).slice(0, 3);
  t.same(
    byCount.map((r) => r[1]),
    top,
    'an aggregate order with NULLS written still orders by the aggregate',
  );
});

t.test('YEAR(date) in WHERE and GROUP BY, CAST of a literal, IN with NULL, ORDER BY a position', async (t) => {
  const yearOf = (tx: Doc): number => Number(String(tx._date).slice(0, 4));
  const count = (keep: (tx: Doc) => boolean): number => txs.filter(keep).length;
  const first = Number(years[0]);
  const last = Number(years[years.length - 1]);
  const middle = Number(years[Math.floor(years.length / 2)]);
  const cases: [string, (tx: Doc) => boolean][] = [
    [`YEAR(_date) = ${middle}`, (tx) => yearOf(tx) === middle],
    [`${middle} = YEAR(_date)`, (tx) => yearOf(tx) === middle],
    [`YEAR(_date) <> ${middle}`, (tx) => yearOf(tx) !== middle],
    [`YEAR(_date) > ${middle}`, (tx) => yearOf(tx) > middle],
    [`YEAR(_date) >= ${middle}`, (tx) => yearOf(tx) >= middle],
    [`YEAR(_date) < ${middle}`, (tx) => yearOf(tx) < middle],
    [`YEAR(_date) <= ${middle}`, (tx) => yearOf(tx) <= middle],
    [`YEAR(_date) IN (${first}, ${last})`, (tx) => yearOf(tx) === first || yearOf(tx) === last],
    [`YEAR(_date) NOT IN (${first}, ${last})`, (tx) => yearOf(tx) !== first && yearOf(tx) !== last],
    [`YEAR(_date) BETWEEN ${first} AND ${middle}`, (tx) => yearOf(tx) >= first && yearOf(tx) <= middle],
    ["_date >= CAST('2020-01-01' AS DATETIME)", (tx) => String(tx._date) >= '2020-01-01'],
    ["ledger_index > CAST('80000000' AS INTEGER)", (tx) => Number(tx.ledger_index) > 80_000_000],
    ["TransactionType IN ('Payment', NULL)", (tx) => tx.TransactionType === 'Payment'],
    ["TransactionType NOT IN ('Payment', NULL)", () => false],
  ];
  for (const [where, keep] of cases)
    t.same(await rows(`SELECT COUNT(*) FROM transactions WHERE ${where}`), [[count(keep)]], `${where}: ${count(keep)}`);
  t.ok(years.length >= 3, `${years.length} years in the history`);
  await sameGroups(
    t,
    'SELECT YEAR(_date) AS y, COUNT(*) FROM transactions GROUP BY YEAR(_date)',
    countBy(txs, (tx) => [yearOf(tx)]),
  );
  const byYear = await rows('SELECT YEAR(_date), COUNT(*) FROM transactions GROUP BY YEAR(_date)');
  t.same(
    byYear.map((r) => r[0]),
    years.map(Number),
    'years in order, as numbers',
  );
  const byHash = [...txs].sort((a, b) => String(a.hash).localeCompare(String(b.hash)));
  t.same(
    await rows('SELECT ledger_index, hash FROM transactions ORDER BY 2 LIMIT 10'),
    byHash.slice(0, 10).map((tx) => [tx.ledger_index, tx.hash]),
    'ORDER BY 2: the second column',
  );
  t.same(
    await rows('SELECT hash AS h FROM transactions ORDER BY 1 DESC LIMIT 10'),
    byHash
      .slice(-10)
      .reverse()
      .map((tx) => [tx.hash]),
    'ORDER BY 1 DESC through an alias',
  );
  const top = await rows(
    'SELECT TransactionType, COUNT(*) AS n FROM transactions GROUP BY TransactionType ORDER BY 2 DESC LIMIT 3',
  );
  const counts = [...countBy(txs, (tx) => [tx.TransactionType]).values()].sort((a, b) => b - a).slice(0, 3);
  t.same(
    top.map((r) => r[1]),
    counts,
    'a group ordered by the position of its count',
  );
});

t.test('GROUP BY CASE: the first matching branch of each row, counted by the engine branch by branch', async (t) => {
  const fee = (tx: Doc): number => Number(tx.Fee);
  const band = (tx: Doc): string => (fee(tx) < 12 ? 'low' : fee(tx) <= 100 ? 'normal' : 'high');
  const bands = "CASE WHEN Fee < 12 THEN 'low' WHEN Fee <= 100 THEN 'normal' ELSE 'high' END";
  await sameGroups(
    t,
    `SELECT ${bands} AS band, COUNT(*) FROM transactions GROUP BY band`,
    countBy(txs, (tx) => [band(tx)]),
  );
  await sameGroups(
    t,
    `SELECT ${bands} AS band, TransactionType, COUNT(*) FROM transactions GROUP BY ${bands}, TransactionType`,
    countBy(txs, (tx) => [band(tx), tx.TransactionType]),
  );
  // Branches overlap: a row takes the first that holds (Fee < 100 also holds for the low fees).
  const first = (tx: Doc): number => (fee(tx) < 12 ? 1 : fee(tx) < 100 ? 2 : 3);
  await sameGroups(
    t,
    'SELECT CASE WHEN Fee < 12 THEN 1 WHEN Fee < 100 THEN 2 ELSE 3 END AS b, SUM(Fee) FROM transactions GROUP BY b',
    (() => {
      const out = new Map<string, number>();
      for (const tx of txs) out.set(JSON.stringify([first(tx)]), (out.get(JSON.stringify([first(tx)])) ?? 0) + fee(tx));
      return out;
    })(),
  );
  // Simple CASE, no ELSE: the rows no branch takes are one NULL group; two branches of one value are one group.
  const kind = (tx: Doc): string | null =>
    tx.TransactionType === 'Payment'
      ? 'pay'
      : tx.TransactionType === 'OfferCreate' || tx.TransactionType === 'OfferCancel'
        ? 'dex'
        : null;
  await sameGroups(
    t,
    "SELECT CASE TransactionType WHEN 'Payment' THEN 'pay' WHEN 'OfferCreate' THEN 'dex' WHEN 'OfferCancel' THEN 'dex' END AS k, COUNT(*) FROM transactions GROUP BY 1",
    countBy(txs, (tx) => [kind(tx)]),
  );
  const ordered = await rows(`SELECT ${bands} AS band, COUNT(*) FROM transactions GROUP BY band ORDER BY band DESC`);
  t.same(
    ordered.map((r) => r[0]),
    [...new Set(txs.map(band))].sort().reverse(),
    'ORDER BY the CASE key: its groups in that order',
  );
  const byCount = await rows(`SELECT ${bands} AS band, COUNT(*) AS n FROM transactions GROUP BY band ORDER BY n DESC`);
  t.same(
    byCount.map((r) => r[1]),
    [...countBy(txs, (tx) => [band(tx)]).values()].sort((a, b) => b - a),
    'ordered by the count of each branch',
  );
  // Paged: every group once across cursor pages.
  const query = `SELECT ${bands} AS band, Account, COUNT(*) FROM transactions GROUP BY band, Account`;
  const all = await rows(query);
  const paged: unknown[][] = [];
  let page = (await post(`${base}/sql`, { query, fetch_size: 50 })).json as { rows: unknown[][]; cursor?: string };
  paged.push(...page.rows);
  while (page.cursor !== undefined) {
    page = (await post(`${base}/sql`, { cursor: page.cursor })).json as typeof page;
    paged.push(...page.rows);
  }
  t.same(paged, all, `${all.length} (band, account) groups in pages of 50`);
  t.same(
    all.map((r) => r[0]).filter((v, i, a) => a.indexOf(v) === i),
    ['high', 'low', 'normal'].filter((b) => txs.some((tx) => band(tx) === b)),
    'the branches in order, each once',
  );
  const computed = await post(`${base}/sql`, {
    query: 'SELECT CASE WHEN Fee < 12 THEN Fee ELSE 0 END AS f, COUNT(*) FROM transactions GROUP BY f',
  });
  t.equal(computed.status, 400);
  t.match(computed.json, { error: { code: 'UNSUPPORTED_SQL', message: /literal results/ } });
  const second = await post(`${base}/sql`, {
    query: `SELECT TransactionType, ${bands} AS band, COUNT(*) FROM transactions GROUP BY TransactionType, band`,
  });
  t.equal(second.status, 400);
  t.match(second.json, { error: { message: /must be the first GROUP BY key/ } });
});

t.test('XRP amounts in drops: Amount._drops, exact, and a warning for drops written as XRP', async (t) => {
  // Drops from each document's exact XRP text, in integers (BigInt), not from the field under test.
  const dropsOf = (xrp: string): bigint => {
    const [whole = '0', fraction = ''] = xrp.split('.');
    return BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
  };
  const xrpPayments = txs.filter(
    (tx) => tx.TransactionType === 'Payment' && (tx.Amount as Doc | undefined)?.native === true,
  );
  t.ok(xrpPayments.length > 50, `${xrpPayments.length} XRP payments`);
  const total = xrpPayments.reduce((sum, tx) => sum + dropsOf(String((tx.Amount as Doc).value)), 0n);
  const [[sum]] = (await rows(
    `SELECT SUM("Amount._drops") FROM transactions WHERE TransactionType = 'Payment' AND "Amount.native" = true`,
  )) as [[number]];
  t.ok(near(sum, Number(total)), `SUM("Amount._drops") = ${sum}, the documents' ${total}`);
  const thousand = xrpPayments.filter((tx) => (tx.Amount as Doc).value === '1000').length;
  t.same(
    await rows('SELECT COUNT(*) FROM transactions WHERE "Amount._drops" = 1000000000'),
    [[thousand]],
    '1,000 XRP in drops',
  );
  const some = xrpPayments[0] as Doc;
  t.same(
    await rows(`SELECT "Amount._drops", "Amount.value" FROM transactions WHERE hash = '${String(some.hash)}'`),
    [[Number(dropsOf(String((some.Amount as Doc).value))), (some.Amount as Doc).value]],
    'one payment: drops beside XRP',
  );
  const described = await rows('DESCRIBE transactions');
  t.ok(
    described.some((r) => r[0] === 'Amount._drops' && /in drops/.test(String(r.at(-1)))),
    'DESCRIBE lists Amount._drops, in drops',
  );
  const warned = await post(`${base}/sql`, {
    query: `SELECT COUNT(*) FROM transactions WHERE "Amount.value" = '300000000'`,
  });
  t.equal(warned.status, 200);
  t.match(warned.headers.get('warning') ?? '', /^299 xle ".*not drops.*Amount\._drops\] = 300000000"/);
  const plain = await post(`${base}/sql`, { query: `SELECT COUNT(*) FROM transactions WHERE "Amount.value" = '300'` });
  t.equal(plain.headers.get('warning'), null, 'no warning for an XRP figure');
});

t.test('activations name the account they activated', async (t) => {
  const docs = await target.client.search<Doc>({
    index: indexName(target.naming, 'activations'),
    size: 10_000,
    query: { match_all: {} },
  });
  const expected = docs.hits.hits
    .map((h) => [h._id, h._source?.parent])
    .sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1));
  t.ok(expected.length > 10, `${expected.length} activations`);
  t.same(await rows('SELECT account, parent FROM activations ORDER BY account LIMIT 10000'), expected);
});

t.test('expressions over aggregates: per group, in the SELECT list, HAVING and ORDER BY', async (t) => {
  const fee = (tx: Doc): number => Number(tx.Fee);
  const total = txs.reduce((sum, tx) => sum + fee(tx), 0);
  const [[xrp]] = (await rows('SELECT SUM(Fee) / 1000000.0 FROM transactions')) as [[number]];
  t.ok(near(xrp, total / 1e6), `SUM(Fee) / 1000000.0 = ${xrp}`);
  const byType = new Map<string, { n: number; fees: number }>();
  for (const tx of txs) {
    const type = tx.TransactionType as string;
    const at = byType.get(type) ?? { n: 0, fees: 0 };
    byType.set(type, { n: at.n + 1, fees: at.fees + fee(tx) });
  }
  const found = await rows(
    'SELECT TransactionType, COUNT(*) * 2 AS twice, SUM(_Fee) / COUNT(*) AS mean FROM transactions GROUP BY TransactionType',
  );
  t.equal(found.length, byType.size);
  const wrong = found.filter(([type, twice, mean]) => {
    const want = byType.get(type as string) as { n: number; fees: number };
    return twice !== want.n * 2 || !near(mean, want.fees / 1e6 / want.n);
  });
  t.same(wrong, [], 'COUNT(*) * 2 and SUM(_Fee) / COUNT(*) per type');
  const many = [...byType].filter(([, v]) => v.n * 2 > 100).map(([type]) => type);
  t.same(
    (await rows('SELECT TransactionType FROM transactions GROUP BY TransactionType HAVING COUNT(*) * 2 > 100')).map(
      (r) => r[0],
    ),
    [...many].sort(),
    'HAVING an expression of an aggregate',
  );
  const byMean = [...byType]
    .map(([type, v]) => [type, v.fees / 1e6 / v.n] as const)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3);
  const ordered = await rows(
    'SELECT TransactionType, SUM(_Fee) / COUNT(*) AS mean FROM transactions GROUP BY TransactionType ORDER BY SUM(_Fee) / COUNT(*) DESC LIMIT 3',
  );
  t.ok(
    ordered.every((r, i) => near(r[1], byMean[i]?.[1])),
    'ORDER BY an expression of aggregates',
  );
  asked += 1;
  const refused = await post(`${base}/sql`, {
    query: 'SELECT TransactionType, SUM(Fee) - Fee FROM transactions GROUP BY TransactionType',
  });
  t.match((refused.json as { error: { message: string } }).error.message, /Cannot use non-grouped column \[Fee\]/);
});

t.test('features the README names as unsupported are refused by name', async (t) => {
  const refusals: [string, RegExp][] = [
    ['SELECT TOP 5 hash FROM transactions', /^line 1:8: SELECT TOP n is not supported; write LIMIT n/],
    [
      "SELECT * FROM transactions PIVOT (COUNT(*) FOR TransactionType IN ('Payment'))",
      /^line 1:28: PIVOT is not supported/,
    ],
    ['SYS COLUMNS', /^line 1:1: SYS commands are not supported/],
    [
      "SELECT hash FROM transactions WHERE hash RLIKE 'A.*'",
      /^line 1:42: RLIKE \(regular expressions\) is not supported/,
    ],
    ['SELECT hash FROM transactions ORDER BY 3', /ORDER BY 3: the SELECT list has 1 column/],
  ];
  for (const [query, message] of refusals) {
    asked += 1;
    const answer = await post(`${base}/sql`, { query });
    t.equal(answer.status, 400, query);
    t.match((answer.json as { error: { message: string } }).error.message, message, query);
  }
});

t.test('syntax errors name the line, the column, the token found and what could come instead', async (t) => {
  const refused = async (query: string) => {
    asked += 1;
    const answer = await post(`${base}/sql`, { query });
    t.equal(answer.status, 400, query);
    return (answer.json as { error: { code: string; message: string; details: Record<string, unknown> } }).error;
  };
  t.match(await refused('SELECT FROM transactions'), {
    code: 'INVALID_QUERY',
    message: /^line 1:8: SELECT needs its columns before FROM/,
    details: { clause: 'SELECT', line: 1, column: 8 },
  });
  t.match(await refused('SELECT hash FROM transactions LIMT 5'), {
    message: /^line 1:36: Syntax error: found "5", expected .*WHERE.*/,
    details: { line: 1, column: 36 },
  });
  t.match(await refused('SELECT hash\nFROM transactions\nWHERE'), {
    message: /^line 3:6: Syntax error: found the end of the query, expected /,
  });
  t.match(await refused("SELECT hash FROM transactions WHERE hash = 'abc"), {
    message: /^line 1:44: Syntax error: a string literal is not closed/,
  });
});

t.test('a 10,000-row export paged with fetch_size 500, every row once', async (t) => {
  // A history of its own, large enough: synthetic ledgers made from the fixture transactions.
  const big = await createTestIndices(t);
  await ingest(
    big,
    syntheticLedgers(fixtureLedgers(), { transactions: 10_000, perLedger: 50, hashed: false, seed: 'analyst' }),
  );
  const bigBase = await serveSearch(t, big);
  const query = 'SELECT hash, ledger_index, _Fee FROM transactions ORDER BY ledger_index, hash';
  let page = (await post(`${bigBase}/sql?format=csv`, { query, fetch_size: 500 })) as Awaited<ReturnType<typeof post>>;
  asked += 1;
  const lines: string[] = [];
  let pages = 0;
  for (;;) {
    t.equal(page.status, 200);
    const body = page.text.split('\r\n').filter((l) => l !== '');
    lines.push(...(pages === 0 ? body.slice(1) : body));
    pages += 1;
    const cursor = page.headers.get('cursor');
    if (cursor === null) break;
    page = await post(`${bigBase}/sql?format=csv`, { cursor });
  }
  const direct = await big.client.search<Doc>({
    index: indexName(big.naming, 'transactions'),
    size: 10_000,
    sort: [{ ledger_index: 'asc' }, { hash: 'asc' }],
    _source: ['hash'],
  });
  t.equal(lines.length, 10_000, `${pages} pages`);
  t.same(
    lines.map((l) => l.split(',')[0]),
    direct.hits.hits.map((h) => h._source?.hash),
    'every transaction once, in order',
  );
});

t.test('the suite is an analyst’s session, not a sample', async (t) => {
  t.ok(asked >= 60, `${asked} queries, each checked against a second computation`);
});
