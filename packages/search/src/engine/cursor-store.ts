import { randomBytes } from 'node:crypto';
import {
  BadRequestError,
  ErrorCode,
  indexName,
  type Client,
  type IndexNaming,
  type Logger,
  type ReadEngine,
} from '@xle/core';

/**
 * How long a cursor lives between pages, exactly: its point in time is kept for that long
 * (PAGE_KEEP_ALIVE), and the engine reaps expired points in time only once a minute or so, so
 * the stored cursor carries when it expires and is refused past it.
 */
export const CURSOR_TTL_MS = 90_000;

/** How often one process sweeps expired cursors out of the index, at most. */
const SWEEP_EVERY_MS = 60_000;

/** The document a cursor's id names: what carries a result on from one page to the next. */
interface CursorDoc<T> {
  issued_at: string;
  expires_at: string;
  state: T;
}

const invalid = (message: string): BadRequestError =>
  new BadRequestError(message, { parameter: 'cursor' }, ErrorCode.InvalidCursor);

/** A cursor as a client holds it: a random id and when it expires (`<id>.<expiry, ms since the epoch, base 36>`). */
export function cursorToken(id: string, expiresAt: number): string {
  return `${id}.${expiresAt.toString(36)}`;
}

/** The id and expiry a token names; a 400 INVALID_CURSOR for anything else (pure). */
export function parseCursorToken(token: string): { id: string; expiresAt: number } {
  const match = /^([A-Za-z0-9_-]{22})\.([0-9a-z]{1,12})$/.exec(token);
  if (match === null)
    throw invalid('Invalid cursor: it is malformed or was not issued by this service; run the query again.');
  return { id: match[1] as string, expiresAt: parseInt(match[2] as string, 36) };
}

/**
 * SQL cursors kept in the engine, shared by every API process behind one address: a client holds
 * a short token (about 35 characters, whatever the number of range indices the point in time
 * spans), the state it names stays in the `sql-cursors` index for its lifetime. Every page writes
 * a new document, so a page asked again (a retry) reads the same state and answers the same rows;
 * expired documents are swept now and then by whichever process serves a page.
 */
export class CursorStore<T> {
  private readonly index: string;
  private lastSweep = 0;

  private readonly client: Client;

  /** Over the process's read engine (its reads by id; its client for the writes). */
  constructor(
    private readonly read: ReadEngine,
    naming: IndexNaming,
    private readonly logger: Logger,
    private readonly ttlMs = CURSOR_TTL_MS,
  ) {
    this.index = indexName(naming, 'sql-cursors');
    this.client = read.client;
  }

  /** Stores a state for the next page; answers the token the client sends back. */
  async save(state: T, now = Date.now()): Promise<string> {
    const id = randomBytes(16).toString('base64url');
    const expiresAt = now + this.ttlMs;
    const doc: CursorDoc<T> = {
      issued_at: new Date(now).toISOString(),
      expires_at: new Date(expiresAt).toISOString(),
      state,
    };
    // A new random id: no retry can overwrite another cursor, and none is lost to a conflict.
    await this.client.create({ index: this.index, id, document: doc });
    this.sweep(now);
    return cursorToken(id, expiresAt);
  }

  /**
   * The state a token names (a real-time read by id). A token past its expiry, or whose document
   * is gone (closed, swept), or never issued here, is a 400 INVALID_CURSOR saying which.
   */
  async load(token: string, now = Date.now()): Promise<{ id: string; state: T }> {
    const { id, expiresAt } = parseCursorToken(token);
    // A real-time read by id: absent is undefined; a missing index is the engine's 503, not a 400.
    const doc = await this.read.get<CursorDoc<T>>(this.index, id);
    const expiry = doc === undefined ? expiresAt : Date.parse(doc.expires_at);
    if (now > expiry)
      throw invalid(
        `Invalid cursor: it expired at ${new Date(expiry).toISOString()}, ${Math.round((now - expiry) / 1000)} s ago ` +
          `(cursors live ${this.ttlMs / 1000} s between pages); run the query again.`,
      );
    if (doc === undefined)
      throw invalid('Invalid cursor: it was closed, or was not issued by this service; run the query again.');
    return { id, state: doc.state };
  }

  /** Forgets a cursor (its later use is a 400 INVALID_CURSOR). */
  async remove(id: string): Promise<void> {
    await this.client.delete({ index: this.index, id }, { ignore: [404] });
  }

  /** Deletes the cursors that expired, at most once a minute per process, without holding up the page. */
  private sweep(now: number): void {
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    this.client
      .deleteByQuery({
        index: this.index,
        query: { range: { expires_at: { lt: new Date(now).toISOString() } } },
        conflicts: 'proceed',
      })
      .catch((error: unknown) => this.logger.warn({ err: error }, 'sweeping expired SQL cursors failed'));
  }
}
