import { createHash } from 'node:crypto';
import { encodeNodePublic } from 'ripple-address-codec';
import { encode } from 'ripple-binary-codec';
import { deriveKeypair, generateSeed, sign } from 'ripple-keypairs';
import type { Json } from '@xle/documents';

/**
 * Validators for tests, built with the real XRPL primitives because the fixtures hold manifests
 * and lists but no signed validations: an Ed25519 master key, a secp256k1 ephemeral key (as
 * rippled's validator-keys tool makes them), a manifest signed by both, and validations signed by
 * the ephemeral key exactly as rippled signs them. Keys derive from a label, so they are the same
 * in every run.
 */
export interface TestKeypair {
  publicKey: string;
  privateKey: string;
}

export interface TestValidator {
  master: TestKeypair;
  ephemeral: TestKeypair;
  /** base58 node keys */
  master_key: string;
  signing_key: string;
  sequence: number;
  domain?: string;
  /** base64 serialized manifest */
  manifest: string;
  master_signature: string;
  signature: string;
}

function keypairOf(label: string, algorithm: 'ed25519' | 'ecdsa-secp256k1'): TestKeypair {
  const entropy = createHash('sha256').update(label).digest().subarray(0, 16);
  return deriveKeypair(generateSeed({ entropy: Uint8Array.from(entropy), algorithm }));
}

const MANIFEST_PREFIX = '4D414E00';
const VALIDATION_PREFIX = '56414C00';

export function createTestValidator(
  label: string,
  options: { sequence?: number; domain?: string; ephemeralLabel?: string } = {},
): TestValidator {
  const master = keypairOf(`${label}/master`, 'ed25519');
  const ephemeral = keypairOf(`${label}/${options.ephemeralLabel ?? 'ephemeral'}`, 'ecdsa-secp256k1');
  const sequence = options.sequence ?? 1;
  const fields: Json = { Sequence: sequence, PublicKey: master.publicKey, SigningPubKey: ephemeral.publicKey };
  if (options.domain !== undefined) fields.Domain = Buffer.from(options.domain, 'utf8').toString('hex').toUpperCase();
  const message = MANIFEST_PREFIX + encode(fields as never);
  const signature = sign(message, ephemeral.privateKey);
  const masterSignature = sign(message, master.privateKey);
  const serialized = encode({ ...fields, Signature: signature, MasterSignature: masterSignature } as never);
  return {
    master,
    ephemeral,
    master_key: encodeNodePublic(Buffer.from(master.publicKey, 'hex')),
    signing_key: encodeNodePublic(Buffer.from(ephemeral.publicKey, 'hex')),
    sequence,
    ...(options.domain === undefined ? {} : { domain: options.domain }),
    manifest: Buffer.from(serialized, 'hex').toString('base64'),
    master_signature: masterSignature,
    signature,
  };
}

/** The `manifests` stream message rippled publishes for this validator's manifest (no `manifest` field, as older servers). */
export function manifestMessage(v: TestValidator): Json {
  return {
    type: 'manifestReceived',
    master_key: v.master_key,
    master_signature: v.master_signature,
    seq: v.sequence,
    signature: v.signature,
    signing_key: v.signing_key,
    ...(v.domain === undefined ? {} : { domain: v.domain }),
  };
}

/** rippled 2.3.0 as the validations' serverVersion field decodes (what encodeServerVersion('2.3.0') carries). */
export const DECODED_RIPPLED_2_3_0 = {
  implementation: 'rippled',
  major: 2,
  minor: 3,
  patch: 0,
  version: '2.3.0',
  version_full: 'rippled-2.3.0',
} as const;

/** rippled's ServerVersion encoding of a release version such as "2.3.0". */
export function encodeServerVersion(version: string): string {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  const v =
    (0x183bn << 48n) | (BigInt(major) << 40n) | (BigInt(minor) << 32n) | (BigInt(patch) << 24n) | (0xc0n << 16n);
  return v.toString();
}

export interface ValidationInput {
  ledger_index: number;
  ledger_hash: string;
  /** Ripple-epoch seconds */
  signing_time: number;
  full?: boolean;
  amendments?: string[];
  server_version?: string;
  cookie?: bigint;
  base_fee?: number;
  reserve_base?: number;
  reserve_inc?: number;
  /** Include master_key as a server that knows the manifest does (default true). */
  withMasterKey?: boolean;
}

/** A `validations` stream message with `data`: an STValidation signed by the ephemeral key. */
export function signValidation(v: TestValidator, input: ValidationInput): Json {
  const flags = ((input.full === false ? 0 : 1) | 0x80000000) >>> 0;
  const cookie = input.cookie ?? 0x1234_5678_9abc_def0n;
  const serverVersion = input.server_version ?? encodeServerVersion('2.3.0');
  const fields: Json = {
    Flags: flags,
    LedgerSequence: input.ledger_index,
    SigningTime: input.signing_time,
    Cookie: cookie.toString(16).toUpperCase().padStart(16, '0'),
    ServerVersion: BigInt(serverVersion).toString(16).toUpperCase().padStart(16, '0'),
    LedgerHash: input.ledger_hash.toUpperCase(),
    ConsensusHash: createHash('sha256').update(`consensus ${input.ledger_index}`).digest('hex').toUpperCase(),
    SigningPubKey: v.ephemeral.publicKey,
  };
  if (input.amendments !== undefined) fields.Amendments = input.amendments;
  if (input.base_fee !== undefined) fields.BaseFee = input.base_fee.toString(16).toUpperCase().padStart(16, '0');
  if (input.reserve_base !== undefined) fields.ReserveBase = input.reserve_base;
  if (input.reserve_inc !== undefined) fields.ReserveIncrement = input.reserve_inc;
  const signature = sign(VALIDATION_PREFIX + encode(fields as never), v.ephemeral.privateKey);
  const data = encode({ ...fields, Signature: signature } as never);
  return {
    type: 'validationReceived',
    validation_public_key: v.signing_key,
    ...(input.withMasterKey === false ? {} : { master_key: v.master_key }),
    ledger_hash: input.ledger_hash.toUpperCase(),
    ledger_index: String(input.ledger_index),
    signing_time: input.signing_time,
    signature,
    full: input.full !== false,
    flags,
    cookie: cookie.toString(),
    server_version: serverVersion,
    ...(input.amendments === undefined ? {} : { amendments: input.amendments }),
    ...(input.base_fee === undefined ? {} : { base_fee: input.base_fee }),
    ...(input.reserve_base === undefined ? {} : { reserve_base: input.reserve_base }),
    ...(input.reserve_inc === undefined ? {} : { reserve_inc: input.reserve_inc }),
    data,
  };
}

/** A version 1 signed validator list of `validators`, published by `publisher`. */
export function signValidatorList(
  publisher: TestValidator,
  validators: readonly TestValidator[],
  options: { sequence: number; expiration: number },
): Json {
  const blob = Buffer.from(
    JSON.stringify({
      sequence: options.sequence,
      expiration: options.expiration,
      validators: validators.map((v) => ({ validation_public_key: v.master.publicKey, manifest: v.manifest })),
    }),
  ).toString('base64');
  return {
    public_key: publisher.master.publicKey,
    manifest: publisher.manifest,
    blob,
    signature: sign(Buffer.from(blob, 'base64').toString('hex'), publisher.ephemeral.privateKey),
    version: 1,
  };
}
