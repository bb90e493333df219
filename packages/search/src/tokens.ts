import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { BadRequestError, ErrorCode } from '@xle/core';

/**
 * Cursors and point-in-time tokens go to clients and come back. They carry engine ids (a point in
 * time names the index it reads), so they are signed: a forged or edited token is refused instead
 * of letting a client aim the engine at another index.
 */
export class TokenSealer {
  private readonly key: Buffer;

  constructor(secret?: string) {
    this.key = secret === undefined ? randomBytes(32) : Buffer.from(secret, 'utf8');
  }

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.key).update(payload).digest().subarray(0, 18);
  }

  seal(kind: string, value: unknown): string {
    const payload = Buffer.from(JSON.stringify({ k: kind, v: value }), 'utf8').toString('base64url');
    return `${payload}.${this.mac(payload).toString('base64url')}`;
  }

  /** The sealed value, or a 400 INVALID_CURSOR naming `field`. */
  open<T>(kind: string, token: unknown, field: string): T {
    const invalid = (): BadRequestError =>
      new BadRequestError(
        `Invalid ${field}: it is malformed, was not issued by this service, or belongs to another request kind.`,
        { parameter: field },
        ErrorCode.InvalidCursor,
      );
    if (typeof token !== 'string' || token.length > 64 * 1024) throw invalid();
    const [payload, mac, extra] = token.split('.');
    if (payload === undefined || mac === undefined || extra !== undefined) throw invalid();
    const given = Buffer.from(mac, 'base64url');
    const expected = this.mac(payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { k?: unknown; v?: T };
    if (decoded.k !== kind || decoded.v === undefined) throw invalid();
    return decoded.v;
  }
}
