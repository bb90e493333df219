import t from 'tap';
import { createLogger, indexName } from '@xle/core';
import { type ConsumerTotals, consumeValidations, IngestEngine, ValidationStore } from '../../src/index.js';
import {
  createTestIndices,
  createTestValidator,
  indexContent,
  manifestMessage,
  readAllDocuments,
  readFixture,
  ReplayRippled,
  signValidation,
  waitUntil,
} from '@xle/test-helpers';
import type { Json } from '@xle/documents';

const logger = createLogger('validator-consumer-test', 'silent');

const v1 = createTestValidator('consumer/v1', { domain: 'v1.example' });
const v1next = createTestValidator('consumer/v1', { sequence: 2, ephemeralLabel: 'rotated', domain: 'v1.example' });
const v2 = createTestValidator('consumer/v2');
const HASHES = ['A', 'B', 'C', 'D'].map((c) => c.repeat(64));
const mainnetManifests = readFixture<Json[]>('validators/xrpscan-xrpl-validator-domains/manifest-stream.json');

/** What rippled would publish: manifests (real mainnet ones too), validations, and noise. */
function messages(part: 1 | 2): Json[] {
  const validation = (v: typeof v1, i: number, extra: Json = {}): Json => ({
    ...signValidation(v, {
      ledger_index: 1000 + i,
      ledger_hash: HASHES[i]!,
      signing_time: 800_000_000 + i * 4,
      withMasterKey: false,
    }),
    ...extra,
  });
  if (part === 1)
    return [
      ...mainnetManifests,
      manifestMessage(v1next),
      manifestMessage(v1), // older than the one above: superseded
      manifestMessage(v2),
      { ...manifestMessage(v2), seq: 5 }, // forged sequence: refused
      validation(v1next, 0),
      validation(v2, 0),
      validation(v2, 1, { data: '00' }), // unverifiable
      { type: 'validationReceived', ledger_index: 'x' }, // malformed
    ];
  return [validation(v1next, 2), validation(v2, 2), validation(v1next, 3)];
}

t.test('the consumer follows the validations and manifests streams through a reconnect', async (t) => {
  const target = await createTestIndices(t);
  const server = new ReplayRippled();
  server.validated = 1000;
  await server.start();
  t.teardown(() => server.stop());
  const controller = new AbortController();
  const subscriptions = (): number => server.commands.filter((c) => c === 'subscribe').length;
  const run = consumeValidations(
    {
      url: server.url,
      store: new ValidationStore(new IngestEngine(target.client, target.naming, logger)),
      logger,
      flushMs: 50,
      backoffMs: 20,
      maxBackoffMs: 100,
    },
    controller.signal,
  );
  await waitUntil('the first subscription', () => subscriptions() === 1, 10_000, 20);
  messages(1).forEach((m) => server.publish(m));
  await new Promise((resolve) => setTimeout(resolve, 300));
  server.dropConnections();
  await waitUntil('a new subscription after the drop', () => subscriptions() === 2, 10_000, 20);
  messages(2).forEach((m) => server.publish(m));
  await new Promise((resolve) => setTimeout(resolve, 300));
  controller.abort();
  const totals: ConsumerTotals = await run;
  t.same(totals, {
    validations: 6,
    unverified: 1,
    manifests: mainnetManifests.length + 3,
    rejectedManifests: 1,
    supersededManifests: 1, // v1's older manifest (the mainnet stream repeats manifests, never an older one)
    malformed: 1,
    failed: 0,
  });

  const validations = await readAllDocuments<Json>(target.client, indexName(target.naming, 'validations'));
  t.equal(validations.length, 6);
  t.match(
    validations.find((d) => d.validation_public_key === v1next.signing_key && d.ledger_index === 1000),
    { master_key: v1.master_key, _validator: v1.master_key, verified: true, ledger_hash: HASHES[0] },
    'the master key of a rotated ephemeral key, from the manifest seen first',
  );
  t.match(
    validations.find((d) => d.validation_public_key === v2.signing_key && d.ledger_index === 1001),
    { verified: false, verification_message: /does not decode/ },
  );
  const manifests = await readAllDocuments<Json>(target.client, indexName(target.naming, 'manifests'));
  t.match(
    manifests.find((m) => m.master_key === v1.master_key),
    { sequence: 2, signing_key: v1next.signing_key, domain: 'v1.example', verified: true },
    'the newest manifest wins whatever the order',
  );
  const mainnetMasters = new Set(mainnetManifests.map((m) => m.master_key));
  t.equal(mainnetMasters.size, 4);
  t.equal(manifests.length, mainnetMasters.size + 2, 'one per master key: the mainnet validators and 2 generated');

  t.test('replaying the same streams rewrites the same documents', async (t) => {
    const before = await Promise.all(
      (['validations', 'manifests'] as const).map((k) => indexContent(target.client, indexName(target.naming, k))),
    );
    const again = new AbortController();
    const rerun = consumeValidations(
      {
        url: server.url,
        store: new ValidationStore(new IngestEngine(target.client, target.naming, logger)),
        logger,
        flushMs: 50,
      },
      again.signal,
    );
    await waitUntil('a third subscription', () => subscriptions() === 3, 10_000, 20);
    [...messages(1), ...messages(2)].forEach((m) => server.publish(m));
    await new Promise((resolve) => setTimeout(resolve, 300));
    again.abort();
    await rerun;
    const after = await Promise.all(
      (['validations', 'manifests'] as const).map((k) => indexContent(target.client, indexName(target.naming, k))),
    );
    // received_at of manifests differs; everything else is the same documents under the same ids.
    t.same(after[0], before[0], 'validations');
    t.equal(after[1]?.count, before[1]?.count, 'manifests');
  });
});
