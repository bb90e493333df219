import t from 'tap';
import { MAX_NAMED_RANGES, rangeIndices, rangeStart } from '@xle/core';
import { RIPPLE_EPOCH_OFFSET, transformTransaction, type LedgerInput } from '@xle/documents';
import { MANY_RANGES_LEDGERS, manyRangesIndices, shardOperations } from '@xle/test-loaded';
import { getJson, serve, withoutAnswerCache } from '../fixtures/serve.js';

/**
 * Lookups reach only the shards that hold their data, however many ranges the history has: the
 * real fixture ledgers (2013 to 2025) and a few synthetic ones, in ranges of 1,000 ledgers, make
 * more than 32 transaction range indices (more than one search names at once, MAX_NAMED_RANGES); each lookup's cost is read from the engine's own
 * statistics (query, fetch and get operations per shard) before and after it.
 */
const RANGE = MANY_RANGES_LEDGERS;
const { target, real, extra, ledgers } = await manyRangesIndices(t);
// The lookups themselves are measured: the answer cache (a second request of a transaction or
// ledger answered from memory, no shard at all) is off here, and on in its own test below.
const base = await serve(t, withoutAnswerCache(target));
const cached = await serve(t, target);
const { client, naming } = target;
const operations = (): Promise<Map<string, number>> => shardOperations(target);
/** The shard operations of every index since the `before` reading. */
const spentSince = async (before: Map<string, number>): Promise<number> =>
  [...(await operations())].reduce((n, [index, v]) => n + v - (before.get(index) ?? 0), 0);

/**
 * The shard operations one request costs, per index. The request is sent twice and the second
 * is measured: the first fills the API's caches of labels and amendment names (small indices of
 * their own, not the history), so what is left is the lookup itself.
 */
async function cost(path: string, init?: RequestInit): Promise<Map<string, number>> {
  const send = async (): Promise<number> =>
    init === undefined ? (await getJson(`${base}${path}`)).status : (await fetch(`${base}${path}`, init)).status;
  t.equal(await send(), 200, path);
  const before = await operations();
  t.equal(await send(), 200, path);
  const after = await operations();
  const spent = new Map<string, number>();
  for (const [index, n] of after) {
    const d = n - (before.get(index) ?? 0);
    if (d > 0) spent.set(index, d);
  }
  return spent;
}

const total = (spent: Map<string, number>): number => [...spent.values()].reduce((a, b) => a + b, 0);
const show = (spent: Map<string, number>): string =>
  [...spent].map(([index, n]) => `${index.slice(naming.prefix.length + 1)} ${n}`).join(', ');

const ranges = await rangeIndices(client, naming, 'transactions');
t.ok(ranges.length > MAX_NAMED_RANGES, `${ranges.length} transaction range indices`);

const ledger = real.find((l) => l.transactions.length >= 3) as LedgerInput;
const tx = transformTransaction(ledger.transactions[1] as never, {
  ledgerIndex: ledger.ledger_index,
  closeTime: ledger.close_time,
  networkId: 0,
});

t.test('a transaction by hash: its locator and its document, read by id', async (t) => {
  const spent = await cost(`/tx/${tx.hash}`);
  t.ok(total(spent) <= 3, `${total(spent)} shard operations: ${show(spent)}`);
  t.same([...spent.keys()].filter((i) => i.includes('-transactions-')).length, 1, 'one transaction range');
});

t.test('a transaction by ctid: the range its ledger names', async (t) => {
  t.type(tx.ctid, 'string');
  const spent = await cost(`/tx/${tx.ctid as string}`);
  t.ok(total(spent) <= 3, `${total(spent)} shard operations: ${show(spent)}`);
});

t.test("a ledger's transactions: its range only", async (t) => {
  const spent = await cost(`/ledger/${ledger.ledger_index}/transactions`);
  t.ok(total(spent) <= 3, `${total(spent)} shard operations: ${show(spent)}`);
});

t.test('a ledger by hash: its locator and the ledger, read by id', async (t) => {
  const spent = await cost(`/ledger/${ledger.ledger_hash}`);
  t.ok(total(spent) <= 3, `${total(spent)} shard operations: ${show(spent)}`);
  // A transaction's hash locates a transaction, not a ledger.
  t.equal((await getJson(`${base}/ledger/${tx.hash}`)).status, 404);
});

t.test('the newest ledgers: the newest ranges only, as far back as ten ledgers go', async (t) => {
  const spent = await cost('/ledgers');
  // The ten newest ledgers are synthetic, three to a range here; on mainnet's ranges of a
  // million ledgers they lie in one.
  const newest = ledgers
    .map((l) => l.ledger_index)
    .sort((a, b) => b - a)
    .slice(0, 10);
  const holding = new Set(newest.map((l) => `-ledgers-${String(rangeStart(naming, l)).padStart(10, '0')}-`));
  const asked = [...spent.keys()].filter((index) => index.includes('-ledgers-'));
  t.same(
    asked.filter((index) => ![...holding].some((h) => index.includes(h))),
    [],
    `only the ${holding.size} ranges that hold the ten newest ledgers: ${show(spent)}`,
  );
  t.ok(total(spent) <= 2 * holding.size, `${total(spent)} shard operations`);
});

t.test('an answer kept in memory: the same transaction or ledger again costs no shard operation', async (t) => {
  for (const path of [`/tx/${tx.hash}`, `/ledger/${ledger.ledger_index}`]) {
    const first = await fetch(`${cached}${path}`);
    const firstBody = await first.text();
    t.equal(first.status, 200, path);
    const before = await operations();
    const again = await fetch(`${cached}${path}`);
    const againBody = await again.text();
    const spent = await spentSince(before);
    t.equal(spent, 0, `${path}: answered without the engine`);
    t.equal(againBody, firstBody, `${path}: the same bytes`);
    t.equal(again.headers.get('etag'), first.headers.get('etag'), `${path}: the same ETag`);
    t.equal(again.headers.get('cache-control'), first.headers.get('cache-control'));
  }
  // Not kept: an answer that is not 200, and the routes whose answer is not one document.
  for (const path of [`/tx/${'CD'.repeat(32)}`, `/ledger/${ledger.ledger_index}/transactions`]) {
    await getJson(`${cached}${path}`);
    const before = await operations();
    await getJson(`${cached}${path}`);
    const spent = await spentSince(before);
    t.ok(spent > 0, `${path}: asked again (${spent} shard operations)`);
  }
});

t.test('an unknown hash: one read by id', async (t) => {
  const before = await operations();
  t.equal((await getJson(`${base}/tx/${'AB'.repeat(32)}`)).status, 404);
  const spent = await spentSince(before);
  t.equal(spent, 1, 'the locator alone');
});

t.test("a busy account's first page: its newest range alone", async (t) => {
  // The account with the most transactions in the newest range of the history.
  const newest = rangeStart(naming, Math.max(...ledgers.map((l) => l.ledger_index)));
  const counts = new Map<string, number>();
  for (const l of ledgers.filter((l) => rangeStart(naming, l.ledger_index) === newest))
    for (const x of l.transactions) {
      const doc = transformTransaction(x, { ledgerIndex: l.ledger_index, closeTime: l.close_time, networkId: 0 });
      for (const a of doc._accounts) counts.set(a, (counts.get(a) ?? 0) + 1);
    }
  const [account, count] = [...counts].sort((a, b) => b[1] - a[1])[0] as [string, number];
  t.ok(count >= 3, `${account} has ${count} transactions in the newest range`);
  const spent = await cost(`/account/${account}/transactions?limit=${Math.min(count - 1, 10)}`);
  const asked = [...spent.keys()].filter((index) => index.includes('-transactions-'));
  t.same(
    asked,
    [`${naming.prefix}-${naming.network}-transactions-${String(newest).padStart(10, '0')}-g1`],
    `the newest range only, of ${ranges.length} (asked: ${show(spent)})`,
  );
});

t.test("an idle account's first page: older ranges in doubling batches, each range once", async (t) => {
  // An account of the real ledgers only (none of the synthetic, newer ranges name it).
  const synthetic = new Set(
    extra.flatMap((l) =>
      l.transactions.flatMap(
        (x) =>
          transformTransaction(x, { ledgerIndex: l.ledger_index, closeTime: l.close_time, networkId: 0 })._accounts,
      ),
    ),
  );
  // A transaction of the oldest range: past the ranges one search names, reached by the last one.
  const oldest = [...real].filter((l) => l.transactions.length > 0).sort((a, b) => a.ledger_index - b.ledger_index)[0]!;
  const doc = transformTransaction(oldest.transactions[0] as never, {
    ledgerIndex: oldest.ledger_index,
    closeTime: oldest.close_time,
    networkId: 0,
  });
  const account = doc._accounts.find((a) => !synthetic.has(a)) as string;
  t.type(account, 'string');
  const page = (await getJson(`${base}/account/${account}/transactions?limit=200`)).body as {
    transactions: Array<{ hash: string }>;
  };
  t.ok(page.transactions.map((x) => x.hash).includes(doc.hash), 'its transaction in the oldest range is found');
  const spent = await cost(`/account/${account}/transactions?limit=200`);
  const asked = [...spent.keys()].filter((index) => index.includes('-transactions-'));
  t.ok(asked.length <= ranges.length, `${asked.length} of ${ranges.length} ranges asked`);
  // One query (and one fetch where it found hits) per range shard: no range is asked twice.
  t.same(
    asked.filter((index) => (spent.get(index) as number) > 2),
    [],
    `each range once: ${show(spent)}`,
  );
});

t.test("an account's deep page skips the ranges its marker has passed", async (t) => {
  // The account of the real ledgers seen in the most ranges.
  const ranged = new Map<string, Set<number>>();
  for (const l of real)
    for (const x of l.transactions) {
      const doc = transformTransaction(x, { ledgerIndex: l.ledger_index, closeTime: l.close_time, networkId: 0 });
      for (const a of doc._accounts)
        ranged.set(a, (ranged.get(a) ?? new Set()).add(rangeStart(naming, l.ledger_index)));
    }
  const [account, seen] = [...ranged].sort((a, b) => b[1].size - a[1].size)[0] as [string, Set<number>];
  t.ok(seen.size >= 5, `${account} has transactions in ${seen.size} ranges`);
  // Walk to a page whose marker has passed at least two of those ranges.
  const starts = [...seen].sort((a, b) => b - a);
  let marker: string | undefined;
  let after = Infinity;
  while (after >= (starts[1] as number)) {
    const page = (
      await getJson(`${base}/account/${account}/transactions?limit=5${marker === undefined ? '' : `&marker=${marker}`}`)
    ).body as { marker?: string };
    t.type(page.marker, 'string', 'more pages');
    marker = page.marker as string;
    after = (JSON.parse(Buffer.from(marker, 'base64url').toString('utf8')) as { after: [number, number] }).after[0];
  }
  const spent = await cost(`/account/${account}/transactions?limit=5&marker=${marker}`);
  const passed = ranges.filter((index) => {
    const first = Number(/-transactions-(\d{10})-g\d+$/.exec(index)?.[1]);
    return first > after;
  });
  t.ok(passed.length >= 2, `${passed.length} ranges lie beyond the marker's ledger ${after}`);
  t.same(
    passed.filter((index) => spent.has(index)),
    [],
    `no range beyond the marker is asked (asked: ${show(spent)})`,
  );
});

t.test('SQL confined to some ledgers reads the ranges that hold them', async (t) => {
  // Two neighbouring ranges of the real ledgers that hold transactions.
  const starts = [
    ...new Set(real.filter((l) => l.transactions.length > 0).map((l) => rangeStart(naming, l.ledger_index))),
  ].sort((a, b) => a - b);
  const [low, high] = [starts[1] as number, starts[2] as number];
  const sql = async (where: string): Promise<{ spent: Map<string, number>; rows: number }> => {
    const init = {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `SELECT hash, ledger_index FROM transactions WHERE ${where}`, format: 'json' }),
    };
    const answer = (await (await fetch(`${base}/sql`, init)).json()) as { rows?: unknown[] } | unknown[];
    const rows = Array.isArray(answer) ? answer.length : (answer.rows?.length ?? 0);
    return { spent: await cost('/sql', init), rows };
  };
  const expected = real
    .filter((l) => l.ledger_index >= low && l.ledger_index <= high + RANGE - 1)
    .reduce((n, l) => n + l.transactions.length, 0);
  const between = await sql(`ledger_index BETWEEN ${low} AND ${high + RANGE - 1}`);
  t.equal(between.rows, expected, `${expected} rows, every one of the two ranges`);
  const asked = [...between.spent.keys()].filter((index) => index.includes('-transactions-'));
  t.same(
    asked.map((index) => Number(/-(\d{10})-g\d+$/.exec(index)?.[1])).sort((a, b) => a - b),
    [low, high],
    `the two ranges only, of ${ranges.length} (asked: ${show(between.spent)})`,
  );
  const one = await sql(`ledger_index >= ${high} AND ledger_index < ${high + RANGE} AND TransactionType <> 'none'`);
  t.same(
    [...one.spent.keys()].filter((index) => index.includes('-transactions-')).length,
    1,
    `one range when AND confines it to one (asked: ${show(one.spent)})`,
  );
});

t.test('the ledger at a date: the range that holds it', async (t) => {
  // The calendar of the ranges (their first close times) is read once, then kept.
  const target = real.filter((l) => l.transactions.length > 0)[3] as LedgerInput;
  const at = (seconds: number): string =>
    encodeURIComponent(new Date((seconds + RIPPLE_EPOCH_OFFSET) * 1000).toISOString());
  const answer = (await getJson(`${base}/ledger/at/${at(target.close_time)}`)).body as { ledger_index: number };
  t.equal(answer.ledger_index, target.ledger_index, 'the ledger closed at that instant');
  const later = (await getJson(`${base}/ledger/at/${at(target.close_time + 1)}`)).body as { ledger_index: number };
  t.equal(later.ledger_index, target.ledger_index, 'and a second later, the last closed before');
  const spent = await cost(`/ledger/at/${at(target.close_time)}`);
  const asked = [...spent.keys()].filter((index) => index.includes('-ledgers-'));
  t.same(
    asked,
    [
      `${naming.prefix}-${naming.network}-ledgers-${String(rangeStart(naming, target.ledger_index)).padStart(10, '0')}-g1`,
    ],
    `its range only (asked: ${show(spent)})`,
  );
  t.equal((await getJson(`${base}/ledger/at/2005-01-01T00:00:00Z`)).status, 404, 'before the first indexed ledger');
});
