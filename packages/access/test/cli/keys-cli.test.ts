import { ReadEngine } from '@xle/core';
import t from 'tap';
import { createTestIndices, runNodeCli, type CliRun } from '@xle/test-helpers';
import {
  ApiKeyStore,
  API_KEY_PATTERN,
  firstKeptDay,
  hashApiKey,
  keyIdOf,
  UsageCounter,
  UsageStore,
} from '../../src/index.js';

const target = await createTestIndices(t);
const env = {
  ...process.env,
  ES_INDEX_PREFIX: target.config.es.indexPrefix,
  XLE_NETWORK: target.config.network,
  LOG_LEVEL: 'silent',
};

/** `pnpm access <args>`, i.e. the built CLI, on this test's indices. */
function access(...args: string[]): Promise<CliRun> {
  return runNodeCli('packages/access/dist/src/cli.js', args, env);
}

t.test('keys create / list / revoke', async (t) => {
  const created = await access('keys', 'create', '--plan', 'pro', '--label', 'ci runner');
  t.equal(created.code, 0, created.stderr);
  const key = created.stdout.trim();
  t.match(key, API_KEY_PATTERN, 'the key alone on stdout, printed once');
  const keyId = keyIdOf(hashApiKey(key));
  t.match(created.stderr, `created ${keyId} (pro, ci runner)`);

  const store = new ApiKeyStore(target.client, target.naming);
  t.match(await store.find(key), { key_id: keyId, plan: 'pro', label: 'ci runner', revoked: false });

  t.equal((await access('keys', 'create', '--plan', 'enterprise')).code, 0);
  const listed = await access('keys', 'list', '--json');
  t.equal(listed.code, 0);
  const records = JSON.parse(listed.stdout) as Record<string, unknown>[];
  t.equal(records.length, 2);
  t.match(records, [{ plan: 'enterprise' }, { key_id: keyId, plan: 'pro', label: 'ci runner', revoked: false }]);
  t.notOk(listed.stdout.includes(key) || listed.stdout.includes(hashApiKey(key)), 'neither the key nor its hash');
  const table = await access('keys', 'list');
  t.match(table.stdout, new RegExp(`^${keyId}\\s+pro\\s+\\S+\\s+active\\s+ci runner$`, 'm'));

  const revoked = await access('keys', 'revoke', keyId);
  t.same([revoked.code, revoked.stdout.trim()], [0, `revoked ${keyId}`]);
  t.match(await store.find(key), { revoked: true, revoked_at: String });
  t.match((await access('keys', 'list')).stdout, new RegExp(`^${keyId}\\s+pro\\s+\\S+\\s+revoked`, 'm'));
  t.equal((await access('keys', 'revoke', 'key_0000000000000000')).code, 1, 'an unknown id fails');

  // A leaked key known only by its value: revoked by it, and the secret never printed back.
  const leaked = (await access('keys', 'create', '--plan', 'pro', '--label', 'leaked')).stdout.trim();
  const byValue = await access('keys', 'revoke', leaked);
  t.equal(byValue.code, 0, byValue.stderr);
  t.equal(byValue.stdout.trim(), `revoked ${keyIdOf(hashApiKey(leaked))}`);
  t.notOk(`${byValue.stdout}${byValue.stderr}`.includes(leaked), 'the secret is not echoed');
  t.match(await store.find(leaked), { revoked: true });
  const unknown = await access('keys', 'revoke', `xle_${'A'.repeat(43)}`);
  t.equal(unknown.code, 1);
  t.notOk(unknown.stderr.includes('A'.repeat(43)), 'an unknown key is not echoed either');
});

t.test('bad arguments print the usage', async (t) => {
  const bad = await access('keys', 'create', '--plan', 'free');
  t.equal(bad.code, 64);
  t.match(bad.stderr, '--plan takes one of pro, enterprise');
  t.equal((await access('nothing')).code, 64);
});

t.test('usage prune: counters of days before the last N go, the recent ones stay', async (t) => {
  const store = new UsageStore(new ReadEngine(target.client), target.naming);
  const counter = new UsageCounter(store);
  const now = Date.now();
  const today = firstKeptDay(now, 1);
  const days = [firstKeptDay(now, 1), firstKeptDay(now, 2), firstKeptDay(now, 3), firstKeptDay(now, 40)];
  t.equal(firstKeptDay(Date.UTC(2026, 0, 1, 12), 2), '2025-12-31', 'the last 2 days of 1 January start on 31 December');
  for (const day of days) {
    await counter.reserve({ plan: 'free', client: '192.0.2.1', day }, 1, 10);
    await counter.reserve({ plan: 'pro', client: 'key_0000000000000001', day }, 1, 10);
  }
  const kept = await access('usage', 'prune', '--keep-days', '2');
  t.equal(kept.code, 0, kept.stderr);
  t.match(kept.stdout, `deleted 4 usage counters of days before ${days[1]}`);
  for (const [i, day] of days.entries()) {
    const expected = i < 2 ? 1 : 0;
    t.equal(await counter.peek({ plan: 'free', client: '192.0.2.1', day }), expected, `free ${day}`);
    t.equal(await counter.peek({ plan: 'pro', client: 'key_0000000000000001', day }), expected, `pro ${day}`);
  }
  t.equal(await store.prune(today, 1), 2, "a page at a time: yesterday's 2 counters");
  t.equal(await counter.peek({ plan: 'pro', client: 'key_0000000000000001', day: today }), 1, "today's stays");
  for (const bad of ['0', '-1', 'x', '1.5']) {
    const refused = await access('usage', 'prune', '--keep-days', bad);
    t.equal(refused.code, 64, `--keep-days ${bad}`);
    t.match(refused.stderr, '--keep-days takes a whole number');
  }
  t.equal((await access('usage', 'list')).code, 64, 'an unknown usage command prints the usage');
});
