import t from 'tap';
import { RIPPLE_EPOCH_OFFSET } from '@xle/documents';
import { fixtureLedgers, getJson, loadedIndices, serve } from '../fixtures/serve.js';

/** GET /ledger/at/{DATE} on the fixture ledgers: at, between and before their close times. */
const target = await loadedIndices(t);
const base = await serve(t, target);
const iso = (rippleSeconds: number): string => new Date((rippleSeconds + RIPPLE_EPOCH_OFFSET) * 1000).toISOString();

// The fixture ledgers by close time (then index): the expected answer of any instant.
const ledgers = fixtureLedgers()
  .map((l) => ({ index: l.ledger_index, close: l.close_time }))
  .sort((a, b) => a.close - b.close || a.index - b.index);
const expectedAt = (rippleSeconds: number): number | undefined =>
  ledgers.filter((l) => l.close <= rippleSeconds).at(-1)?.index;

async function ledgerAt(
  date: string,
): Promise<{ status: number; index?: number; header: string | null; code?: string }> {
  const answer = await getJson(`${base}/ledger/at/${encodeURIComponent(date)}`);
  const body = answer.body as { ledger_index?: number; error?: { code: string } };
  return {
    status: answer.status,
    header: answer.headers.get('x-ledger-index'),
    ...(body.ledger_index === undefined ? {} : { index: body.ledger_index }),
    ...(body.error === undefined ? {} : { code: body.error.code }),
  };
}

t.test('at, between and before the fixture close times', async (t) => {
  t.ok(ledgers.length >= 50, `${ledgers.length} fixture ledgers`);
  let checked = 0;
  for (const [i, ledger] of ledgers.entries()) {
    const next = ledgers[i + 1];
    const instants = [ledger.close];
    if (next !== undefined && next.close - ledger.close > 2) instants.push(ledger.close + 1, next.close - 1);
    for (const instant of instants) {
      const answer = await ledgerAt(iso(instant));
      t.equal(answer.status, 200, iso(instant));
      t.equal(answer.index, expectedAt(instant), `${iso(instant)}: ledger ${expectedAt(instant)}`);
      t.equal(answer.header, String(answer.index), 'its index in X-Ledger-Index');
      checked += 1;
    }
  }
  t.ok(checked > ledgers.length, `${checked} instants`);
  const newest = ledgers.at(-1)!;
  t.equal((await ledgerAt('2099-12-31T23:59:59Z')).index, newest.index, 'after the newest: the newest');
});

t.test('before the first indexed ledger: 404', async (t) => {
  const first = ledgers[0]!;
  const before = await ledgerAt(iso(first.close - 1));
  t.match(before, { status: 404, code: 'NOT_FOUND' });
  t.match(await ledgerAt('2000-01-01'), { status: 404, code: 'NOT_FOUND' });
  t.equal((await ledgerAt(iso(first.close))).index, first.index, 'its own close time finds it');
});

t.test('dates, zones and fractions', async (t) => {
  const some = ledgers[Math.floor(ledgers.length / 2)]!;
  const unix = (some.close + RIPPLE_EPOCH_OFFSET) * 1000;
  // The same instant written in another zone, without seconds' fraction or with one.
  const shifted = new Date(unix + 2 * 3600_000).toISOString().replace('.000Z', '+02:00');
  t.equal((await ledgerAt(shifted)).index, some.index, shifted);
  t.equal((await ledgerAt(iso(some.close).replace('.000Z', '.999Z'))).index, some.index, 'a fraction after it');
  t.equal((await ledgerAt(iso(some.close).replace('Z', '').replace('.000', ''))).index, some.index, 'no zone: UTC');
  // A date alone is its midnight, UTC: the ledger before it, or none.
  const day = iso(some.close).slice(0, 10);
  const midnight = expectedAt(Date.parse(`${day}T00:00:00Z`) / 1000 - RIPPLE_EPOCH_OFFSET);
  t.match(await ledgerAt(day), midnight === undefined ? { status: 404 } : { status: 200, index: midnight }, day);
  // Years before 100 are years, not 1900 + n: long before any ledger.
  t.match(await ledgerAt('0050-06-01T00:00:00Z'), { status: 404, code: 'NOT_FOUND' });
});

t.test('what is not a date is a 400 naming the parameter', async (t) => {
  for (const bad of [
    'yesterday',
    '2024-02-30',
    '2023-02-29T00:00:00Z',
    '2024-01-01T24:00:00Z',
    '2024-13-01',
    '1700000000',
    '2024-01-01T10:00:00+25:00',
  ]) {
    const answer = await getJson(`${base}/ledger/at/${encodeURIComponent(bad)}`);
    t.equal(answer.status, 400, bad);
    t.match(answer.body, { error: { code: 'INVALID_PARAMETER', details: { parameter: 'DATE' } } }, bad);
  }
});
