import t from 'tap';
import { addPlan, chunkId, chunksOf, decide, leaseFor, summarizeChunks, type ChunkLease } from '../../src/index.js';

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

t.test('chunks by state for the status report', async (t) => {
  const planned = chunksOf({ from: 0, to: 499 }, 100);
  const leases = new Map<string, ChunkLease>([
    [chunkId('rippled', { from: 0, to: 99 }), lease({ from: 0, to: 99, state: 'done' })],
    [chunkId('rippled', { from: 100, to: 199 }), lease({ progress: 140 })],
    [
      chunkId('rippled', { from: 200, to: 299 }),
      lease({ from: 200, to: 299, owner: 'w9', expires_at: new Date(NOW - 1).toISOString() }),
    ],
  ]);
  const summary = summarizeChunks(planned, leases, 'rippled', NOW);
  t.match(summary, { done: 1, leased: 1, expired: 1, pending: 2 });
  t.same(
    summary.active.map((a) => [a.from, a.owner, a.progress, a.expired]),
    [
      [100, 'w1', 140, false],
      [200, 'w9', 99, true],
    ],
  );
});
