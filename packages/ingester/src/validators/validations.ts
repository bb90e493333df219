import { decode, encode } from 'ripple-binary-codec';
import { verify } from 'ripple-keypairs';
import { rippleTimeToIso } from '@xle/documents';
import { nodePublicKey } from './manifest.js';

/** rippled HashPrefix::validation, "VAL\0": the prefix of the bytes a validation signs. */
const VALIDATION_PREFIX = '56414C00';
/** STValidation flag: a full validation (not partial), rippled `STValidation.h`. */
export const VF_FULL_VALIDATION = 0x00000001;

/** A `validations` stream message (rippled `NetworkOPs::pubValidation`). */
export interface ValidationStreamMessage {
  type?: string;
  validation_public_key: string;
  master_key?: string;
  ledger_hash: string;
  ledger_index: string | number;
  signing_time: number;
  signature: string;
  full?: boolean;
  flags?: number;
  cookie?: string;
  server_version?: string;
  validated_hash?: string;
  amendments?: string[];
  base_fee?: number | string;
  reserve_base?: number | string;
  reserve_inc?: number | string;
  load_fee?: number;
  network_id?: number;
  close_time?: number;
  /** The serialized STValidation, hex (rippled 1.7 and later). */
  data?: string;
}

/** One document of the validations index. */
export interface ValidationDoc {
  validation_public_key: string;
  master_key?: string;
  /** The validator this validation counts for: its master key when known, else the signing key. */
  _validator: string;
  ledger_index: number;
  ledger_hash: string;
  signing_time: number;
  _date: string;
  full: boolean;
  flags: number;
  cookie?: string;
  server_version?: string;
  validated_hash?: string;
  amendments?: string[];
  base_fee?: number;
  reserve_base?: number;
  reserve_inc?: number;
  load_fee?: number;
  network_id?: number;
  signature: string;
  /** The signature over `data` checked: true or false; absent when the message had no `data`. */
  verified?: boolean;
  verification_message?: string;
}

export class ValidationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ValidationError';
  }
}

export const validationId = (doc: Pick<ValidationDoc, 'validation_public_key' | 'ledger_index'>): string =>
  `${doc.validation_public_key}.${doc.ledger_index}`;

interface ValidationFields {
  Flags?: number;
  LedgerSequence?: number;
  LedgerHash?: string;
  SigningTime?: number;
  SigningPubKey?: string;
  Signature?: string;
}

/**
 * Checks a validation's serialized form against the message and its signature (pure): the
 * signature is by SigningPubKey over "VAL\0" + every signing field, like rippled's
 * `STValidation::isValid`.
 */
export function verifyValidationData(message: ValidationStreamMessage): { verified: boolean; message: string } {
  let fields: ValidationFields;
  try {
    fields = decode(String(message.data).toUpperCase()) as ValidationFields;
  } catch (error) {
    return { verified: false, message: `data does not decode: ${(error as Error).message}` };
  }
  const { Signature, ...signed } = fields;
  if (fields.SigningPubKey === undefined || Signature === undefined)
    return { verified: false, message: 'data lacks a signing key or signature' };
  let signer: string;
  try {
    signer = nodePublicKey(fields.SigningPubKey);
  } catch {
    return { verified: false, message: 'data has a malformed signing key' };
  }
  if (signer !== message.validation_public_key) return { verified: false, message: 'data is signed by another key' };
  if (fields.LedgerHash?.toUpperCase() !== message.ledger_hash.toUpperCase())
    return { verified: false, message: 'data validates another ledger hash' };
  if (fields.LedgerSequence !== Number(message.ledger_index))
    return { verified: false, message: 'data validates another ledger index' };
  let ok: boolean;
  try {
    ok = verify(VALIDATION_PREFIX + encode(signed as Record<string, unknown>), Signature, fields.SigningPubKey);
  } catch {
    ok = false;
  }
  return ok
    ? { verified: true, message: 'signature verified' }
    : { verified: false, message: 'signature does not verify' };
}

const optionalNumber = (value: unknown): number | undefined => {
  if (value === undefined || value === null || value === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
};

/**
 * A validations-stream message as a validations-index document (pure). `masterOf` resolves a
 * signing key to its validator's master key from the manifests seen so far, for servers that do
 * not send `master_key`. A message without the fields every validation has throws.
 */
export function parseValidation(
  message: ValidationStreamMessage,
  masterOf: (signingKey: string) => string | undefined = () => undefined,
): ValidationDoc {
  const ledgerIndex = Number(message.ledger_index);
  if (
    typeof message.validation_public_key !== 'string' ||
    !message.validation_public_key.startsWith('n') ||
    typeof message.ledger_hash !== 'string' ||
    !/^[0-9A-Fa-f]{64}$/.test(message.ledger_hash) ||
    !Number.isInteger(ledgerIndex) ||
    ledgerIndex <= 0 ||
    typeof message.signing_time !== 'number' ||
    typeof message.signature !== 'string'
  )
    throw new ValidationError(
      'not a validation: it needs validation_public_key, ledger_hash, ledger_index, signing_time and signature',
    );
  const flags = Number(message.flags ?? 0);
  const master = message.master_key ?? masterOf(message.validation_public_key);
  const doc: ValidationDoc = {
    validation_public_key: message.validation_public_key,
    ...(master === undefined ? {} : { master_key: master }),
    _validator: master ?? message.validation_public_key,
    ledger_index: ledgerIndex,
    ledger_hash: message.ledger_hash.toUpperCase(),
    signing_time: message.signing_time,
    _date: rippleTimeToIso(message.signing_time),
    full: message.full ?? (flags & VF_FULL_VALIDATION) !== 0,
    flags,
    signature: message.signature,
  };
  if (message.cookie !== undefined) doc.cookie = String(message.cookie);
  if (message.server_version !== undefined) doc.server_version = String(message.server_version);
  if (message.validated_hash !== undefined) doc.validated_hash = message.validated_hash.toUpperCase();
  if (Array.isArray(message.amendments)) doc.amendments = message.amendments.map((a) => a.toUpperCase());
  for (const key of ['base_fee', 'reserve_base', 'reserve_inc', 'load_fee', 'network_id'] as const) {
    const value = optionalNumber(message[key]);
    if (value !== undefined) doc[key] = value;
  }
  if (typeof message.data === 'string' && message.data !== '') {
    const check = verifyValidationData(message);
    doc.verified = check.verified;
    doc.verification_message = check.message;
  }
  return doc;
}

export interface ServerVersion {
  implementation: string;
  major: number;
  minor: number;
  patch: number;
  version: string;
  version_full: string;
}

/**
 * Decodes the ServerVersion a validation carries (rippled `BuildInfo::encodeSoftwareVersion`):
 * 0x183B (rippled) in the top 16 bits, then major, minor, patch bytes, then a byte whose top two
 * bits give the release type (0x40 beta, 0x80 rc, 0xC0 release) and low six bits its number.
 */
export function decodeServerVersion(encoded: string | undefined): ServerVersion | undefined {
  if (encoded === undefined || !/^\d{1,20}$/.test(encoded)) return undefined;
  const v = BigInt(encoded);
  const byte = (shift: number): number => Number((v >> BigInt(shift)) & 0xffn);
  const id = Number((v >> 48n) & 0xffffn);
  if ((id & 0xff00) !== 0x1800) return undefined;
  const implementation = id === 0x183b ? 'rippled' : `0x${id.toString(16)}`;
  const [major, minor, patch, release] = [byte(40), byte(32), byte(24), byte(16)];
  const n = release & 0x3f;
  const suffix = { 0x40: `-b${n}`, 0x80: `-rc${n}`, 0xc0: '' }[release & 0xc0] ?? `-${release}`;
  const version = `${major}.${minor}.${patch}${suffix}`;
  return { implementation, major, minor, patch, version, version_full: `${implementation}-${version}` };
}
