import t from 'tap';
import {
  decodeServerVersion,
  parseValidation,
  validationId,
  ValidationError,
  verifyValidationData,
  type ValidationStreamMessage,
} from '../../src/index.js';
import { createTestValidator, DECODED_RIPPLED_2_3_0, encodeServerVersion, signValidation } from '@xle/test-helpers';

const v = createTestValidator('validations-test');
const HASH = '1D7C2A6B9F1E4C3B2A0918273645546372819A0B1C2D3E4F5061728394A5B6C7';
const AMENDMENT = '56B241D7A43D40354D02A9DC4C8DF5C7A1F930D92A9035C4E12291B3CA3E1C2B';
const message = (extra: Parameters<typeof signValidation>[1] | object = {}): ValidationStreamMessage =>
  signValidation(v, {
    ledger_index: 94084608,
    ledger_hash: HASH,
    signing_time: 792634570,
    amendments: [AMENDMENT],
    base_fee: 10,
    reserve_base: 1000000,
    reserve_inc: 200000,
    ...extra,
  }) as unknown as ValidationStreamMessage;

t.test('a validation signed by a generated ephemeral key, as rippled publishes it', async (t) => {
  const doc = parseValidation(message());
  t.same(doc, {
    validation_public_key: v.signing_key,
    master_key: v.master_key,
    _validator: v.master_key,
    ledger_index: 94084608,
    ledger_hash: HASH,
    signing_time: 792634570,
    _date: '2025-02-12T00:16:10.000Z',
    full: true,
    flags: 0x80000001,
    signature: doc.signature,
    cookie: String(0x1234_5678_9abc_def0n),
    server_version: encodeServerVersion('2.3.0'),
    amendments: [AMENDMENT],
    base_fee: 10,
    reserve_base: 1000000,
    reserve_inc: 200000,
    verified: true,
    verification_message: 'signature verified',
  });
  t.equal(validationId(doc), `${v.signing_key}.94084608`);
});

t.test('the master key comes from the message, else from known manifests, else it is the signer', async (t) => {
  const bare = message({ withMasterKey: false });
  t.equal(parseValidation(bare)._validator, v.signing_key);
  t.notOk('master_key' in parseValidation(bare));
  t.equal(parseValidation(bare, (k) => (k === v.signing_key ? v.master_key : undefined))._validator, v.master_key);
});

t.test('tampering is detected and recorded, not thrown', async (t) => {
  const other = createTestValidator('validations-test/other');
  const good = message();
  const cases: [string, ValidationStreamMessage, RegExp][] = [
    ['another ledger hash in the message', { ...good, ledger_hash: HASH.replace('1D', '2D') }, /another ledger hash/],
    ['another ledger index in the message', { ...good, ledger_index: '94084609' }, /another ledger index/],
    ['another signer', { ...good, validation_public_key: other.signing_key }, /another key/],
    [
      'a data bit flipped',
      { ...good, data: good.data!.replace(/.$/, (c) => (c === '0' ? '1' : '0')) },
      /does not verify/,
    ],
    ['data that does not decode', { ...good, data: 'ZZ' }, /does not decode/],
  ];
  for (const [what, m, why] of cases) {
    t.match(verifyValidationData(m), { verified: false, message: why }, what);
    t.equal(parseValidation(m).verified, false, what);
  }
  const { data: _data, ...noData } = good;
  t.notOk('verified' in parseValidation(noData), 'no data: nothing to verify, and no claim either way');
});

t.test('partial validations and malformed messages', async (t) => {
  t.match(parseValidation(message({ full: false })), { full: false, flags: 0x80000000, verified: true });
  t.throws(() => parseValidation({ ...message(), ledger_hash: 'nothex' }), ValidationError);
  t.throws(() => parseValidation({ type: 'validationReceived' } as never), ValidationError);
});

t.test('server versions decode as rippled encodes them', async (t) => {
  // 2.3.0 release, and rippled's own examples: 1.7.0-b2 and 1.9.0-rc1.
  t.same(decodeServerVersion(encodeServerVersion('2.3.0')), DECODED_RIPPLED_2_3_0);
  const beta = (0x183bn << 48n) | (1n << 40n) | (7n << 32n) | (0n << 24n) | ((0x40n | 2n) << 16n);
  t.equal(decodeServerVersion(beta.toString())?.version, '1.7.0-b2');
  const rc = (0x183bn << 48n) | (1n << 40n) | (9n << 32n) | ((0x80n | 1n) << 16n);
  t.equal(decodeServerVersion(rc.toString())?.version, '1.9.0-rc1');
  t.equal(decodeServerVersion('12345'), undefined, 'no implementation marker');
  t.equal(decodeServerVersion('abc'), undefined);
  t.equal(decodeServerVersion(undefined), undefined);
});
