import { join } from 'node:path';
import t from 'tap';
import { createLogger, fixturesDir, indexName } from '@xle/core';
import {
  dayOf,
  IngestEngine,
  ingestLedgers,
  loadValidatorList,
  manifestFromStream,
  type ManifestStreamMessage,
  parseValidation,
  readJobRun,
  runValidatorsJob,
  type UnlSource,
  ValidationStore,
  type ValidationStreamMessage,
  type ValidatorDoc,
  verifyValidatorList,
} from '../../src/index.js';
import {
  createTestIndices,
  createTestValidator,
  indexContent,
  listFixtureLedgers,
  manifestMessage,
  readAllDocuments,
  runIngestCli,
  readFixture,
  signValidation,
  type TestIndices,
  type TestValidator,
} from '@xle/test-helpers';
import { normalizeLedger } from '@xle/documents';

const logger = createLogger('validators-job-test', 'silent');
const LIST_FILE = join(fixturesDir, 'validators/xrpl-dev-portal/vl.json');
const fixtureLedgers = listFixtureLedgers().map((file) => normalizeLedger(readFixture(file)));

interface LedgerDoc {
  ledger_index: number;
  ledger_hash: string;
  close_time: number;
  close_time_human: string;
}

const alice = createTestValidator('validators-job/alice', { domain: 'alice.example' });
const bob = createTestValidator('validators-job/bob');
/** Carol's validations are tampered with: they are stored, marked unverified, and never count. */
const carol = createTestValidator('validators-job/carol');

/**
 * The validations the test feeds, for the indexed fixture ledgers: alice validates every ledger
 * with its hash; bob validates every other one, and a third of those with a wrong hash (a fork);
 * carol validates every ledger, but her validations' data is altered.
 */
function validationsFor(ledgers: readonly LedgerDoc[]): ValidationStreamMessage[] {
  const out: ValidationStreamMessage[] = [];
  const sign = (v: TestValidator, l: LedgerDoc, hash: string, withMasterKey: boolean): ValidationStreamMessage =>
    signValidation(v, {
      ledger_index: l.ledger_index,
      ledger_hash: hash,
      signing_time: l.close_time + 2,
      withMasterKey,
      amendments: ['C4483A1896170C66C098DEA5B0E024309C60DC960DE5F01CD7AF986AA3D9AD37'],
    }) as unknown as ValidationStreamMessage;
  ledgers.forEach((l, i) => {
    out.push(sign(alice, l, l.ledger_hash, true));
    if (i % 2 === 0) {
      const forked = i % 3 === 0 ? `${'F'.repeat(8)}${l.ledger_hash.slice(8)}` : l.ledger_hash;
      out.push(sign(bob, l, forked, false)); // master key resolved through the stored manifest
    }
    const tampered = sign(carol, l, l.ledger_hash, true);
    out.push({ ...tampered, data: tampered.data!.replace(/..$/, '00') });
  });
  return out;
}

async function prepared(
  t: Parameters<typeof createTestIndices>[0],
): Promise<{ target: TestIndices; ledgers: LedgerDoc[] }> {
  const target = await createTestIndices(t);
  await ingestLedgers(fixtureLedgers, new IngestEngine(target.client, target.naming, logger));
  const ledgers = (await readAllDocuments<LedgerDoc>(target.client, indexName(target.naming, 'ledgers'))).sort(
    (a, b) => a.ledger_index - b.ledger_index,
  );
  const store = new ValidationStore(new IngestEngine(target.client, target.naming, logger));
  const manifests = [alice, bob].map((v) => ({
    ...manifestFromStream(manifestMessage(v) as unknown as ManifestStreamMessage),
    received_at: '2025-02-12T00:00:00.000Z',
  }));
  const masters = new Map([[bob.signing_key, bob.master_key]]);
  const docs = validationsFor(ledgers).map((m) => parseValidation(m, (k) => masters.get(k)));
  const written = await store.write(docs, manifests);
  if (written.failed + written.superseded > 0)
    throw new Error(`the test data was not all written: ${JSON.stringify(written)}`);
  return { target, ledgers };
}

async function unl(): Promise<UnlSource> {
  return {
    name: 'vl.ripple.com',
    list: verifyValidatorList(await loadValidatorList(LIST_FILE), { allowExpired: true }),
  };
}

t.test('the validators data set from the fixture ledgers, the real list and signed validations', async (t) => {
  const { target, ledgers } = await prepared(t);
  const validators = indexName(target.naming, 'validators');
  t.equal(
    await readJobRun(new IngestEngine(target.client, target.naming, logger), 'validators'),
    undefined,
    'no run before the first',
  );
  const list = await unl();
  const status = await runValidatorsJob({ engine: new IngestEngine(target.client, target.naming, logger) }, list);
  const newest = ledgers.at(-1)!;
  t.match(status, {
    job: 'validators',
    ledger_index: newest.ledger_index,
    detail: { unl: { sequence: 60, validators: 36 } },
  });
  const first = await indexContent(target.client, validators);

  t.test('a second run gives the same index', async (t) => {
    await runValidatorsJob({ engine: new IngestEngine(target.client, target.naming, logger) }, list);
    t.same(await indexContent(target.client, validators), first);
  });

  const docs = new Map((await readAllDocuments<ValidatorDoc>(target.client, validators)).map((d) => [d.master_key, d]));
  t.equal(docs.size, 36 + 2, 'the 36 listed validators and the two whose validations verify');

  t.test('UNL members come from the verified list, with their manifests', async (t) => {
    for (const member of list.list.validators) {
      const doc = docs.get(member.master_key);
      t.match(
        doc,
        {
          unl: ['vl.ripple.com'],
          active: true,
          ephemeral_key: member.signing_key,
          meta: { manifest: member.manifest, verified: true },
          agreement_24h: { total: 1, missed: 1, score: '0.00000' },
        },
        member.master_key,
      );
      t.notOk(doc?.last_seen, 'never seen validating');
    }
  });

  const daysOf = new Map<string, LedgerDoc[]>();
  for (const l of ledgers) daysOf.set(dayOf(l.close_time), [...(daysOf.get(dayOf(l.close_time)) ?? []), l]);

  t.test('alice agrees on every ledger', async (t) => {
    const doc = docs.get(alice.master_key);
    t.match(doc, {
      signing_key: alice.signing_key,
      domain: 'alice.example',
      unl: [],
      active: true,
      partial: false,
      current_index: newest.ledger_index,
      last_seen: new Date((newest.close_time + 2 + 946684800) * 1000).toISOString(),
      server_version: { implementation: 'rippled', version: '2.3.0' },
      votes: { amendments: ['C4483A1896170C66C098DEA5B0E024309C60DC960DE5F01CD7AF986AA3D9AD37'] },
      agreement_1h: { total: 1, missed: 0, score: '1.00000', incomplete: false },
      agreement_30day: { total: 1, missed: 0, score: '1.00000' },
    });
    t.equal(doc?.reports.length, daysOf.size, 'a report for every day she validated');
    for (const r of doc?.reports ?? []) {
      const day = daysOf.get(r.date.slice(0, 10))!;
      t.match(r, { total: String(day.length), missed: '0', score: '1.00000', incomplete: true }, r.date);
    }
  });

  t.test('bob: validations signed by his ephemeral key count for his master key; forks are misses', async (t) => {
    const doc = docs.get(bob.master_key);
    t.ok(doc, 'keyed by master key');
    t.notOk(docs.has(bob.signing_key));
    const agreedOn = new Set(ledgers.flatMap((l, i) => (i % 2 === 0 && i % 3 !== 0 ? [l.ledger_index] : [])));
    for (const r of doc?.reports ?? []) {
      const day = daysOf.get(r.date.slice(0, 10))!;
      const agreed = day.filter((l) => agreedOn.has(l.ledger_index)).length;
      t.match(r, { total: String(day.length), missed: String(day.length - agreed) }, r.date);
    }
    const seenDays = new Set(ledgers.flatMap((l, i) => (i % 2 === 0 ? [dayOf(l.close_time)] : [])));
    t.equal(doc?.reports.length, seenDays.size);
  });

  t.test('carol’s altered validations are stored unverified and never agree', async (t) => {
    const stored = (
      await readAllDocuments<{ validation_public_key: string; verified?: boolean }>(
        target.client,
        indexName(target.naming, 'validations'),
      )
    ).filter((v) => v.validation_public_key === carol.signing_key);
    t.equal(stored.length, ledgers.length);
    t.ok(stored.every((v) => v.verified === false));
    t.notOk(docs.has(carol.master_key), 'an untrusted validation does not even make a validator known');
  });

  t.test('a job killed with SIGKILL at random moments, then run again, ends in the same index', async (t) => {
    const other = (await prepared(t)).target;
    const args = ['validators', '--list', LIST_FILE, '--allow-expired', '--unl-name', 'vl.ripple.com'];
    const run = (killAtStep?: number): Promise<number | null> =>
      runIngestCli(args, { ES_INDEX_PREFIX: other.naming.prefix }, killAtStep);
    const outcomes: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const step = 1 + Math.floor(Math.random() * 5);
      const code = await run(step);
      outcomes.push(`step ${step}: ${code === null ? 'killed' : `exited ${code}`}`);
    }
    t.comment(outcomes.join('; '));
    t.ok(
      outcomes.some((o) => o.includes('killed')),
      'at least one run was killed before it ended',
    );
    t.equal(await run(), 0, 'an uninterrupted run completes');
    t.same(await indexContent(other.client, indexName(other.naming, 'validators')), first);
  });
});
