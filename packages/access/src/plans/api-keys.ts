import { createHash, randomBytes } from 'node:crypto';

/** `xle_` + 32 random bytes in base64url: 256 bits, so a plain SHA-256 is a safe stored form. */
export const API_KEY_PATTERN = /^xle_[A-Za-z0-9_-]{43}$/;

/** A fresh key. It is shown once; only its hash is stored. */
export function generateApiKey(): string {
  return `xle_${randomBytes(32).toString('base64url')}`;
}

/** Hex SHA-256 of the key: the `_id` of its document in the api-keys index. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/**
 * The public id used to list and revoke a key: a prefix of its hash, so the holder can compute
 * it from the key, and it tells nothing about the key itself.
 */
export function keyIdOf(hash: string): string {
  return `key_${hash.slice(0, 16)}`;
}

/**
 * Whether a request carries an API key credential at all (well-formed or not): the rule that
 * decides, where keys and payment claims are both accepted, which of the two pays.
 */
export function carriesApiKey(ctx: { get(field: string): string }): boolean {
  return ctx.get('X-API-Key') !== '' || ctx.get('Authorization') !== '';
}

export type Credential = { kind: 'none' } | { kind: 'key'; key: string } | { kind: 'malformed'; reason: string };

/**
 * The API key of a request: `X-API-Key: <key>` or `Authorization: Bearer <key>` (browsers can
 * send the latter without a CORS preflight change). Both at once must agree. A credential that is
 * present but not a well-formed key is never treated as no credential.
 */
export function readCredential(headers: { apiKey: string; authorization: string }): Credential {
  const fromHeader = headers.apiKey.trim();
  let fromBearer = '';
  if (headers.authorization !== '') {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization);
    if (bearer?.[1] === undefined) return { kind: 'malformed', reason: 'Authorization must be `Bearer <API key>`.' };
    fromBearer = bearer[1];
  }
  if (fromHeader !== '' && fromBearer !== '' && fromHeader !== fromBearer)
    return { kind: 'malformed', reason: 'X-API-Key and Authorization carry different keys.' };
  const key = fromHeader || fromBearer;
  if (key === '') return { kind: 'none' };
  if (!API_KEY_PATTERN.test(key)) return { kind: 'malformed', reason: 'Not an API key of this service.' };
  return { kind: 'key', key };
}
