import { readFile, stat } from 'node:fs/promises';
import { BadRequestError } from '@xle/core';
import { verify } from 'ripple-keypairs';
import { rippleTimeToIso } from '@xle/documents';
import { decodeManifest, ManifestError, nodePublicKey, nodePublicKeyHex, type DecodedManifest } from './manifest.js';

/**
 * Signed validator lists (XLS-45 for version 2; rippled `ValidatorList.cpp`): a publisher's
 * manifest delegates to a signing key, which signs each blob; a blob lists the validators'
 * master keys with their manifests, a sequence and an expiration.
 */
export const ValidatorListCode = {
  Unreadable: 'VALIDATOR_LIST_UNREADABLE',
  Invalid: 'VALIDATOR_LIST_INVALID',
  Untrusted: 'VALIDATOR_LIST_UNTRUSTED',
  Expired: 'VALIDATOR_LIST_EXPIRED',
} as const;

export interface SignedValidatorList {
  public_key: string;
  manifest: string;
  version: number | string;
  blob?: string;
  signature?: string;
  blobs_v2?: { blob: string; signature: string; manifest?: string }[];
}

export interface ListedValidator extends DecodedManifest {
  /** The key the blob lists (hex), which must be the manifest's master key. */
  listed_key: string;
}

export interface VerifiedValidatorList {
  publisher_key: string;
  publisher_domain?: string;
  sequence: number;
  /** ISO 8601. */
  expiration: string;
  expired: boolean;
  version: number;
  validators: ListedValidator[];
}

export interface VerifyOptions {
  /** The time the list must be valid at (default: now). */
  now?: Date;
  /** Accept a list whose expiration has passed (to replay a historical list, like the fixtures). */
  allowExpired?: boolean;
  /** Publisher master keys (hex or base58) to trust; when given, any other publisher is refused. */
  publishers?: readonly string[];
}

interface Blob {
  sequence: number;
  expiration: number;
  effective?: number;
  validators: { validation_public_key: string; manifest?: string }[];
}

const invalid = (message: string, details?: Record<string, unknown>): BadRequestError =>
  new BadRequestError(`validator list: ${message}`, details, ValidatorListCode.Invalid);

const RIPPLE_EPOCH = 946684800;

function parseBlob(base64: string): Blob {
  let blob: Partial<Blob>;
  try {
    blob = JSON.parse(Buffer.from(base64, 'base64').toString('utf8')) as Partial<Blob>;
  } catch {
    throw invalid('a blob is not base64 JSON');
  }
  const sequence = Number(blob.sequence);
  const expiration = Number(blob.expiration);
  if (!Number.isInteger(sequence) || !Number.isInteger(expiration) || !Array.isArray(blob.validators))
    throw invalid('a blob needs an integer sequence and expiration and a validators array');
  return {
    sequence,
    expiration,
    ...(blob.effective === undefined ? {} : { effective: Number(blob.effective) }),
    validators: blob.validators,
  };
}

function verifySignature(blobBase64: string, signature: string, signingKeyHex: string): boolean {
  try {
    return verify(Buffer.from(blobBase64, 'base64').toString('hex'), signature, signingKeyHex);
  } catch {
    return false;
  }
}

function keyHexOf(key: string): string {
  return /^[0-9A-Fa-f]{66}$/.test(key) ? key.toUpperCase() : key;
}

/**
 * Verifies a signed validator list (pure): the publisher's manifest (both signatures, and its
 * master key equal to the list's `public_key`), each blob's signature by the publisher's current
 * signing key, and every listed validator's manifest. Of a version 2 list, the newest blob in
 * effect at `now` is used. Anything unverifiable is refused with a 400 and a stable code; a
 * validator whose own manifest fails is refused too, because rippled would not trust it.
 */
export function verifyValidatorList(list: SignedValidatorList, options: VerifyOptions = {}): VerifiedValidatorList {
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000) - RIPPLE_EPOCH;
  if (typeof list !== 'object' || list === null || typeof list.public_key !== 'string')
    throw invalid('not a signed validator list (no public_key)');
  const publisherHex = keyHexOf(list.public_key);
  let publisherManifest: DecodedManifest;
  try {
    publisherManifest = decodeManifest(String(list.manifest));
  } catch (error) {
    throw invalid(`the publisher manifest: ${(error as Error).message}`);
  }
  if (!publisherManifest.verified) throw invalid(`the publisher manifest: ${publisherManifest.verification_message}`);
  if (publisherManifest.revoked) throw invalid('the publisher key is revoked');
  let publisherKey: string;
  try {
    publisherKey = /^[0-9A-F]{66}$/.test(publisherHex) ? nodePublicKey(publisherHex) : publisherHex;
  } catch (error) {
    throw invalid(`public_key: ${(error as Error).message}`);
  }
  if (publisherManifest.master_key !== publisherKey)
    throw invalid('the publisher manifest is for another key', { public_key: list.public_key });
  if (options.publishers !== undefined) {
    const trusted = options.publishers.map((k) => (/^[0-9A-Fa-f]{66}$/.test(k) ? nodePublicKey(k.toUpperCase()) : k));
    if (!trusted.includes(publisherKey))
      throw new BadRequestError(
        `validator list: publisher ${publisherKey} is not a trusted publisher`,
        { publisher_key: publisherKey },
        ValidatorListCode.Untrusted,
      );
  }
  if (publisherManifest.signing_key === undefined) throw invalid('the publisher manifest has no signing key');
  const signingHex = nodePublicKeyHex(publisherManifest.signing_key);
  const version = Number(list.version);
  const blobs =
    version === 2 && Array.isArray(list.blobs_v2)
      ? list.blobs_v2
      : typeof list.blob === 'string' && typeof list.signature === 'string'
        ? [{ blob: list.blob, signature: list.signature }]
        : [];
  if (blobs.length === 0) throw invalid('no blob to verify');
  const candidates: Blob[] = [];
  blobs.forEach((entry: { blob: string; signature: string; manifest?: string }, at) => {
    // A version 2 blob may carry a newer publisher manifest (a rotated signing key) of its own.
    let key = signingHex;
    if (typeof entry.manifest === 'string') {
      const own = decodeManifest(entry.manifest);
      if (!own.verified || own.master_key !== publisherKey || own.signing_key === undefined)
        throw invalid(`the publisher manifest of blob ${at} does not verify for ${publisherKey}`, { blob: at });
      key = nodePublicKeyHex(own.signing_key);
    }
    if (!verifySignature(entry.blob, entry.signature, key))
      throw invalid(`the signature of blob ${at} does not verify with the publisher's signing key`, { blob: at });
    candidates.push(parseBlob(entry.blob));
  });
  const inEffect = candidates.filter((b) => (b.effective ?? 0) <= now).sort((a, b) => b.sequence - a.sequence);
  const chosen = inEffect[0] ?? candidates.sort((a, b) => a.sequence - b.sequence)[0];
  if (chosen === undefined) throw invalid('no blob is in effect');
  const expired = chosen.expiration <= now;
  if (expired && options.allowExpired !== true)
    throw new BadRequestError(
      `validator list: sequence ${chosen.sequence} expired at ${rippleTimeToIso(chosen.expiration)}`,
      { sequence: chosen.sequence, expiration: rippleTimeToIso(chosen.expiration) },
      ValidatorListCode.Expired,
    );
  const validators = chosen.validators.map((v, at): ListedValidator => {
    const listed = String(v.validation_public_key).toUpperCase();
    if (typeof v.manifest !== 'string') throw invalid(`validator ${at} has no manifest`, { validator: listed });
    let decoded: DecodedManifest;
    try {
      decoded = decodeManifest(v.manifest);
    } catch (error) {
      if (error instanceof ManifestError) throw invalid(`validator ${listed}: ${error.message}`);
      throw error;
    }
    if (!decoded.verified) throw invalid(`validator ${listed}: ${decoded.verification_message}`);
    if (nodePublicKeyHex(decoded.master_key) !== listed)
      throw invalid(`validator ${listed}: its manifest is for ${decoded.master_key}`);
    return { ...decoded, listed_key: listed };
  });
  return {
    publisher_key: publisherKey,
    ...(publisherManifest.domain === undefined ? {} : { publisher_domain: publisherManifest.domain }),
    sequence: chosen.sequence,
    expiration: rippleTimeToIso(chosen.expiration),
    expired,
    version,
    validators,
  };
}

export interface LoadOptions {
  timeoutMs?: number;
  maxBytes?: number;
}

const unreadable = (message: string, source: string): BadRequestError =>
  new BadRequestError(`validator list ${source}: ${message}`, { source }, ValidatorListCode.Unreadable);

/**
 * Reads a signed validator list from a file or an http(s) URL (a publisher site such as
 * https://vl.ripple.com), refusing answers over `maxBytes` and waiting at most `timeoutMs`. The
 * list is signed, so its transport needs no trust; it still goes through verifyValidatorList.
 */
export async function loadValidatorList(source: string, options: LoadOptions = {}): Promise<SignedValidatorList> {
  const maxBytes = options.maxBytes ?? 4 * 1024 * 1024;
  let text: string;
  if (/^https?:\/\//.test(source)) {
    let response: Response;
    try {
      response = await fetch(source, {
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        headers: { accept: 'application/json' },
      });
    } catch (error) {
      throw unreadable(`no answer (${(error as Error).message})`, source);
    }
    if (!response.ok) throw unreadable(`answered HTTP ${response.status}`, source);
    if (Number(response.headers.get('content-length') ?? 0) > maxBytes)
      throw unreadable(`answer over ${maxBytes} bytes`, source);
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = response.body?.getReader();
    for (;;) {
      const next = await reader?.read();
      if (next === undefined || next.done) break;
      size += next.value.length;
      if (size > maxBytes) {
        await reader?.cancel();
        throw unreadable(`answer over ${maxBytes} bytes`, source);
      }
      chunks.push(next.value);
    }
    text = Buffer.concat(chunks).toString('utf8');
  } else {
    try {
      if ((await stat(source)).size > maxBytes) throw unreadable(`file over ${maxBytes} bytes`, source);
      text = await readFile(source, 'utf8');
    } catch (error) {
      if (error instanceof BadRequestError) throw error;
      throw unreadable((error as Error).message, source);
    }
  }
  try {
    return JSON.parse(text) as SignedValidatorList;
  } catch {
    throw unreadable('not JSON', source);
  }
}
