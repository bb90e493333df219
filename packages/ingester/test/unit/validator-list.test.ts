import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { fixturesDir } from '@xle/core';
import {
  loadValidatorList,
  nodePublicKey,
  ValidatorListCode,
  verifyValidatorList,
  type SignedValidatorList,
} from '../../src/index.js';
import { createTestValidator, readFixture, signValidatorList } from '@xle/test-helpers';

const vl = readFixture<SignedValidatorList>('validators/xrpl-dev-portal/vl.json');
const decodedBlob = readFixture<{
  sequence: string;
  expiration: string;
  validators: { validation_public_key: string }[];
}>('validators/xrpl-dev-portal/vl-blob.json');
/** Inside the fixture list's validity (it expired at ripple time 644371200, 2020-06-02). */
const WHILE_VALID = new Date('2020-05-01T00:00:00Z');

function flipBase64(base64: string, at: number): string {
  const bytes = Buffer.from(base64, 'base64');
  bytes[at] = (bytes[at] as number) ^ 0x01;
  return bytes.toString('base64');
}

t.test('the real vl.ripple.com list verifies and lists its 36 validators', async (t) => {
  const list = verifyValidatorList(vl, { now: WHILE_VALID });
  t.match(list, {
    publisher_key: nodePublicKey(vl.public_key),
    sequence: 60,
    expiration: '2020-06-02T00:00:00.000Z',
    expired: false,
    version: 1,
  });
  t.equal(list.validators.length, 36);
  t.same(
    list.validators.map((v) => v.listed_key),
    decodedBlob.validators.map((v) => v.validation_public_key.toUpperCase()),
    'the members are the decoded blob’s, in its order',
  );
  for (const v of list.validators) t.ok(v.verified && v.master_key.startsWith('nH'), v.master_key);
  t.same(verifyValidatorList(vl, { now: WHILE_VALID, publishers: [vl.public_key] }).sequence, 60, 'trusted publisher');
});

t.test('refusals carry a stable code', async (t) => {
  const code = (fn: () => unknown): string | undefined => {
    try {
      fn();
      return undefined;
    } catch (error) {
      return (error as { code?: string }).code;
    }
  };
  t.equal(
    code(() => verifyValidatorList(vl)),
    ValidatorListCode.Expired,
    'expired today',
  );
  t.match(verifyValidatorList(vl, { allowExpired: true }), { expired: true, sequence: 60 }, 'unless allowed');
  t.equal(
    code(() => verifyValidatorList({ ...vl, blob: flipBase64(vl.blob!, 40) }, { now: WHILE_VALID })),
    ValidatorListCode.Invalid,
    'a flipped blob byte',
  );
  t.throws(
    () => verifyValidatorList({ ...vl, signature: `${vl.signature!.slice(0, -2)}00` }, { now: WHILE_VALID }),
    { code: ValidatorListCode.Invalid, message: /signature of blob 0 does not verify/, status: 400 },
    'a changed signature byte',
  );
  t.throws(() => verifyValidatorList({ ...vl, manifest: flipBase64(vl.manifest, 80) }, { now: WHILE_VALID }), {
    code: ValidatorListCode.Invalid,
    message: /publisher manifest/,
  });
  const other = createTestValidator('list-test/other');
  t.throws(() => verifyValidatorList({ ...vl, public_key: other.master.publicKey }, { now: WHILE_VALID }), {
    message: /publisher manifest is for another key/,
  });
  t.equal(
    code(() => verifyValidatorList(vl, { now: WHILE_VALID, publishers: [other.master.publicKey] })),
    ValidatorListCode.Untrusted,
  );
  t.equal(
    code(() => verifyValidatorList({} as SignedValidatorList)),
    ValidatorListCode.Invalid,
  );
});

t.test('a list signed with generated keys; a member with a bad manifest spoils it', async (t) => {
  const publisher = createTestValidator('list-test/publisher');
  const members = [createTestValidator('list-test/a'), createTestValidator('list-test/b', { domain: 'b.example' })];
  const expiration = Math.floor(Date.now() / 1000) - 946684800 + 86_400;
  const signed = signValidatorList(publisher, members, { sequence: 7, expiration }) as unknown as SignedValidatorList;
  const list = verifyValidatorList(signed);
  t.same(
    list.validators.map((v) => [v.master_key, v.signing_key, v.domain]),
    members.map((m) => [m.master_key, m.signing_key, m.domain]),
  );
  const forged = { ...members[1]!, manifest: members[0]!.manifest };
  t.throws(
    () => verifyValidatorList(signValidatorList(publisher, [forged], { sequence: 8, expiration }) as never),
    { message: /its manifest is for/ },
    'a member listed with another validator’s manifest',
  );
});

t.test('loading: a file, an http URL, size cap and failures', async (t) => {
  const file = join(fixturesDir, 'validators/xrpl-dev-portal/vl.json');
  t.same(await loadValidatorList(file), vl);
  await t.rejects(loadValidatorList(file, { maxBytes: 100 }), { code: ValidatorListCode.Unreadable });
  await t.rejects(loadValidatorList('/nonexistent/vl.json'), { code: ValidatorListCode.Unreadable });
  const dir = mkdtempSync(join(tmpdir(), 'vl-'));
  writeFileSync(join(dir, 'bad.json'), '{not json');
  await t.rejects(loadValidatorList(join(dir, 'bad.json')), {
    code: ValidatorListCode.Unreadable,
    message: /not JSON/,
  });

  const server = createServer((request, response) => {
    if (request.url === '/slow') return; // never answers
    if (request.url === '/missing') {
      response.statusCode = 404;
      response.end();
      return;
    }
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(vl));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t.same(await loadValidatorList(`${base}/vl`), vl);
  await t.rejects(loadValidatorList(`${base}/missing`), { message: /HTTP 404/ });
  await t.rejects(loadValidatorList(`${base}/vl`, { maxBytes: 1000 }), { message: /over 1000 bytes/ });
  await t.rejects(loadValidatorList(`${base}/slow`, { timeoutMs: 200 }), { message: /no answer/ });
});

t.test('version 2 lists: the blob in effect, and a blob signed by a rotated publisher key', async (t) => {
  const publisher = createTestValidator('list-test/publisher');
  const rotated = createTestValidator('list-test/publisher', { sequence: 2, ephemeralLabel: 'rotated' });
  const members = [createTestValidator('list-test/a'), createTestValidator('list-test/b')];
  const now = Math.floor(Date.now() / 1000) - 946684800;
  const current = signValidatorList(publisher, members.slice(0, 1), { sequence: 3, expiration: now + 86_400 });
  const next = signValidatorList(rotated, members, { sequence: 4, expiration: now + 2 * 86_400 });
  const v2 = (nextBlob: Record<string, unknown>): SignedValidatorList => ({
    public_key: publisher.master.publicKey,
    manifest: publisher.manifest,
    version: 2,
    blobs_v2: [
      { blob: current.blob as string, signature: current.signature as string },
      nextBlob as { blob: string; signature: string; manifest?: string },
    ],
  });
  const list = verifyValidatorList(v2({ blob: next.blob, signature: next.signature, manifest: rotated.manifest }));
  t.match(list, { version: 2, sequence: 4 }, 'the newest blob (no `effective`: in effect at once)');
  t.equal(list.validators.length, 2);
  t.throws(
    () => verifyValidatorList(v2({ blob: next.blob, signature: next.signature })),
    {
      code: ValidatorListCode.Invalid,
      message: /signature of blob 1 does not verify/,
    },
    'without its manifest, the rotated key’s signature is not the listed key’s',
  );
  const stranger = createTestValidator('list-test/stranger');
  t.throws(() => verifyValidatorList(v2({ blob: next.blob, signature: next.signature, manifest: stranger.manifest })), {
    message: /publisher manifest of blob 1/,
  });
});
