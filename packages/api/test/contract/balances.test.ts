import BigNumber from 'bignumber.js';
import { parse as parseCsv } from 'csv-parse/sync';
import t from 'tap';
import Compile from 'typebox/compile';
import { getBalanceChanges, type TransactionMetadata } from 'xrpl';
import { indexName } from '@xle/core';
import { currencyHex, type Json } from '@xle/documents';
import { pool, readAllDocuments } from '@xle/test-helpers';
import { ACCOUNTING_COLUMNS } from '../../src/shapers/accounting.js';
import { AccountingLine } from '../../src/schemas/responses/export.js';
import { fixtureLedgers, getJson, loadedIndices, serve } from '../fixtures/serve.js';

/**
 * The balance-changes data set and its routes on the fixture ledgers, checked against sources
 * that do not share its code: xrpl.js getBalanceChanges, and the metadata's own FinalFields,
 * NewFields and PreviousFields balances.
 */
const target = await loadedIndices(t);
const base = await serve(t, target);
const ledgers = fixtureLedgers();

type Doc = Record<string, unknown> & {
  account: string;
  currency_hex: string;
  issuer?: string;
  value: string;
  hash?: string;
};
// The changes (the data set's ledger markers have no account).
const docs = (await readAllDocuments<Doc>(target.client, indexName(target.naming, 'balance-changes'))).filter(
  (d) => typeof d.account === 'string',
);
const metaOf = (tx: Json): Json => (tx.metaData ?? tx.meta) as Json;
const hexOf = (currency: string): string => (currency === 'XRP' ? 'XRP' : (currencyHex(currency) ?? currency));

/** Sums per `account currency_hex issuer`, zero sums left out. */
function sums(
  rows: Iterable<{ account: string; currency: string; issuer?: string | undefined; value: string }>,
): string[] {
  const out = new Map<string, BigNumber>();
  for (const r of rows) {
    const key = `${r.account} ${hexOf(r.currency)} ${r.issuer ?? ''}`;
    out.set(key, (out.get(key) ?? new BigNumber(0)).plus(r.value));
  }
  return [...out]
    .filter(([, v]) => !v.isZero())
    .map(([k, v]) => `${k} ${v.toFixed()}`)
    .sort();
}

t.test('every fixture transaction: the indexed changes add up to xrpl.getBalanceChanges', async (t) => {
  const byHash = new Map<string, Doc[]>();
  for (const doc of docs) if (doc.hash !== undefined) byHash.set(doc.hash, [...(byHash.get(doc.hash) ?? []), doc]);
  let compared = 0;
  const seen = new Set<string>();
  for (const ledger of ledgers)
    for (const tx of ledger.transactions) {
      const hash = String(tx.hash).toUpperCase();
      if (seen.has(hash)) continue;
      seen.add(hash);
      const expected = sums(
        getBalanceChanges(metaOf(tx) as unknown as TransactionMetadata).flatMap((e) =>
          e.balances.map((b) => ({ account: e.account, currency: b.currency, issuer: b.issuer, value: b.value })),
        ),
      );
      const indexed = sums((byHash.get(hash) ?? []).map((d) => ({ ...d, currency: d.currency_hex })));
      if (!t.same(indexed, expected, hash)) return;
      compared += 1;
    }
  t.ok(compared >= 1000, `${compared} transactions compared`);
  t.comment(
    `${compared} transactions: indexed balance changes equal xrpl.getBalanceChanges (${docs.length} documents)`,
  );
});

/** One side of an AccountRoot or trust line in one ledger: its balance before the ledger's first change and after its last. */
interface Side {
  ledger: number;
  account: string;
  currency: string;
  issuer?: string;
  before: BigNumber;
  after: BigNumber;
  /** The entry was created in this ledger by AccountRoot creation (its history starts here). */
  created: boolean;
}

function sidesOfLedgers(): Side[] {
  const out = new Map<string, Side>();
  for (const ledger of ledgers) {
    const txs = [...ledger.transactions].sort(
      (a, b) => Number(metaOf(a).TransactionIndex) - Number(metaOf(b).TransactionIndex),
    );
    for (const tx of txs)
      for (const wrapper of (metaOf(tx).AffectedNodes as Json[]) ?? []) {
        const [kind, node] = Object.entries(wrapper)[0] as [string, Json];
        const type = node.LedgerEntryType;
        if (type !== 'AccountRoot' && type !== 'RippleState') continue;
        const fields = (kind === 'CreatedNode' ? node.NewFields : node.FinalFields) as Json | undefined;
        const previous = node.PreviousFields as Json | undefined;
        const value = (b: unknown): BigNumber | undefined =>
          b === undefined ? undefined : new BigNumber(typeof b === 'string' ? b : String((b as Json).value));
        const after = value(fields?.Balance) ?? new BigNumber(0);
        const before = kind === 'CreatedNode' ? new BigNumber(0) : (value(previous?.Balance) ?? after);
        const record = (account: string, currency: string, issuer: string | undefined, sign: number): void => {
          const key = `${ledger.ledger_index} ${account} ${currency} ${issuer ?? ''}`;
          const held = out.get(key);
          const scaled = (v: BigNumber): BigNumber => (type === 'AccountRoot' ? v.shiftedBy(-6) : v).times(sign);
          out.set(key, {
            ledger: ledger.ledger_index,
            account,
            currency,
            ...(issuer === undefined ? {} : { issuer }),
            before: held?.before ?? scaled(before),
            after: scaled(after),
            created: (held?.created ?? false) || (type === 'AccountRoot' && kind === 'CreatedNode'),
          });
        };
        // An AccountRoot node without its fields (some old metadata) names no account: nothing to check.
        if (type === 'AccountRoot') {
          if (typeof fields?.Account === 'string') record(fields.Account, 'XRP', undefined, 1);
        } else {
          const currency = String((fields?.Balance as Json).currency);
          const low = String((fields?.LowLimit as Json).issuer);
          const high = String((fields?.HighLimit as Json).issuer);
          record(low, currency, high, 1);
          record(high, currency, low, -1);
        }
      }
  }
  return [...out.values()];
}

const sides = sidesOfLedgers();

t.test(
  'balances?ledger=L of every entry the metadata changed: the FinalFields balance, both sides of trust lines',
  async (t) => {
    const changed = sides.filter((s) => !s.after.eq(s.before) || s.created);
    let exact = 0;
    let refused = 0;
    const wrong: string[] = [];
    await pool(sides, async (side) => {
      const query = new URLSearchParams({
        ledger: String(side.ledger),
        currency: side.currency,
        ...(side.issuer === undefined ? {} : { issuer: side.issuer }),
      });
      const { status, body } = await getJson(`${base}/account/${side.account}/balances?${query}`);
      const isChanged = changed.includes(side);
      if (status === 422 && !isChanged) {
        // Its balance did not move in that ledger: known only if the index holds its last change.
        refused += 1;
        return;
      }
      const answer = body as { balances?: Array<{ currency_hex: string; issuer: string | null; value: string }> };
      const found = answer.balances?.find(
        (b) => b.currency_hex === hexOf(side.currency) && b.issuer === (side.issuer ?? null),
      );
      const value = new BigNumber(found?.value ?? '0');
      if (status !== 200 || !value.eq(side.after))
        wrong.push(
          `${side.ledger} ${side.account} ${side.currency} ${side.issuer ?? ''}: ${status} ${found?.value} ≠ ${side.after.toFixed()}`,
        );
      else exact += 1;
    });
    t.same(wrong.slice(0, 20), [], 'no balance differs from the metadata’s');
    t.ok(
      exact >= changed.length,
      `${exact} balances exact (${changed.length} changed in their ledger), ${refused} refused`,
    );
    t.comment(
      `${exact} balances at their ledger equal the metadata's FinalFields/NewFields; ${refused} unchanged entries refused as not known`,
    );
  },
);

t.test('the changes in a ledger add up to the difference from PreviousFields', async (t) => {
  const byAccountLedger = new Map<string, Side[]>();
  for (const side of sides) {
    const key = `${side.account} ${side.ledger}`;
    byAccountLedger.set(key, [...(byAccountLedger.get(key) ?? []), side]);
  }
  const wrong: string[] = [];
  let checked = 0;
  await pool([...byAccountLedger.values()], async (group) => {
    const { account, ledger } = group[0] as Side;
    const { status, body } = await getJson(
      `${base}/account/${account}/balance_changes?from_ledger=${ledger}&to_ledger=${ledger}&limit=1000`,
    );
    const changes =
      (body as { changes?: Array<{ currency_hex: string; issuer: string | null; value: string }> }).changes ?? [];
    for (const side of group) {
      const sum = changes
        .filter((c) => c.currency_hex === hexOf(side.currency) && c.issuer === (side.issuer ?? null))
        .reduce((s, c) => s.plus(c.value), new BigNumber(0));
      if (status !== 200 || !sum.eq(side.after.minus(side.before)))
        wrong.push(
          `${ledger} ${account} ${side.currency}: ${sum.toFixed()} ≠ ${side.after.minus(side.before).toFixed()}`,
        );
      else checked += 1;
    }
  });
  t.same(wrong.slice(0, 20), []);
  t.ok(checked >= 1000, `${checked} sums equal final minus previous`);
  t.comment(`${checked} per-ledger sums of balance_changes equal FinalFields minus PreviousFields`);
});

t.test('an account created in an indexed ledger: all its balances from there; others refused', async (t) => {
  const created = sides.find((s) => s.created && s.currency === 'XRP');
  t.ok(created, 'an account created in a fixture ledger');
  const { status, body } = await getJson(`${base}/account/${created!.account}/balances?ledger=${created!.ledger}`);
  t.equal(status, 200);
  t.match(body, {
    account: created!.account,
    ledger_index: created!.ledger,
    complete_from_ledger: created!.ledger,
    balances: [{ currency: 'XRP', currency_hex: 'XRP', issuer: null }],
  });
  t.ok(new BigNumber((body as { balances: Array<{ value: string }> }).balances[0]!.value).eq(created!.after));

  const old = sides.find(
    (s) => !s.created && s.currency === 'XRP' && !sides.some((o) => o.account === s.account && o.created),
  );
  const refused = await getJson(`${base}/account/${old!.account}/balances?ledger=${old!.ledger}`);
  t.equal(refused.status, 422);
  t.match(refused.body, { error: { code: 'HISTORY_INCOMPLETE', details: { complete_from_ledger: null } } });
  const before = await getJson(`${base}/account/${created!.account}/balances?ledger=${created!.ledger - 1}`);
  t.equal(before.status, 422, 'before its creation ledger: its history has not started');
  t.match(before.body, { error: { code: 'HISTORY_INCOMPLETE' } });

  // The ledger closed by its creation's close time is not known when the ledger after it is not
  // indexed (it may have closed in the same second): a history to that instant is refused.
  const history = await getJson(
    `${base}/account/${created!.account}/balance_history?interval=day&to=${encodeURIComponent(
      String((body as { date: string }).date),
    )}`,
  );
  t.equal(history.status, 422, 'an instant whose ledger is not known');
  t.match(history.body, { error: { code: 'HISTORY_INCOMPLETE', message: /not known/ } });
});

t.test('bad input is a 400 with its parameter', async (t) => {
  const account = sides[0]!.account;
  for (const [query, parameter] of [
    ['issuer=rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', 'issuer'],
    ['currency=XRP&issuer=rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', 'issuer'],
    ['ledger=5&date=2024-01-01T00:00:00Z', 'date'],
    ['ledger=abc', 'ledger'],
    ['colour=red', 'colour'],
  ] as const) {
    const { status, body } = await getJson(`${base}/account/${account}/balances?${query}`);
    t.equal(status, 400, query);
    t.match(body, { error: { details: { parameter } } }, query);
  }
  const marker = await getJson(`${base}/account/${account}/balance_changes?marker=nope`);
  t.equal(marker.status, 400);
  const history = await getJson(`${base}/account/${account}/balance_history?currency=USD`);
  t.equal(history.status, 400, 'a token history needs its issuer');
  const span = await getJson(
    `${base}/account/${account}/balance_history?from=1990-01-01T00:00:00Z&to=2024-01-01T00:00:00Z`,
  );
  t.equal(span.status, 400, 'too many points');
});

/** The account with the most changes in the fixtures. */
const busiest = [
  ...docs.reduce((m, d) => m.set(d.account, (m.get(d.account) ?? 0) + 1), new Map<string, number>()),
].sort((a, b) => b[1] - a[1])[0] as [string, number];

t.test('balance_changes pages: each change exactly once, in order', async (t) => {
  const [account, count] = busiest;
  t.ok(count >= 30, `${account}: ${count} changes`);
  const walked: string[] = [];
  let marker: string | null = null;
  let pages = 0;
  do {
    const { status, body }: { status: number; body: unknown } = await getJson(
      `${base}/account/${account}/balance_changes?limit=7${marker === null ? '' : `&marker=${marker}`}`,
    );
    t.equal(status, 200);
    const page = body as {
      changes: Array<{ hash: string | null; position: number; ledger_index: number }>;
      marker: string | null;
    };
    walked.push(...page.changes.map((c) => `${c.ledger_index} ${c.hash} ${c.position}`));
    marker = page.marker;
    pages += 1;
  } while (marker !== null && pages < 1000);
  t.equal(walked.length, count, `${pages} pages`);
  t.equal(new Set(walked).size, count, 'each once');
  const whole = await getJson(`${base}/account/${account}/balance_changes?limit=1000`);
  t.same(
    (whole.body as { changes: Array<{ hash: string | null; position: number; ledger_index: number }> }).changes.map(
      (c) => `${c.ledger_index} ${c.hash} ${c.position}`,
    ),
    walked,
    'the pages are the one long page, cut',
  );
  const first = (await getJson(`${base}/account/${account}/balance_changes?limit=7`)).body as { marker: string };
  const other = await getJson(
    `${base}/account/${account}/balance_changes?limit=7&kind=fee&marker=${encodeURIComponent(first.marker)}`,
  );
  t.equal(other.status, 400, 'a marker of other filters is refused');
});

t.test('the accounting export: CSV read back into the documented columns; NDJSON the same rows', async (t) => {
  const [account] = busiest;
  const csv = await fetch(`${base}/export/balance_changes?account=${account}`);
  t.equal(csv.status, 200);
  t.match(csv.headers.get('content-type'), /^text\/csv/);
  const text = await csv.text();
  const rows = parseCsv(text, { columns: true }) as Array<Record<string, string>>;
  t.same(Object.keys(rows[0] ?? {}), [...ACCOUNTING_COLUMNS], 'the header is the documented columns');
  const mine = docs.filter((d) => d.account === account);
  t.equal(new Set(rows.map((r) => r.hash)).size, new Set(mine.map((d) => d.hash)).size, 'every transaction');
  // What left, came in and went in fees adds up to the changes, per asset.
  const net = new Map<string, BigNumber>();
  const add = (key: string, v: string): void => void net.set(key, (net.get(key) ?? new BigNumber(0)).plus(v));
  for (const r of rows) {
    if (r.sent_amount !== '')
      add(`${r.sent_currency} ${r.sent_issuer}`, new BigNumber(r.sent_amount!).negated().toFixed());
    if (r.received_amount !== '') add(`${r.received_currency} ${r.received_issuer}`, r.received_amount!);
    if (r.fee_amount !== '') add('XRP ', new BigNumber(r.fee_amount!).negated().toFixed());
  }
  const expected = new Map<string, BigNumber>();
  for (const d of mine) {
    const key = `${d.currency} ${d.issuer ?? ''}`;
    expected.set(key, (expected.get(key) ?? new BigNumber(0)).plus(d.value));
  }
  t.same(
    [...net].map(([k, v]) => `${k} ${v.toFixed()}`).sort(),
    [...expected].map(([k, v]) => `${k} ${v.toFixed()}`).sort(),
    'sent, received and fees add up to the balance changes',
  );
  const ndjson = await fetch(`${base}/export/balance_changes?account=${account}&format=ndjson`);
  t.match(ndjson.headers.get('content-type'), /^application\/x-ndjson/);
  const lines = (await ndjson.text())
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  t.same(
    lines.map((l) => Object.fromEntries(Object.entries(l).map(([k, v]) => [k, v === null ? '' : String(v)]))),
    rows,
    'the same rows',
  );
  const line = Compile(AccountingLine);
  t.same(
    lines.filter((l) => !line.Check(l)),
    [],
    `each of the ${lines.length} lines matches the published row schema`,
  );
});
