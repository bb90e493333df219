import { join } from 'node:path';
import t from 'tap';
import { fixturesDir, indexName } from '@xle/core';
import {
  loadValidatorList,
  manifestFromStream,
  type ManifestStreamMessage,
  parseValidation,
  runValidatorsJob,
  ValidationStore,
  type ValidationStreamMessage,
  verifyValidatorList,
} from '@xle/ingester';
import {
  createTestValidator,
  DECODED_RIPPLED_2_3_0,
  manifestMessage,
  readAllDocuments,
  signValidation,
} from '@xle/test-helpers';
import { engineOf, getJson, loadedIndices, serve } from '../fixtures/serve.js';
import type { Json } from '@xle/documents';

const alice = createTestValidator('validators-http/alice', { domain: 'alice.example' });
/** A listed validator of the real vl.ripple.com list (sequence 60). */
const LISTED = 'nHUFE9prPXPrHcG3SkwP1UzAQbSphqyQkQK9ATXLZsfkezhhda3p';
const AMENDMENT = 'C4483A1896170C66C098DEA5B0E024309C60DC960DE5F01CD7AF986AA3D9AD37';

t.test('validator routes', async (t) => {
  const target = await loadedIndices(t);
  const before = await serve(t, target);
  for (const path of ['/validatorregistry', `/validator/${LISTED}`, `/validator/${LISTED}/reports`]) {
    const answer = await getJson(`${before}${path}`);
    t.equal(answer.status, 503, path);
    t.match(answer.body, { error: { code: 'DATA_NOT_READY', message: /pnpm ingest validators/ } }, path);
  }
  for (const path of ['/validator/xyz', '/validator/nH0OIl/reports', `/validator/${'n'.repeat(60)}`]) {
    const answer = await getJson(`${before}${path}`);
    t.equal(answer.status, 400, path);
    t.match(answer.body, { error: { code: 'INVALID_PARAMETER' } }, path);
  }

  // Alice validates every indexed fixture ledger with its hash.
  const ledgers = await readAllDocuments<{ ledger_index: number; ledger_hash: string; close_time: number }>(
    target.client,
    indexName(target.naming, 'ledgers'),
  );
  const validations = ledgers.map((l) =>
    parseValidation(
      signValidation(alice, {
        ledger_index: l.ledger_index,
        ledger_hash: l.ledger_hash,
        signing_time: l.close_time + 1,
        amendments: [AMENDMENT],
      }) as unknown as ValidationStreamMessage,
    ),
  );
  const manifest = manifestFromStream(manifestMessage(alice) as unknown as ManifestStreamMessage);
  await new ValidationStore(engineOf(target)).write(validations, [
    { ...manifest, received_at: '2025-02-12T00:00:00.000Z' },
  ]);
  const list = verifyValidatorList(await loadValidatorList(join(fixturesDir, 'validators/xrpl-dev-portal/vl.json')), {
    allowExpired: true,
  });
  await runValidatorsJob({ engine: engineOf(target) }, { name: 'vl.ripple.com', list });
  const url = await serve(t, target);
  const newest = ledgers.reduce((a, b) => (a.ledger_index > b.ledger_index ? a : b));

  t.test('/validatorregistry: the listed validators and alice', async (t) => {
    const answer = await getJson(`${url}/validatorregistry`);
    t.equal(answer.status, 200);
    const entries = answer.body as Json[];
    t.equal(entries.length, 37);
    for (const e of entries)
      t.match(e, {
        master_key: /^n/,
        ephemeral_key: /^n/,
        chain: 'main',
        meta: { manifest: String, verified: true, verification_message: String },
        votes: { amendments: Array },
        domain_legacy: null,
        unl: Array,
      });
    t.same(
      entries.find((e) => e.master_key === alice.master_key),
      {
        master_key: alice.master_key,
        ephemeral_key: alice.signing_key,
        chain: 'main',
        last_seen: new Date((newest.close_time + 1 + 946684800) * 1000).toISOString(),
        ledger_index: newest.ledger_index,
        meta: {
          manifest: alice.manifest,
          verified: true,
          verification_message: 'master and ephemeral signatures verified',
        },
        server_version: DECODED_RIPPLED_2_3_0,
        votes: { amendments: [AMENDMENT] },
        domain: 'alice.example',
        domain_legacy: null,
        unl: [],
      },
    );
    t.match(
      entries.find((e) => e.master_key === LISTED),
      { unl: ['vl.ripple.com'], last_seen: null, server_version: null },
    );
  });

  t.test('/validator/{KEY}: by master key or ephemeral key', async (t) => {
    const answer = await getJson(`${url}/validator/${alice.master_key}`);
    t.equal(answer.status, 200);
    t.same(answer.body, {
      validation_public_key: alice.master_key,
      signing_key: alice.signing_key,
      master_key: alice.master_key,
      domain: 'alice.example',
      chain: 'main',
      server_version: '2.3.0',
      networks: 'main',
      current_index: newest.ledger_index,
      agreement_1h: { missed: 0, total: 1, score: '1.00000', incomplete: false },
      agreement_24h: { missed: 0, total: 1, score: '1.00000', incomplete: false },
      agreement_30day: { missed: 0, total: 1, score: '1.00000', incomplete: false },
      partial: false,
      unl: '',
      revoked: false,
      result: 'success',
    });
    t.same((await getJson(`${url}/validator/${alice.signing_key}`)).body, answer.body);
    t.match(await getJson(`${url}/validator/${LISTED}`), {
      status: 200,
      body: { master_key: LISTED, unl: 'vl.ripple.com', agreement_24h: { missed: 1, total: 1, score: '0.00000' } },
    });
    const unknown = createTestValidator('validators-http/unknown').master_key;
    t.match(await getJson(`${url}/validator/${unknown}`), {
      status: 404,
      body: { error: { code: 'NOT_FOUND', details: { public_key: unknown } } },
    });
  });

  t.test('/validator/{KEY}/reports: one per UTC day, newest first', async (t) => {
    const answer = await getJson(`${url}/validator/${alice.master_key}/reports`);
    t.equal(answer.status, 200);
    const body = answer.body as { result: string; count: number; reports: Json[] };
    const days = new Map<string, number>();
    for (const l of ledgers) {
      const day = new Date((l.close_time + 946684800) * 1000).toISOString().slice(0, 10);
      days.set(day, (days.get(day) ?? 0) + 1);
    }
    t.equal(body.result, 'success');
    t.equal(body.count, days.size);
    t.equal(body.reports.length, days.size);
    t.same(
      body.reports.map((r) => r.date),
      [...days.keys()]
        .sort()
        .reverse()
        .map((d) => `${d}T00:00:00.000Z`),
    );
    for (const r of body.reports)
      t.same(r, {
        validation_public_key: alice.master_key,
        date: r.date,
        chain: 'main',
        score: '1.00000',
        total: String(days.get(String(r.date).slice(0, 10))),
        missed: '0',
        incomplete: true,
      });
    t.match(await getJson(`${url}/validator/${createTestValidator('x').master_key}/reports`), { status: 404 });
  });
});
