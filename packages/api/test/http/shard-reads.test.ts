import t from 'tap';
import { MAX_NAMED_RANGES, rangeIndices, rangeStart } from '@xle/core';
import { RIPPLE_EPOCH_OFFSET, transformTransaction, type Json, type LedgerInput } from '@xle/documents';
import { MANY_RANGES_LEDGERS, manyRangesIndices, shardOperations, shardWork, type ShardWork } from '@xle/test-loaded';
import { getJson, serve, withoutAnswerCache } from '../fixtures/serve.js';

/**
 * Lookups reach only the shards that hold their data, however many ranges the history has: the
 * real fixture ledgers (2013 to 2025) and a few synthetic ones, in ranges of 1,000 ledgers, make
 * more than 32 transaction range indices (more than one search names at once, MAX_NAMED_RANGES); each lookup's cost is read from the engine's own
 * statistics (query, fetch and get operations per shard) before and after it.
 */
const RANGE = MANY_RANGES_LEDGERS;
const { target, real, ledgers } = await manyRangesIndices(t);
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

/**
 * The shard work of an account's page, per index: the request is sent twice and the second
 * measured (the first fills the caches of labels and of the newest and oldest ledger).
 */
async function pageWork(path: string): Promise<{ work: Map<string, ShardWork>; hashes: string[]; marker?: string }> {
  const first = await getJson(`${base}${path}`);
  t.equal(first.status, 200, path);
  const before = await shardWork(target);
  const again = await getJson(`${base}${path}`);
  const after = await shardWork(target);
  const work = new Map<string, ShardWork>();
  for (const [index, w] of after) {
    const b = before.get(index) ?? { query: 0, fetch: 0, get: 0 };
    const d = { query: w.query - b.query, fetch: w.fetch - b.fetch, get: w.get - b.get };
    if (d.query + d.fetch + d.get > 0) work.set(index, d);
  }
  const page = again.body as { transactions?: { hash: string }[]; marker?: string };
  return {
    work,
    hashes: (page.transactions ?? []).map((x) => x.hash),
    ...(page.marker === undefined ? {} : { marker: page.marker }),
  };
}

/** Every account's transactions (hash, ledger, type) in the history, from the documents' own rule. */
const history = new Map<string, { hash: string; ledger: number; type: string }[]>();
for (const l of ledgers)
  for (const x of l.transactions) {
    const doc = transformTransaction(x, { ledgerIndex: l.ledger_index, closeTime: l.close_time, networkId: 0 });
    for (const a of doc._accounts)
      history.set(a, [
        ...(history.get(a) ?? []),
        { hash: doc.hash, ledger: l.ledger_index, type: String(doc.TransactionType) },
      ]);
  }
const rangeOf = (ledger: number): string =>
  `${naming.prefix}-${naming.network}-transactions-${String(rangeStart(naming, ledger)).padStart(10, '0')}-g1`;
const spanned = (account: string): number => new Set((history.get(account) ?? []).map((x) => rangeOf(x.ledger))).size;

t.test("an account's pages: one shard of the activity index, then only the ranges that hold the page", async (t) => {
  const byRanges = [...history].sort((a, b) => spanned(b[0]) - spanned(a[0]) || b[1].length - a[1].length);
  const spread = byRanges[0]?.[0] as string;
  // An account whose transactions all lie in one range, with enough of them for several pages.
  const sparse = byRanges
    .filter(([a, list]) => spanned(a) === 1 && list.length >= 5)
    .sort((a, b) => b[1].length - a[1].length)[0]?.[0] as string;
  t.ok(
    spanned(spread) >= 0.7 * ranges.length,
    `${spread}: transactions in ${spanned(spread)} of ${ranges.length} ranges`,
  );
  t.type(sparse, 'string', `${sparse}: ${history.get(sparse)?.length} transactions in one range`);
  const activity = `${naming.prefix}-${naming.network}-activity`;
  for (const account of [spread, sparse]) {
    const all = history.get(account) ?? [];
    const type = [...new Set(all.map((x) => x.type))].sort(
      (a, b) => all.filter((x) => x.type === b).length - all.filter((x) => x.type === a).length,
    )[0] as string;
    const queries = ['limit=2', 'limit=2&forward=true', `limit=2&type=${type}`, `limit=2&type=${type}&forward=true`];
    // Pages that span many ranges, too.
    if (account === spread) queries.push('limit=60', 'limit=60&forward=true');
    for (const query of queries) {
      // The first page and a deep one (the fourth, or the last there is).
      let marker: string | undefined;
      for (let page = 1; page <= 4; page += 1) {
        const path = `/account/${account}/transactions?${query}${marker === undefined ? '' : `&marker=${marker}`}`;
        const { work, hashes, marker: next } = await pageWork(path);
        if (page === 1 || page === 4 || next === undefined) {
          const holding = new Set(hashes.map((h) => rangeOf(all.find((x) => x.hash === h)?.ledger as number)));
          const ranged = [...work.keys()].filter((index) => index.includes('-transactions-'));
          const requests = [...work.values()].reduce((n, w) => n + w.query + w.get, 0);
          const label = `${account} ${query} page ${page}`;
          t.same(
            ranged.filter((index) => !holding.has(index)),
            [],
            `${label}: no range but the ${holding.size} holding its ${hashes.length} transactions`,
          );
          t.ok(
            requests <= 2 + holding.size,
            `${label}: ${requests} shard requests <= 2 + ${holding.size} (${[...work].map(([i, w]) => `${i.slice(naming.prefix.length + 1)} q${w.query} f${w.fetch} g${w.get}`).join(', ')})`,
          );
          t.ok((work.get(activity)?.query ?? 0) <= 1, `${label}: one shard of the activity index`);
          for (const [index, w] of work) t.ok(w.fetch <= w.query, `${label}: ${index} fetched at most once per search`);
        }
        if (next === undefined) break;
        marker = next;
      }
    }
  }
});

/** The work of one request, measured on its second sending (see pageWork), and its JSON answer. */
async function requestWork(path: string): Promise<{ work: Map<string, ShardWork>; body: Json }> {
  const { work } = await pageWork(path);
  return { work, body: (await getJson(`${base}${path}`)).body as Json };
}

const rangeIndexOf = (kind: string, ledger: number): string =>
  `${naming.prefix}-${naming.network}-${kind}-${String(rangeStart(naming, ledger)).padStart(10, '0')}-g1`;

t.test(
  "an account's balance changes and an NFT's history: one activity shard, then the ranges holding the page",
  async (t) => {
    const activity = `${naming.prefix}-${naming.network}-activity`;
    const byRanges = [...history].sort((a, b) => spanned(b[0]) - spanned(a[0]));
    const account = byRanges[0]?.[0] as string;
    // The account's history starts in its oldest range: the completeness of its balances reads there too.
    const firstLedger = Math.min(...(history.get(account) ?? []).map((x) => x.ledger));
    let marker: string | undefined;
    for (let page = 1; page <= 3; page += 1) {
      const path = `/account/${account}/balance_changes?limit=3${marker === undefined ? '' : `&marker=${marker}`}`;
      const { work, body } = await requestWork(path);
      const changes = body.changes as { ledger_index: number }[];
      t.ok(changes.length > 0, `page ${page}: ${changes.length} changes`);
      const holding = new Set([
        ...changes.map((c) => rangeIndexOf('balance-changes', c.ledger_index)),
        rangeIndexOf('balance-changes', firstLedger),
      ]);
      const ranged = [...work.keys()].filter((index) => index.includes('-balance-changes-'));
      const requests = [...work.values()].reduce((n, w) => n + w.query + w.get, 0);
      const label = `${account} balance changes page ${page}`;
      t.same(
        ranged.filter((index) => !holding.has(index)),
        [],
        `${label}: only the ranges holding its changes and its start`,
      );
      t.ok(
        (work.get(activity)?.query ?? 0) <= 2,
        `${label}: the activity shard (the page, and where the history starts)`,
      );
      t.ok(requests <= 2 + holding.size, `${label}: ${requests} shard requests <= 2 + ${holding.size}`);
      marker = body.marker as string | undefined;
      if (marker === undefined) break;
    }
    // The NFT of the fixtures with the longest history.
    const nfts = new Map<string, number[]>();
    const counted = new Set<string>(); // 83258110 comes twice (binary and expanded)
    for (const l of ledgers)
      for (const x of l.transactions) {
        const doc = transformTransaction(x, { ledgerIndex: l.ledger_index, closeTime: l.close_time, networkId: 0 });
        if (counted.has(doc.hash)) continue;
        counted.add(doc.hash);
        for (const id of (doc._nftokens as string[] | undefined) ?? [])
          nfts.set(id, [...(nfts.get(id) ?? []), l.ledger_index]);
      }
    const [nft, seen] = [...nfts].sort((a, b) => b[1].length - a[1].length)[0] as [string, number[]];
    const { work, body } = await requestWork(`/nft/${nft}/history?limit=5`);
    t.equal((body.transactions as unknown[]).length, Math.min(5, seen.length), `${nft}: ${seen.length} transactions`);
    const holding = new Set(seen.slice(0, 5).map((l) => rangeIndexOf('transactions', l)));
    const ranged = [...work.keys()].filter((index) => index.includes('-transactions-'));
    t.same(
      ranged.filter((index) => !holding.has(index)),
      [],
      'its history: only the ranges holding the page',
    );
    t.ok((work.get(activity)?.query ?? 0) <= 1, 'one shard of the activity index');
  },
);

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
