import t from 'tap';
import { createTestIndices, readFixture } from '@xle/test-helpers';
import { getJson, ingest, serve } from '../fixtures/serve.js';
import { normalizeLedger, transformTransaction, type LedgerInput } from '@xle/documents';

const FIRST = 11119607;
const LAST = 11119627;
const ledgers: LedgerInput[] = [];
for (let n = FIRST; n <= LAST; n += 1)
  ledgers.push(normalizeLedger(readFixture(`ledgers/historical/rippled-historical-database/ledger-${n}.json`)));

/** Every (hash, ledger) of every account, computed from the fixtures themselves. */
const byAccount = new Map<string, { hash: string; ledger: number; index: number }[]>();
for (const ledger of ledgers) {
  for (const tx of ledger.transactions) {
    const doc = transformTransaction(tx, {
      ledgerIndex: ledger.ledger_index,
      closeTime: ledger.close_time,
      networkId: 0,
    });
    for (const account of doc._accounts) {
      byAccount.set(account, [
        ...(byAccount.get(account) ?? []),
        { hash: doc.hash, ledger: doc.ledger_index, index: doc.meta.TransactionIndex as number },
      ]);
    }
  }
}
const [busiest, all] = [...byAccount].sort((a, b) => b[1].length - a[1].length)[0] ?? ['', []];

interface Page {
  transactions: { hash: string; ledger_index: number }[];
  marker?: string;
  ledger_index_min: number;
  ledger_index_max: number;
}

t.test('walking with marker while new ledgers arrive sees every transaction exactly once', async (t) => {
  t.ok(all.length >= 20, `${busiest} has ${all.length} transactions in the run`);
  const target = await createTestIndices(t);
  const base = await serve(t, target);
  const initial = ledgers.filter((l) => l.ledger_index <= FIRST + 8);
  const later = ledgers.filter((l) => l.ledger_index > FIRST + 8);
  await ingest(target, initial);

  const seen: string[] = [];
  let marker: string | undefined;
  let pinned: number | undefined;
  let pages = 0;
  do {
    const url = `${base}/account/${busiest}/transactions?limit=3${marker === undefined ? '' : `&marker=${marker}`}`;
    const page = (await getJson(url)).body as Page;
    pinned ??= page.ledger_index_max;
    t.equal(page.ledger_index_max, pinned, 'the range stays pinned');
    // As rippled's account_tx: the oldest ledger searched (the oldest indexed), not the page's.
    t.equal(page.ledger_index_min, FIRST, 'the search starts at the oldest indexed ledger');
    seen.push(...page.transactions.map((tx) => tx.hash));
    marker = page.marker;
    pages += 1;
    // Newer ledgers land between pages.
    const next = later.shift();
    if (next !== undefined) await ingest(target, [next]);
  } while (marker !== undefined && pages < 100);

  const expected = all
    .filter((tx) => tx.ledger <= FIRST + 8)
    .sort((a, b) => b.ledger - a.ledger || b.index - a.index)
    .map((tx) => tx.hash);
  t.equal(new Set(seen).size, seen.length, 'no transaction repeated');
  t.same(seen, expected, 'every transaction of the pinned range, newest first');
  t.ok(pages > 3, `${pages} pages`);

  const forward: string[] = [];
  marker = undefined;
  do {
    const page = (
      await getJson(
        `${base}/account/${busiest}/transactions?forward=true&limit=4${marker === undefined ? '' : `&marker=${marker}`}`,
      )
    ).body as Page;
    forward.push(...page.transactions.map((tx) => tx.hash));
    marker = page.marker;
  } while (marker !== undefined);
  const everything = [...all].sort((a, b) => a.ledger - b.ledger || a.index - b.index).map((tx) => tx.hash);
  t.same(forward, everything, 'forward ordering walks oldest first, over everything now indexed');

  const reused = await getJson(
    `${base}/account/${busiest}/transactions?forward=false&marker=${encodeURIComponent(marker ?? 'x')}`,
  );
  t.equal(reused.status, 400, 'a marker from nowhere is refused');
});

t.test('filters', async (t) => {
  const target = await createTestIndices(t);
  const base = await serve(t, target);
  await ingest(target, ledgers);
  const page = async (query: string): Promise<{ transactions: Record<string, unknown>[] }> =>
    (await getJson(`${base}/account/${busiest}/transactions?limit=400&${query}`)).body as {
      transactions: Record<string, unknown>[];
    };
  const everything = (await page('')).transactions;
  t.equal(everything.length, all.length);
  const offers = (await page('type=OfferCreate')).transactions;
  t.ok(offers.length > 0 && offers.every((tx) => tx.TransactionType === 'OfferCreate'), 'type');
  const sent = (await page('direction=sent')).transactions;
  t.ok(
    sent.every((tx) => tx.Account === busiest),
    'direction=sent',
  );
  const received = (await page('direction=received')).transactions;
  t.ok(
    received.every((tx) => tx.Destination === busiest),
    'direction=received',
  );
  const ok = (await page('result=tesSUCCESS')).transactions;
  t.ok(
    ok.every((tx) => (tx.meta as { TransactionResult: string }).TransactionResult === 'tesSUCCESS'),
    'result',
  );
  const dates = everything.map((tx) => String(tx.date)).sort();
  const middle = dates[Math.floor(dates.length / 2)] ?? '';
  const late = (await page(`from=${encodeURIComponent(middle)}`)).transactions;
  t.ok(late.length > 0 && late.every((tx) => String(tx.date) >= middle), 'from');
  const usd = (await page('currency=USD')).transactions;
  t.ok(
    usd.every((tx) => JSON.stringify(tx).includes('"USD"')),
    'currency',
  );
});
