import t from 'tap';
import {
  addPlan,
  chooseChunk,
  chunkId,
  chunkOrder,
  chunksOf,
  decide,
  endChunks,
  finishedLease,
  gapLedgers,
  gapsUpTo,
  isChunkOf,
  leaseFor,
  plannedChunkCount,
  rangesToWork,
  releasedLease,
  summarizePlan,
  withGap,
  withoutLedgers,
  type ChunkLease,
} from '../../src/index.js';

t.test('a range is cut into chunks aligned on multiples of the chunk size', async (t) => {
  t.same(chunksOf({ from: 95, to: 321 }, 100), [
    { from: 95, to: 99 },
    { from: 100, to: 199 },
    { from: 200, to: 299 },
    { from: 300, to: 321 },
  ]);
  t.same(chunksOf({ from: 100, to: 199 }, 100), [{ from: 100, to: 199 }], 'an aligned range is one chunk');
  t.same(chunksOf({ from: 7, to: 7 }, 100), [{ from: 7, to: 7 }]);
  // Two overlapping backfills agree on the chunks they share.
  const a = chunksOf({ from: 0, to: 999 }, 100).map((c) => chunkId('rippled', c));
  const b = chunksOf({ from: 300, to: 1500 }, 100).map((c) => chunkId('rippled', c));
  t.same(
    b.filter((id) => a.includes(id)),
    ['chunk.rippled.300-399', 'chunk.rippled.400-499', 'chunk.rippled.500-599'].concat(
      ['600-699', '700-799', '800-899', '900-999'].map((r) => `chunk.rippled.${r}`),
    ),
  );
  const covered = chunksOf({ from: 32570, to: 1_234_567 }, 10_000);
  t.equal(covered[0]?.from, 32570);
  t.equal(covered.at(-1)?.to, 1_234_567);
  for (let i = 1; i < covered.length; i += 1)
    t.equal(covered[i]?.from, (covered[i - 1]?.to ?? 0) + 1, 'no gap, no overlap');
});

const NOW = Date.parse('2026-11-25T10:00:00Z');
const lease = (over: Partial<ChunkLease>): ChunkLease => ({
  ...leaseFor(undefined, { source: 'rippled', from: 100, to: 199 }, 'w1', NOW, 60_000),
  ...over,
});

t.test('who may take a chunk', async (t) => {
  t.equal(decide(undefined, 'w2', NOW), 'claim', 'never leased');
  t.equal(decide(lease({}), 'w2', NOW), 'busy', 'a live lease of another worker');
  t.equal(decide(lease({}), 'w1', NOW), 'renew-own', 'its own lease (a restarted worker of the same name)');
  t.equal(decide(lease({}), 'w2', NOW + 60_000), 'take-over', 'expired at its expiry time');
  t.equal(decide(lease({ state: 'done' }), 'w2', NOW + 1e9), 'done');
});

t.test('a lease: expiry, progress that never goes back, takeovers counted', async (t) => {
  const first = lease({});
  t.match(first, {
    kind: 'chunk',
    state: 'leased',
    owner: 'w1',
    progress: 99,
    takeovers: 0,
    expires_at: '2026-11-25T10:01:00.000Z',
  });
  const renewed = leaseFor(first, first, 'w1', NOW + 20_000, 60_000, 150);
  t.match(renewed, {
    progress: 150,
    takeovers: 0,
    expires_at: '2026-11-25T10:01:20.000Z',
    started_at: first.started_at,
  });
  const taken = leaseFor(renewed, renewed, 'w2', NOW + 90_000, 60_000);
  t.match(taken, { owner: 'w2', progress: 150, takeovers: 1 }, 'the new holder resumes after the progress');
  t.equal(leaseFor(taken, taken, 'w2', NOW + 91_000, 60_000, 120).progress, 150, 'progress never goes back');
});

t.test('a plan records each backfill once', async (t) => {
  const one = addPlan(undefined, 'rippled', { from: 1, to: 10 }, 5);
  t.same(one.plans, [{ from: 1, to: 10, chunk: 5 }]);
  t.equal(addPlan(one, 'rippled', { from: 1, to: 10 }, 5).plans, one.plans, 'the same plan again changes nothing');
  t.same(addPlan(one, 'rippled', { from: 11, to: 20 }, 5).plans.length, 2);
});

t.test('a chunk done with gaps is retried by a later run only', async (t) => {
  const gapped = lease({
    state: 'gaps',
    progress: 199,
    finished_at: new Date(NOW).toISOString(),
    gaps: [{ from: 150, to: 150, reason: 'x' }],
  });
  t.equal(decide(gapped, 'w2', NOW + 10, NOW - 1000), 'done', 'left by this run: not retried by it');
  t.equal(decide(gapped, 'w2', NOW + 10, NOW + 1), 'retry-gaps', 'left before this run started: retried');
  t.equal(decide(gapped, 'w2', NOW + 10), 'done', 'without a run start, never retried');
  const retried = leaseFor(gapped, gapped, 'w2', NOW + 20, 60_000);
  t.match(retried, { state: 'leased', owner: 'w2', progress: 199, takeovers: 0, gaps: [{ from: 150, to: 150 }] });
  t.same(rangesToWork(retried), [{ from: 150, to: 150 }], 'only the gaps are fetched again');
  t.equal(leaseFor(lease({}), lease({}), 'w2', NOW + 61_000, 60_000).takeovers, 1, 'a takeover of a live lease counts');
});

t.test('gap bookkeeping: ledgers left out, merged, filled, recorded only up to the progress', async (t) => {
  let gaps = withGap([], 120, 'a');
  gaps = withGap(gaps, 121, 'b');
  gaps = withGap(gaps, 130, 'c');
  t.same(gaps, [
    { from: 120, to: 121, reason: 'b' },
    { from: 130, to: 130, reason: 'c' },
  ]);
  t.same(withGap(gaps, 130, 'again'), [gaps[0], { from: 130, to: 130, reason: 'again' }], 'a ledger failing again');
  t.equal(gapLedgers(gaps), 3);
  t.same(withoutLedgers([{ from: 10, to: 14, reason: 'r' }], [10, 12]), [
    { from: 11, to: 11, reason: 'r' },
    { from: 13, to: 14, reason: 'r' },
  ]);
  t.same(gapsUpTo(gaps, 125), [{ from: 120, to: 121, reason: 'b' }], 'nothing ahead of the progress');
  t.same(
    rangesToWork(lease({ progress: 160, gaps: [{ from: 120, to: 121, reason: 'b' }] })),
    [
      { from: 120, to: 121 },
      { from: 161, to: 199 },
    ],
    'a takeover fetches the gaps, then resumes after the progress',
  );
  const done = finishedLease(lease({ progress: 170 }), NOW, gaps);
  t.match(done, { state: 'gaps', progress: 199, gaps });
  t.match(finishedLease(lease({ gaps }), NOW, []), { state: 'done' });
  t.notOk('gaps' in finishedLease(lease({ gaps }), NOW, []), 'filled gaps are gone from the document');
  const released = releasedLease(lease({ progress: 140 }), NOW + 5000, 150, gaps.slice(0, 1));
  t.match(released, { state: 'leased', owner: 'w1', progress: 150, expires_at: new Date(NOW + 5000).toISOString() });
  t.equal(decide(released, 'w2', NOW + 5000), 'take-over', 'a released chunk is free at once');
});

t.test('workers start in their own share of the range and prefer range indices nobody writes', async (t) => {
  const chunks = chunksOf({ from: 0, to: 3999 }, 100); // 40 chunks over 4 range indices of 1000
  t.same(
    [0, 1, 2, 3].map((slot) => chunkOrder(chunks, slot, 4)[0]?.from),
    [0, 1000, 2000, 3000],
    'four workers start in four range indices',
  );
  t.equal(chunkOrder(chunks, 1, 4).length, 40, 'each still sees every chunk');
  t.same(chunkOrder(chunks, 0, 1), chunks);
  // w1 holds 1000-1099; w2 starts there but goes to the next range nobody writes.
  const held = lease({ from: 1000, to: 1099, owner: 'w1' });
  const leases = new Map([[chunkId('rippled', held), held]]);
  const ordered = chunkOrder(chunks, 1, 4);
  t.same(chooseChunk(ordered, leases, 'rippled', 'w2', NOW, NOW, 1000), {
    next: { chunk: { from: 2000, to: 2099 }, decision: 'claim' },
    open: true,
  });
  // When every free chunk is in a range someone writes, the first free one in order.
  const busyEverywhere = new Map(
    [0, 1000, 2000, 3000].map((from) => {
      const l = lease({ from, to: from + 99, owner: `x${from}` });
      return [chunkId('rippled', l), l] as const;
    }),
  );
  t.same(chooseChunk(ordered, busyEverywhere, 'rippled', 'w2', NOW, NOW, 1000).next?.chunk, { from: 1100, to: 1199 });
  const allDone = new Map(chunks.map((c) => [chunkId('rippled', c), lease({ ...c, state: 'done' })] as const));
  t.same(chooseChunk(ordered, allDone, 'rippled', 'w2', NOW, NOW, 1000), { open: false }, 'finished');
  const oneBusy = new Map([[chunkId('rippled', chunks[0] ?? held), lease({ from: 0, to: 99, owner: 'w1' })]]);
  t.same(chooseChunk([chunks[0] ?? held], oneBusy, 'rippled', 'w2', NOW, NOW, 1000), { open: true }, 'wait');
});

t.test('a plan: its chunk count without listing them, which chunks are its own', async (t) => {
  const plan = { from: 95, to: 321, chunk: 100 };
  t.equal(plannedChunkCount(plan), chunksOf(plan, 100).length);
  t.equal(plannedChunkCount({ from: 40000, to: 99_999_999_999, chunk: 10_000 }), 9_999_996);
  t.same(endChunks(plan), [
    { from: 95, to: 99 },
    { from: 300, to: 321 },
  ]);
  t.same(endChunks({ from: 150, to: 160, chunk: 100 }), [{ from: 150, to: 160 }]);
  for (const c of chunksOf(plan, 100)) t.ok(isChunkOf(plan, c), `${c.from}-${c.to} is its own`);
  t.notOk(isChunkOf(plan, { from: 100, to: 149 }), 'a clipped chunk of another plan');
  t.notOk(isChunkOf(plan, { from: 0, to: 99 }), 'outside');
  t.notOk(isChunkOf(plan, { from: 100, to: 249 }), 'another chunk size');
});

t.test('a plan summary from counts of its chunk documents', async (t) => {
  const plan = { from: 0, to: 499, chunk: 100 };
  const unfinished = [
    lease({ progress: 140 }),
    lease({ from: 200, to: 299, owner: 'w9', expires_at: new Date(NOW - 1).toISOString() }),
    lease({ from: 300, to: 399, state: 'gaps', progress: 399, gaps: [{ from: 310, to: 311, reason: 'lgrNotFound' }] }),
  ];
  const summary = summarizePlan(plan, { done: 1, gaps: 1, leased: 2, expired: 1, gapLedgers: 2 }, unfinished, NOW);
  t.match(summary, { name: '0-499', chunks: 5, done: 1, gaps: 1, leased: 1, expired: 1, pending: 1, gap_ledgers: 2 });
  t.same(
    summary.active.map((a) => [a.from, a.owner, a.progress, a.expired]),
    [
      [100, 'w1', 140, false],
      [200, 'w9', 99, true],
    ],
  );
  t.same(summary.gapped, [
    { from: 300, to: 399, state: 'gaps', gaps: [{ from: 310, to: 311, reason: 'lgrNotFound' }] },
  ]);
  t.match(
    summarizePlan(
      { from: 40000, to: 99_999_999_999, chunk: 10_000 },
      { done: 0, gaps: 0, leased: 0, expired: 0, gapLedgers: 0 },
      [],
      NOW,
    ),
    { pending: 9_999_996 },
    'a huge plan costs nothing to summarise',
  );
});
