import t from 'tap';
import { rangeIndices, rangeStart } from '@xle/core';
import { transformTransaction, type LedgerInput } from '@xle/documents';
import { createTestIndices, syntheticLedgers } from '@xle/test-helpers';
import { fixtureLedgers, getJson, ingest, serve } from '../fixtures/serve.js';

/**
 * Lookups reach only the shards that hold their data, however many ranges the history has: the
 * real fixture ledgers (2013 to 2025) and a few synthetic ones, in ranges of 1,000 ledgers, make
 * more than 20 transaction range indices; each lookup's cost is read from the engine's own
 * statistics (query, fetch and get operations per shard) before and after it.
 */
const RANGE = 1000;
const real = fixtureLedgers();
// Five more ranges, far from the real ledgers (each set seeded apart: no hash repeats).
const extra = [0, 1, 2, 3, 4].flatMap((i) => [
  ...syntheticLedgers(real, {
    transactions: 60,
    perLedger: 20,
    startLedger: 300_000_000 + i * 7 * RANGE,
    seed: `shard-reads-${i}`,
  }),
]);
const ledgers: LedgerInput[] = [...real, ...extra];

const target = await createTestIndices(t, { es: { rangeLedgers: RANGE } });
await ingest(target, ledgers);
const base = await serve(t, target);
const { client, naming } = target;

/** Shard-level query, fetch and get operations per index of the test's prefix, now. */
async function operations(): Promise<Map<string, number>> {
  const stats = await client.indices.stats({ index: `${naming.prefix}-*`, metric: ['search', 'get'] });
  const found = new Map<string, number>();
  for (const [index, s] of Object.entries(stats.indices ?? {})) {
    const total = s.total ?? {};
    found.set(index, (total.search?.query_total ?? 0) + (total.search?.fetch_total ?? 0) + (total.get?.total ?? 0));
  }
  return found;
}

/**
 * The shard operations one request costs, per index. The request is sent twice and the second
 * is measured: the first fills the API's caches of labels and amendment names (small indices of
 * their own, not the history), so what is left is the lookup itself.
 */
async function cost(path: string): Promise<Map<string, number>> {
  t.equal((await getJson(`${base}${path}`)).status, 200, path);
  const before = await operations();
  const answer = await getJson(`${base}${path}`);
  t.equal(answer.status, 200, path);
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
t.ok(ranges.length >= 20, `${ranges.length} transaction range indices`);

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

t.test('an unknown hash: one read by id', async (t) => {
  const before = await operations();
  t.equal((await getJson(`${base}/tx/${'AB'.repeat(32)}`)).status, 404);
  const after = await operations();
  const spent = [...after].reduce((n, [index, v]) => n + v - (before.get(index) ?? 0), 0);
  t.equal(spent, 1, 'the locator alone');
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
