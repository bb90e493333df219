import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { createLogger, indexName, repoRoot } from '@xle/core';
import { normalizeLedger, stateChanges, type Json, type LedgerInput } from '@xle/documents';
import { IngestEngine, ingestLedgers } from '../../src/index.js';
import {
  createTestIndices,
  indexContent,
  listFixtureLedgers,
  readAllDocuments,
  readFixture,
  shuffled,
  type TestIndices,
} from '@xle/test-helpers';

// Ledger state that does not grow with history: the objects index holds live entries only, and a
// deleted entry leaves one small guard. Real mainnet ledgers create and delete offers and
// directory nodes; replayed in any order, stopped with SIGKILL and run again, they must end in the
// state of one run in ledger order, never bringing back an entry deleted by a newer ledger.

const logger = createLogger('deletions-test', 'silent');
const files = listFixtureLedgers();
const raw = files.map((file) => readFixture<Json>(file));
const ledgers: LedgerInput[] = raw.map((r) => normalizeLedger(r));
/** The xrpl4j test ledger whose transaction tree does not reproduce: `ingest file` indexes it only when asked. */
const EDITED = '87704323';

/** The state the ledgers leave, computed here from their metadata: the newest change of each entry. */
function expectedState(): { live: Map<string, Json>; deleted: Map<string, number> } {
  const newest = new Map<string, { version: number; doc: Json }>();
  const deleted = new Map<string, number>();
  for (const ledger of ledgers)
    for (const tx of ledger.transactions)
      for (const change of stateChanges(tx, ledger.ledger_index).objects) {
        const known = newest.get(change.id);
        if (known === undefined || known.version < change.version)
          newest.set(change.id, { version: change.version, doc: change.doc });
      }
  const live = new Map<string, Json>();
  for (const [id, { doc, version }] of newest)
    if (doc.deleted !== true) live.set(id, doc);
    else deleted.set(id, version);
  return { live, deleted };
}

async function state(target: TestIndices) {
  return {
    objects: await indexContent(target.client, indexName(target.naming, 'objects')),
    deletions: await indexContent(target.client, indexName(target.naming, 'deletions')),
    accounts: await indexContent(target.client, indexName(target.naming, 'accounts')),
  };
}

const expected = expectedState();

t.test('in ledger order: live entries only, one guard per deleted entry', async (t) => {
  const target = await createTestIndices(t);
  await ingestLedgers(ledgers, new IngestEngine(target.client, target.naming, logger));
  const objects = await readAllDocuments<Json>(target.client, indexName(target.naming, 'objects'));
  t.same(
    objects.map((d) => d.index as string).sort(),
    [...expected.live.keys()].sort(),
    `the ${expected.live.size} entries whose newest change is not a deletion`,
  );
  t.equal(objects.filter((d) => d.deleted !== false).length, 0, 'no deleted entry in objects');
  const guards = await target.client.search<Json>({
    index: indexName(target.naming, 'deletions'),
    size: 10_000,
    version: true,
  });
  t.same(
    new Map(guards.hits.hits.map((hit) => [hit._id, hit._version])),
    expected.deleted,
    `a guard for each of the ${expected.deleted.size} entries whose newest change deleted them, at that version`,
  );
  t.ok(expected.deleted.size > 2000 && expected.live.size > 1500, 'the data deletes and keeps many entries');
  const both = objects.filter((d) => expected.deleted.has(d.index as string));
  t.same(both, [], 'no entry both live and deleted');
});

t.test('any order, stopped with SIGKILL and run again: the state of one run in ledger order', async (t) => {
  const reference = await createTestIndices(t);
  await ingestLedgers(ledgers, new IngestEngine(reference.client, reference.naming, logger));
  const inOrder = await state(reference);

  const dir = mkdtempSync(join(tmpdir(), 'xle-deletions-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  for (const seed of [7, 1234567]) {
    const target = await createTestIndices(t);
    const path = join(dir, `shuffled-${seed}.ndjson`);
    writeFileSync(
      path,
      `${shuffled(raw, seed)
        .map((r) => JSON.stringify(r))
        .join('\n')}\n`,
    );
    const run = (killAfterMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> =>
      new Promise((resolve) => {
        const child = spawn(
          process.execPath,
          [
            `${repoRoot}packages/ingester/dist/src/cli.js`,
            'file',
            path,
            '--batch-ledgers',
            '2',
            '--accept-refused',
            EDITED,
          ],
          { env: { ...process.env, ES_INDEX_PREFIX: target.naming.prefix, LOG_LEVEL: 'silent' }, stdio: 'ignore' },
        );
        if (killAfterMs !== undefined) void sleep(killAfterMs).then(() => child.kill('SIGKILL'));
        child.on('exit', (code, signal) => resolve({ code, signal }));
      });
    const killed = await run(800 + (seed % 700));
    t.equal(killed.signal, 'SIGKILL', `seed ${seed}: stopped mid-way`);
    t.equal((await run()).code, 0, `seed ${seed}: the second run completes`);
    t.same(await state(target), inOrder, `seed ${seed}: objects, guards and accounts as in ledger order`);
  }
});
