import t from 'tap';
import { applyTemplates, createLogger, deleteIndicesOf, type IndexNaming } from '@xle/core';
import { normalizeLedger, type LedgerInput } from '@xle/documents';
import { IngestEngine, LeaseStore, ingestLedgers } from '@xle/ingester';
import { createTestIndices, readFixture } from '@xle/test-helpers';
import { fixtureLedgers, getJson, ingest, loadedIndices, runAllJobs, serve } from '../fixtures/serve.js';

/** GET /status on a run of consecutive real ledgers, one of them held back and then ingested. */
const FIRST = 11119607;
const LAST = 11119627;
const SKIPPED = 11119615;
const ledgers = new Map<number, LedgerInput>();
for (let n = FIRST; n <= LAST; n += 1)
  ledgers.set(n, normalizeLedger(readFixture(`ledgers/historical/rippled-historical-database/ledger-${n}.json`)));

interface Report {
  network: string;
  networks: {
    network: string;
    ledgers: {
      first: number;
      last: number;
      indexed: number;
      missing: number;
      complete: boolean;
      ranges: { from: number; to: number }[];
      gaps: { from: number; to: number }[];
      gaps_count: number;
      unresolved: unknown[];
    };
    newest: { ledger_index: number; age_seconds: number } | null;
    validated: { ledger_index: number; lag_ledgers: number; source: string } | null;
    data_sets: { name: string; computed: boolean; as_of_ledger: number | null; age_seconds: number | null }[];
    workers: { owner: string; state: string; heartbeat_age_seconds: number; validated_ledger: number | null }[];
  }[];
}

const target = await createTestIndices(t);
await ingest(
  target,
  [...ledgers].filter(([n]) => n !== SKIPPED).map(([, l]) => l),
);

// A fresh app per look: the report is kept 5 seconds by the app that made it.
const report = async (): Promise<Report> => {
  const answer = await getJson(`${await serve(t, target)}/status`);
  t.equal(answer.status, 200, 'GET /status');
  return answer.body as Report;
};

t.test('a skipped ledger is a gap; ingested, the gap closes', async (t) => {
  const before = await report();
  t.equal(before.network, 'mainnet');
  const mainnet = before.networks[0]!;
  t.same(mainnet.ledgers.gaps, [{ from: SKIPPED, to: SKIPPED }]);
  t.same(mainnet.ledgers.ranges, [
    { from: FIRST, to: SKIPPED - 1 },
    { from: SKIPPED + 1, to: LAST },
  ]);
  t.match(mainnet.ledgers, {
    first: FIRST,
    last: LAST,
    indexed: LAST - FIRST,
    missing: 1,
    complete: false,
    unresolved: [],
  });
  t.match(mainnet.newest, { ledger_index: LAST });
  t.ok((mainnet.newest?.age_seconds ?? 0) > 86_400 * 365 * 10, 'a ledger of 2015: more than ten years old');
  t.ok(mainnet.data_sets.length >= 5, 'every data set a route serves');
  t.ok(
    mainnet.data_sets.every((d) => !d.computed && d.as_of_ledger === null),
    'none computed yet',
  );
  t.equal(mainnet.validated, null, 'no validated ledger seen yet');

  await ingest(target, [ledgers.get(SKIPPED)!]);
  const after = (await report()).networks[0]!;
  t.same(after.ledgers.gaps, []);
  t.same(after.ledgers.ranges, [{ from: FIRST, to: LAST }]);
  t.match(after.ledgers, { indexed: LAST - FIRST + 1, missing: 0, complete: true });
});

t.test('many gaps at scale of the histogram: each one found exactly', async (t) => {
  // Gaps far apart and close together, found by slicing the span finer where it is partly indexed.
  const scattered = await createTestIndices(t);
  const kept = [...ledgers.values()].filter(
    (l) => ![FIRST + 2, FIRST + 3, FIRST + 9, LAST - 1].includes(l.ledger_index),
  );
  await ingest(scattered, kept);
  const answer = (await getJson(`${await serve(t, scattered)}/status`)).body as Report;
  t.same(answer.networks[0]?.ledgers.gaps, [
    { from: FIRST + 2, to: FIRST + 3 },
    { from: FIRST + 9, to: FIRST + 9 },
    { from: LAST - 1, to: LAST - 1 },
  ]);
  t.equal(answer.networks[0]?.ledgers.missing, 4);
});

t.test('data sets, the live follower and another network', async (t) => {
  await runAllJobs(target);
  const engine = new IngestEngine(target.client, target.naming, createLogger('test', 'silent'));
  // The live follower's heartbeat, written by the ingester's own store: it saw ledger LAST + 5 validated.
  await new LeaseStore(engine, 'rippled').heartbeat({
    owner: 'live-test',
    state: 'following',
    progress: LAST,
    validated_ledger: LAST + 5,
  });
  await engine.refresh(['ingest-state']);
  // Testnet indices under the same prefix, holding one ledger.
  const testnet: IndexNaming = { ...target.naming, network: 'testnet' };
  await applyTemplates(target.client, testnet);
  // Its indices and index templates only: the component templates are the prefix's, shared with mainnet's.
  t.teardown(() => deleteIndicesOf(target.client, testnet));
  await ingestLedgers([ledgers.get(FIRST)!], new IngestEngine(target.client, testnet, createLogger('test', 'silent')));

  const answer = await report();
  const [mainnet, other] = answer.networks;
  t.ok(
    mainnet?.data_sets
      .filter((d) => d.name !== 'network' && d.name !== 'nodes' && d.name !== 'validators' && d.name !== 'kyc')
      .every((d) => d.computed && d.as_of_ledger === LAST && (d.age_seconds ?? 99) < 120),
    'the jobs ran: as of the newest ledger, just now',
  );
  t.match(mainnet?.validated, { ledger_index: LAST + 5, lag_ledgers: 5, source: /live follower live-test/ });
  t.match(
    mainnet?.workers.find((w) => w.owner === 'live-test'),
    { state: 'following', validated_ledger: LAST + 5 },
  );
  t.ok((mainnet?.workers[0]?.heartbeat_age_seconds ?? 99) < 60);
  t.match(other, { network: 'testnet', ledgers: { first: FIRST, last: FIRST, indexed: 1, complete: true } });
});

t.test('every fixture ledger: scattered over 93 million ledgers, found slice by slice', async (t) => {
  // The histogram's slices are ~93,000 ledgers wide and the first ledger is not a multiple of
  // that: each partly indexed slice is refined down to single ledgers.
  const all = await loadedIndices(t);
  const indices = [...new Set(fixtureLedgers().map((l) => l.ledger_index))].sort((a, b) => a - b);
  const expected: { from: number; to: number }[] = [];
  for (const index of indices) {
    const last = expected[expected.length - 1];
    if (last !== undefined && last.to + 1 === index) last.to = index;
    else expected.push({ from: index, to: index });
  }
  const first = indices[0]!;
  const last = indices[indices.length - 1]!;
  const answer = (await getJson(`${await serve(t, all)}/status`)).body as Report;
  const ledgers = answer.networks[0]!.ledgers;
  t.same(ledgers.unresolved, [], 'resolved within the budget');
  t.same(ledgers.ranges, expected, `${expected.length} ranges`);
  t.equal(ledgers.gaps_count, expected.length - 1);
  t.same(
    ledgers.gaps,
    expected.slice(1).map((r, i) => ({ from: expected[i]!.to + 1, to: r.from - 1 })),
  );
  t.match(ledgers, { first, last, indexed: indices.length, missing: last - first + 1 - indices.length });
});
