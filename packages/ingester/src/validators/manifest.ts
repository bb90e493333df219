import { decode, encode } from 'ripple-binary-codec';
import { verify } from 'ripple-keypairs';
import { decodeNodePublic, encodeNodePublic } from 'ripple-address-codec';

/**
 * Validator manifests (rippled `Manifest.cpp`): a master key delegates validation signing to an
 * ephemeral key, with a sequence so that a newer manifest replaces an older one. Sequence
 * 0xFFFFFFFF revokes the master key for good.
 */
export const MANIFEST_REVOKED_SEQUENCE = 0xffffffff;

/** rippled HashPrefix::manifest, "MAN\0": the prefix of the bytes both signatures sign. */
const MANIFEST_PREFIX = '4D414E00';

export interface Manifest {
  sequence: number;
  /** Master public key, base58 node form (`nH...` for Ed25519 masters). */
  master_key: string;
  /** Ephemeral (signing) public key, base58 node form; absent on a revocation. */
  signing_key?: string;
  /** The Domain field, decoded: the domain the operator claims (its xrp-ledger.toml attests it). */
  domain?: string;
  revoked: boolean;
  /** The serialized manifest, base64, as rippled and validator lists carry it. */
  manifest: string;
}

export interface ManifestCheck {
  verified: boolean;
  verification_message: string;
}

export interface DecodedManifest extends Manifest, ManifestCheck {}

interface ManifestFields {
  Sequence?: number;
  PublicKey?: string;
  SigningPubKey?: string;
  Domain?: string;
  Signature?: string;
  MasterSignature?: string;
}

export class ManifestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ManifestError';
  }
}

/** A 33-byte public key (hex) in its base58 node form. */
export function nodePublicKey(hex: string): string {
  const bytes = Buffer.from(hex, 'hex');
  if (bytes.length !== 33) throw new ManifestError(`a node public key has 33 bytes, not ${bytes.length}`);
  return encodeNodePublic(bytes);
}

/** A base58 node public key in hex (upper case), as the binary format holds it. */
export function nodePublicKeyHex(base58: string): string {
  return Buffer.from(decodeNodePublic(base58)).toString('hex').toUpperCase();
}

/** Base64 (validator lists, `manifest` answers) or hex, to upper-case hex. */
function manifestHex(serialized: string): string {
  const text = serialized.trim();
  if (/^[0-9A-Fa-f]+$/.test(text) && text.length % 2 === 0) return text.toUpperCase();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) throw new ManifestError('a manifest is base64 or hex');
  return Buffer.from(text, 'base64').toString('hex').toUpperCase();
}

/** Checks both signatures over the signing fields (everything but the two signatures). */
function checkSignatures(fields: ManifestFields): ManifestCheck {
  const { Signature, MasterSignature, ...signed } = fields;
  if (fields.PublicKey === undefined || MasterSignature === undefined)
    return { verified: false, verification_message: 'the manifest lacks a master key or master signature' };
  let message: string;
  try {
    message = MANIFEST_PREFIX + encode(signed as Record<string, unknown>);
  } catch (error) {
    return { verified: false, verification_message: `the manifest does not serialize: ${(error as Error).message}` };
  }
  const safeVerify = (signature: string, key: string): boolean => {
    try {
      return verify(message, signature, key);
    } catch {
      return false;
    }
  };
  if (!safeVerify(MasterSignature, fields.PublicKey))
    return { verified: false, verification_message: 'the master signature does not verify' };
  const revoked = fields.Sequence === MANIFEST_REVOKED_SEQUENCE;
  if (!revoked) {
    if (fields.SigningPubKey === undefined || Signature === undefined)
      return { verified: false, verification_message: 'the manifest lacks a signing key or its signature' };
    if (!safeVerify(Signature, fields.SigningPubKey))
      return { verified: false, verification_message: 'the ephemeral key signature does not verify' };
  }
  return {
    verified: true,
    verification_message: revoked ? 'master key revoked (verified)' : 'master and ephemeral signatures verified',
  };
}

function shapeManifest(fields: ManifestFields, hex: string): DecodedManifest {
  if (typeof fields.Sequence !== 'number' || typeof fields.PublicKey !== 'string')
    throw new ManifestError('a manifest needs a Sequence and a PublicKey');
  const revoked = fields.Sequence === MANIFEST_REVOKED_SEQUENCE;
  const out: DecodedManifest = {
    sequence: fields.Sequence,
    master_key: nodePublicKey(fields.PublicKey),
    revoked,
    manifest: Buffer.from(hex, 'hex').toString('base64'),
    ...checkSignatures(fields),
  };
  if (fields.SigningPubKey !== undefined && !revoked) out.signing_key = nodePublicKey(fields.SigningPubKey);
  if (fields.Domain !== undefined) out.domain = Buffer.from(fields.Domain, 'hex').toString('utf8');
  return out;
}

/**
 * Decodes a serialized manifest (base64 or hex) and verifies it (pure). A manifest that does not
 * decode throws ManifestError; one that decodes but whose signatures fail is returned with
 * `verified: false` and the reason, so it can be shown but never trusted.
 */
export function decodeManifest(serialized: string): DecodedManifest {
  const hex = manifestHex(serialized);
  let fields: ManifestFields;
  try {
    fields = decode(hex) as ManifestFields;
  } catch (error) {
    throw new ManifestError(`the manifest does not decode: ${(error as Error).message}`);
  }
  return shapeManifest(fields, hex);
}

/** A `manifests` stream message (rippled `pubManifest`). */
export interface ManifestStreamMessage {
  type?: string;
  master_key: string;
  signing_key?: string;
  seq: number;
  signature?: string;
  master_signature: string;
  domain?: string;
  manifest?: string;
}

/**
 * The manifest a `manifests` stream message announces (pure). Newer servers send the serialized
 * `manifest`; older ones only its fields, from which the serialized form is rebuilt (canonical
 * field order makes it byte-identical when the original held exactly these fields) so that its
 * signatures can be checked the same way.
 */
export function manifestFromStream(message: ManifestStreamMessage): DecodedManifest {
  if (typeof message.manifest === 'string' && message.manifest !== '') {
    const decoded = decodeManifest(message.manifest);
    if (decoded.master_key !== message.master_key || decoded.sequence !== Number(message.seq))
      return { ...decoded, verified: false, verification_message: 'the message fields differ from its manifest' };
    return decoded;
  }
  const fields: ManifestFields = {
    Sequence: Number(message.seq),
    PublicKey: nodePublicKeyHex(message.master_key),
    MasterSignature: message.master_signature,
  };
  if (message.signing_key !== undefined) fields.SigningPubKey = nodePublicKeyHex(message.signing_key);
  if (message.signature !== undefined) fields.Signature = message.signature;
  if (message.domain !== undefined) fields.Domain = Buffer.from(message.domain, 'utf8').toString('hex').toUpperCase();
  return shapeManifest(fields, encode(fields as Record<string, unknown>));
}
