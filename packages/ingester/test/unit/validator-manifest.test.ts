import t from 'tap';
import {
  decodeManifest,
  manifestFromStream,
  ManifestError,
  MANIFEST_REVOKED_SEQUENCE,
  nodePublicKey,
  type ManifestStreamMessage,
} from '../../src/index.js';
import { createTestValidator, manifestMessage, readFixture } from '@xle/test-helpers';

const vl = readFixture<{ public_key: string; manifest: string }>('validators/xrpl-dev-portal/vl.json');
const unlBlob = readFixture<{ validation_public_key: string; manifest: string }[]>(
  'validators/xrpscan-xrpl-validator-domains/UNL-blob.json',
);
const stream = readFixture<ManifestStreamMessage[]>('validators/xrpscan-xrpl-validator-domains/manifest-stream.json');

/** The same bytes with one bit flipped at `at` (negative: from the end). */
function flipByte(base64: string, at: number): string {
  const bytes = Buffer.from(base64, 'base64');
  const i = at < 0 ? bytes.length + at : at;
  bytes[i] = (bytes[i] as number) ^ 0x01;
  return bytes.toString('base64');
}

t.test('the publisher manifest of the real vl.ripple.com list', async (t) => {
  const m = decodeManifest(vl.manifest);
  t.match(m, {
    sequence: 1,
    master_key: nodePublicKey(vl.public_key),
    signing_key: /^nH/,
    revoked: false,
    verified: true,
    verification_message: 'master and ephemeral signatures verified',
  });
  t.equal(m.manifest, vl.manifest, 'the serialized form is kept as it came');
  t.equal(decodeManifest(Buffer.from(vl.manifest, 'base64').toString('hex')).master_key, m.master_key, 'hex too');
});

t.test('every manifest of a real mainnet UNL blob decodes and verifies', async (t) => {
  t.equal(unlBlob.length, 38);
  for (const v of unlBlob) {
    const m = decodeManifest(v.manifest);
    t.equal(m.master_key, nodePublicKey(v.validation_public_key), v.validation_public_key);
    t.ok(m.verified, `${m.master_key}: ${m.verification_message}`);
    t.match(m.signing_key, /^n9/, 'ephemeral keys are secp256k1');
  }
});

t.test('a flipped signature byte fails verification with the reason', async (t) => {
  const m = unlBlob[0]!.manifest;
  // MasterSignature is the last field: flipping its last byte breaks only the master signature.
  const broken = decodeManifest(flipByte(m, -1));
  t.match(broken, { verified: false, verification_message: 'the master signature does not verify' });
  const hex = Buffer.from(m, 'base64').toString('hex').toUpperCase();
  const decoded = decodeManifest(m);
  t.ok(decoded.verified);
  // Flip a byte of the ephemeral key's Signature (a DER signature starting 3044/3045).
  const sigAt = hex.indexOf('76473045') >= 0 ? hex.indexOf('76473045') / 2 + 10 : hex.indexOf('76463044') / 2 + 10;
  t.ok(sigAt > 10, 'the fixture carries a DER Signature');
  t.match(decodeManifest(flipByte(m, sigAt)), { verified: false });
});

t.test('garbage is refused with ManifestError', async (t) => {
  t.throws(() => decodeManifest('not a manifest!'), ManifestError);
  t.throws(() => decodeManifest('JAAAAAE='), ManifestError, 'a Sequence alone is no manifest');
});

t.test('manifests stream messages of mainnet: rebuilt and verified', async (t) => {
  t.equal(stream.length, 9);
  for (const message of stream) {
    const m = manifestFromStream(message);
    t.match(m, {
      master_key: message.master_key,
      signing_key: message.signing_key,
      sequence: message.seq,
      verified: true,
    });
    // The rebuilt serialized form decodes back to the same manifest.
    t.match(decodeManifest(m.manifest), { master_key: message.master_key, verified: true });
  }
  const tampered = { ...stream[0]!, seq: stream[0]!.seq + 1 };
  t.match(manifestFromStream(tampered), { verified: false, verification_message: /master signature/ });
  const withManifest = stream.find((s) => s.manifest !== undefined);
  t.ok(withManifest, 'one message carries the serialized manifest');
  t.match(manifestFromStream({ ...withManifest!, master_key: stream[0]!.master_key }), {
    verified: false,
    verification_message: 'the message fields differ from its manifest',
  });
});

t.test('generated keys: domain and revocation', async (t) => {
  const v = createTestValidator('manifest-test', { sequence: 3, domain: 'example.com' });
  t.match(decodeManifest(v.manifest), {
    master_key: v.master_key,
    signing_key: v.signing_key,
    sequence: 3,
    domain: 'example.com',
    verified: true,
  });
  t.match(manifestFromStream(manifestMessage(v) as unknown as ManifestStreamMessage), {
    manifest: v.manifest,
    verified: true,
  });
  const revoked = createTestValidator('manifest-test', { sequence: MANIFEST_REVOKED_SEQUENCE });
  t.match(decodeManifest(revoked.manifest), { revoked: true, verified: true, signing_key: undefined });
});
