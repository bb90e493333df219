import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { indexName } from '@xle/core';
import { createTestIndices, runNodeCli, type CliRun } from '@xle/test-helpers';

/**
 * The record imports (`pnpm names import`, `pnpm kyc import`) as an operator runs them: an input
 * without a record, or one that would remove most of a source, is refused with exit 1 and a message
 * that names the fault and the option that overrides it, and the source is left as it was.
 */
const target = await createTestIndices(t);
const env = {
  ...process.env,
  ES_INDEX_PREFIX: target.config.es.indexPrefix,
  XLE_NETWORK: target.config.network,
  LOG_LEVEL: 'silent',
};
const dir = mkdtempSync(join(tmpdir(), 'import-guard-'));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const cli = (tool: 'names' | 'kyc', ...args: string[]): Promise<CliRun> =>
  runNodeCli(`packages/ingester/dist/src/${tool}/cli.js`, args, env);

async function sourceOf(kind: 'names' | 'kyc', source: string): Promise<string[]> {
  await target.client.indices.refresh({ index: indexName(target.naming, kind) });
  const found = await target.client.search<{ account: string }>({
    index: indexName(target.naming, kind),
    query: { term: { source } },
    size: 100,
    sort: [{ account: 'asc' }],
  });
  return found.hits.hits.map((h) => String(h._source?.account));
}

const ACCOUNTS = [
  'rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw',
  'rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y',
  'rvYAfWj5gh67oV6fW32ZzP3Aw4Eubs59B',
];

t.test('names: an empty file or a header-only CSV is refused and the source kept', async (t) => {
  const full = file('labels.csv', `account,name\n${ACCOUNTS.map((a, i) => `${a},Label ${i}`).join('\n')}\n`);
  const first = await cli('names', 'import', full, '--source', 'audit');
  t.equal(first.code, 0, first.stderr);
  t.match(first.stdout, 'names: source audit holds 0 records: 3 to write, 0 to remove', 'the plan, before writing');
  t.same(await sourceOf('names', 'audit'), [...ACCOUNTS].sort());
  for (const [what, path] of [
    ['a 0-byte file', file('empty.csv', '')],
    ['a header-only CSV', file('header.csv', 'account,name\n')],
    ['an empty JSON array', file('empty.json', '[]')],
  ] as const) {
    const refused = await cli('names', 'import', path, '--source', 'audit');
    t.equal(refused.code, 1, `${what}: exit 1`);
    t.match(refused.stderr, 'holds no names record', `${what}: the fault`);
    t.match(refused.stderr, 'remove all 3 records of source “audit”', `${what}: what it would have removed`);
    t.match(refused.stderr, '--allow-empty', `${what}: the option that means it`);
    t.notMatch(refused.stderr, /\n\s+at /, `${what}: no stack trace`);
    t.same(await sourceOf('names', 'audit'), [...ACCOUNTS].sort(), `${what}: the source intact`);
  }
  // Most of the source gone: refused unless --replace.
  const one = file('one.csv', `account,name\n${ACCOUNTS[0]},Only one\n`);
  const most = await cli('names', 'import', one, '--source', 'audit');
  t.equal(most.code, 1);
  t.match(most.stderr, 'would remove 2 of the 3 names records of source “audit”');
  t.match(most.stderr, '--replace');
  t.same(await sourceOf('names', 'audit'), [...ACCOUNTS].sort(), 'the source intact');
  const replaced = await cli('names', 'import', one, '--source', 'audit', '--replace');
  t.equal(replaced.code, 0, replaced.stderr);
  t.match(replaced.stdout, '1 written, 2 removed');
  t.same(await sourceOf('names', 'audit'), [ACCOUNTS[0]]);
  const emptied = await cli(
    'names',
    'import',
    file('header2.csv', 'account,name\n'),
    '--source',
    'audit',
    '--allow-empty',
  );
  t.equal(emptied.code, 0, emptied.stderr);
  t.same(await sourceOf('names', 'audit'), [], 'emptied when asked to');
});

t.test('kyc: a header-only CSV is refused and the source kept', async (t) => {
  const full = file('kyc.csv', `account,kycApproved\n${ACCOUNTS.map((a) => `${a},true`).join('\n')}\n`);
  const first = await cli('kyc', 'import', full, '--source', 'provider');
  t.equal(first.code, 0, first.stderr);
  const refused = await cli('kyc', 'import', file('kyc-header.csv', 'account,kycApproved\n'), '--source', 'provider');
  t.equal(refused.code, 1);
  t.match(refused.stderr, 'holds no kyc record');
  t.match(refused.stderr, '--allow-empty');
  t.same(await sourceOf('kyc', 'provider'), [...ACCOUNTS].sort(), 'the source intact');
});
