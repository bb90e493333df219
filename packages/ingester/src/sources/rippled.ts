import { setTimeout as sleep } from 'node:timers/promises';
import { Client as XrplClient, type LedgerStream } from 'xrpl';
import type { Logger } from '@xle/core';
import {
  asRippledJson,
  checkLedgerChain,
  normalizeLedger,
  parseStatePage,
  verifyLedger,
  type LedgerInput,
  type StatePage,
} from '@xle/documents';

export interface RippledSourceOptions {
  url: string;
  logger: Logger;
  /** Ledgers fetched in parallel during a backfill; they are still yielded in ledger order. */
  concurrency?: number;
  /** Attempts per ledger before a backfill fails (connection drops and server errors alike). */
  attempts?: number;
  /** Reconnect backoff: first wait, doubled up to the maximum. */
  backoffMs?: number;
  maxBackoffMs?: number;
  requestTimeoutMs?: number;
}

export class SourceError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SourceError';
  }
}

/**
 * The source's ledgers do not chain to the ones before them (fetched twice): another chain than
 * the one indexed, or a server that serves altered ledgers. `live` stops on it rather than retry.
 */
export class ChainBrokenError extends SourceError {
  constructor(message: string) {
    super(message);
    this.name = 'ChainBrokenError';
  }
}

/** A ledger that does not match its own hashes (or cannot be checked): an attempt that failed. */
class LedgerRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LedgerRefusedError';
  }
}

/**
 * rippled over WebSocket with the xrpl Client: `backfill` fetches a range with several ledgers in
 * flight and yields them in order; `live` follows the validated-ledger stream, fetching each
 * ledger with its transactions expanded, and after any reconnect first backfills the gap since the
 * last ledger it yielded, so no ledger is ever skipped.
 */
/** What chains a ledger to the next: its index and hash. */
export type LedgerLink = Pick<LedgerInput, 'ledger_index' | 'ledger_hash'>;

export class RippledSource {
  private xrpl: XrplClient | undefined;
  private connecting: Promise<XrplClient> | undefined;
  /** The network's id as the server reports it (server_info), for ctids. */
  networkId: number | undefined;
  /** The newest validated ledger the server announced on its stream (0 before the first). */
  newestValidated = 0;

  constructor(private readonly options: RippledSourceOptions) {}

  private async connection(): Promise<XrplClient> {
    if (this.xrpl?.isConnected() === true) return this.xrpl;
    this.connecting ??= (async () => {
      await this.dropConnection();
      const xrpl = new XrplClient(this.options.url, {
        timeout: this.options.requestTimeoutMs ?? 20000,
        connectionTimeout: 5000,
      });
      // Our own loop reconnects; the xrpl client's automatic reconnect would race with it.
      xrpl.on('disconnected', () => {
        if (this.xrpl === xrpl) this.xrpl = undefined;
      });
      xrpl.on('error', (...args: unknown[]) =>
        this.options.logger.warn({ error: args.map(String).join(' ') }, 'rippled connection error'),
      );
      await xrpl.connect();
      this.networkId = xrpl.networkID;
      this.xrpl = xrpl;
      return xrpl;
    })().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async dropConnection(): Promise<void> {
    const xrpl = this.xrpl;
    this.xrpl = undefined;
    if (xrpl !== undefined) await xrpl.disconnect().catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.dropConnection();
  }

  private backoff(attempt: number): number {
    return Math.min((this.options.backoffMs ?? 500) * 2 ** attempt, this.options.maxBackoffMs ?? 30000);
  }

  /** Runs `attempt` with backoff and reconnects until it succeeds or the attempts run out. */
  private async withRetries<T>(what: string, attempt: (xrpl: XrplClient) => Promise<T>): Promise<T> {
    const attempts = this.options.attempts ?? 5;
    let lastError: unknown;
    for (let n = 0; n < attempts; n += 1) {
      try {
        return await attempt(await this.connection());
      } catch (error) {
        lastError = error;
        this.options.logger.warn(
          { what, attempt: n + 1, error: (error as Error).message },
          error instanceof LedgerRefusedError
            ? 'ledger refused, fetching it again'
            : 'rippled request failed, retrying',
        );
        await sleep(this.backoff(n));
      }
    }
    if (lastError instanceof LedgerRefusedError)
      throw new SourceError(`${what} from ${this.options.url} was refused ${attempts} times: ${lastError.message}`, {
        cause: lastError,
      });
    throw new SourceError(
      `${what} could not be fetched from ${this.options.url} after ${attempts} attempts: ${(lastError as Error)?.message}`,
      { cause: lastError },
    );
  }

  /**
   * One validated ledger with its transactions, fetched in binary (rippled's own bytes: the
   * header as `ledger_data`, each transaction as `tx_blob` and `meta`) and checked against its
   * hashes before it is returned: the transactions against the header's transaction_hash, the
   * header against ledger_hash. The server is not ours to trust; a ledger that does not verify is a
   * failed attempt like a dropped connection, fetched again with backoff, and a SourceError when
   * the attempts run out.
   */
  async fetchLedger(ledgerIndex: number): Promise<LedgerInput> {
    return this.withRetries(`ledger ${ledgerIndex}`, async (xrpl) => {
      const response = await xrpl.request({
        command: 'ledger',
        ledger_index: ledgerIndex,
        transactions: true,
        expand: true,
        binary: true,
      });
      const result = response.result as unknown as { validated?: boolean };
      if (result.validated === false) throw new SourceError(`ledger ${ledgerIndex} is not validated yet`);
      const ledger = normalizeLedger(response.result);
      if (ledger.ledger_index !== ledgerIndex)
        throw new LedgerRefusedError(`the server answered ledger ${ledger.ledger_index} for ledger ${ledgerIndex}`);
      const verification = verifyLedger(ledger);
      if (verification.status === 'refused')
        throw new LedgerRefusedError(`${verification.reason} (the ${verification.check} check)`);
      if (verification.status === 'cannot-check')
        throw new LedgerRefusedError(`it cannot be checked: ${verification.reason}`);
      // Decoded as the codec writes; indexed as rippled's JSON answer was before (asRippledJson).
      ledger.transactions = ledger.transactions.map((tx) => asRippledJson(tx, { transaction: true }));
      return ledger;
    });
  }

  /** The `result` of one public rippled command (`fee`, `server_info`, ...), with retries. */
  async command<T = Record<string, unknown>>(command: 'fee' | 'server_info'): Promise<T> {
    return this.withRetries(command, async (xrpl) => (await xrpl.request({ command })).result as unknown as T);
  }

  /**
   * Every state entry of a validated ledger, one `ledger_data` page at a time (JSON, `limit`
   * entries a page), each page retried with backoff and reconnects.
   */
  async *statePages(ledgerIndex: number, limit = 2048): AsyncGenerator<StatePage> {
    let marker: unknown;
    do {
      const page = await this.withRetries(`ledger_data ${ledgerIndex}`, async (xrpl) => {
        const response = await xrpl.request({
          command: 'ledger_data',
          ledger_index: ledgerIndex,
          binary: false,
          limit,
          ...(marker === undefined ? {} : { marker }),
        });
        return response.result as unknown as Record<string, unknown>;
      });
      yield parseStatePage({ result: page }, `ledger_data ${ledgerIndex}`);
      marker = page.marker;
    } while (marker !== undefined && marker !== null);
  }

  /**
   * Ledgers from..to inclusive, in order, with up to `concurrency` requests in flight, each
   * verified (fetchLedger), and each one's parent_hash the hash of the ledger before it: a ledger
   * can match its own hashes and still belong to another chain. At a break both ledgers are
   * fetched once more; a break that remains is a SourceError. `after`, the ledger just before
   * `from` when the caller has it, is the first link.
   */
  async *backfill(from: number, to: number, after?: LedgerLink): AsyncGenerator<LedgerInput> {
    const concurrency = Math.max(1, this.options.concurrency ?? 4);
    const inFlight: Promise<LedgerInput>[] = [];
    let next = from;
    let previous: LedgerLink | undefined = after?.ledger_index === from - 1 ? after : undefined;
    while (next <= to || inFlight.length > 0) {
      while (next <= to && inFlight.length < concurrency) {
        const pending = this.fetchLedger(next);
        pending.catch(() => undefined); // awaited below, in order; avoid an unhandled rejection meanwhile
        inFlight.push(pending);
        next += 1;
      }
      const head = inFlight.shift();
      if (head === undefined) continue;
      let ledger = await head;
      if (previous !== undefined) ledger = await this.chained(previous, ledger);
      yield ledger;
      previous = ledger;
    }
  }

  /** `ledger` if it names `previous` as its parent; else both fetched again once, or a SourceError. */
  private async chained(previous: LedgerLink, ledger: LedgerInput): Promise<LedgerInput> {
    const broken = checkLedgerChain(previous, ledger);
    if (broken === undefined) return ledger;
    this.options.logger.warn(
      { ledger: ledger.ledger_index, error: broken },
      'ledger chain broken, fetching both again',
    );
    const [parent, again] = await Promise.all([
      this.fetchLedger(previous.ledger_index),
      this.fetchLedger(ledger.ledger_index),
    ]);
    // `previous` is already yielded: the chain may only go on from it.
    const still =
      parent.ledger_hash === previous.ledger_hash
        ? checkLedgerChain(previous, again)
        : `ledger ${previous.ledger_index} is now ${parent.ledger_hash}, it was ${previous.ledger_hash}`;
    if (still !== undefined)
      throw new ChainBrokenError(
        `ledger ${ledger.ledger_index} from ${this.options.url} refused, the chain is broken: ${still}`,
      );
    return again;
  }

  /** The server's newest validated ledger index. */
  async validatedLedgerIndex(): Promise<number> {
    const xrpl = await this.connection();
    const response = await xrpl.request({ command: 'ledger', ledger_index: 'validated' });
    return response.result.ledger_index;
  }

  /**
   * Follows validated ledgers for ever (until `signal` aborts). `after` is the last ledger already
   * indexed (0: start at the server's current validated ledger), and `indexed` its hash as the
   * index holds it: the first ledger fetched must name it as its parent, so a restart never goes on
   * from another chain than the one indexed. Reconnects with backoff.
   */
  async *live(after: number, signal?: AbortSignal, indexed?: LedgerLink): AsyncGenerator<LedgerInput> {
    let last = after;
    // The last ledger yielded (or indexed): the next one must name it as its parent.
    let lastLedger: LedgerLink | undefined = indexed?.ledger_index === after ? indexed : undefined;
    let failures = 0;
    // A function, not a narrowed property: the signal changes while this generator waits.
    const aborted = (): boolean => signal?.aborted === true;
    while (!aborted()) {
      const queue: number[] = [];
      let wake: (() => void) | undefined;
      let closed = false;
      const notify = (): void => {
        wake?.();
        wake = undefined;
      };
      try {
        const xrpl = await this.connection();
        const onLedger = (stream: LedgerStream): void => {
          this.newestValidated = Math.max(this.newestValidated, stream.ledger_index);
          queue.push(stream.ledger_index);
          notify();
        };
        const onClose = (): void => {
          closed = true;
          notify();
        };
        xrpl.on('ledgerClosed', onLedger);
        xrpl.on('disconnected', onClose);
        signal?.addEventListener('abort', onClose, { once: true });
        try {
          const subscribed = await xrpl.request({ command: 'subscribe', streams: ['ledger'] });
          const current = (subscribed.result as { ledger_index?: number }).ledger_index;
          if (typeof current === 'number') {
            this.newestValidated = Math.max(this.newestValidated, current);
            queue.push(current);
          }
          failures = 0;
          this.options.logger.info({ url: this.options.url, validated: current, last }, 'following validated ledgers');
          while (!closed && !aborted()) {
            const target = queue.shift();
            if (target === undefined) {
              await new Promise<void>((resolve) => {
                wake = resolve;
              });
              continue;
            }
            if (target <= last) continue;
            // A gap (first start, or ledgers missed while disconnected) is backfilled first.
            const from = last === 0 ? target : last + 1;
            for await (const ledger of this.backfill(from, target, lastLedger)) {
              yield ledger;
              last = ledger.ledger_index;
              lastLedger = ledger;
            }
          }
        } finally {
          xrpl.removeListener('ledgerClosed', onLedger);
          xrpl.removeListener('disconnected', onClose);
          signal?.removeEventListener('abort', onClose);
        }
      } catch (error) {
        if (aborted()) break;
        // Going on would index another chain than the one indexed: stop, the operator decides.
        if (error instanceof ChainBrokenError) throw error;
        this.options.logger.warn({ error: (error as Error).message }, 'rippled stream interrupted');
      }
      if (aborted()) break;
      await this.dropConnection();
      const wait = this.backoff(failures);
      failures += 1;
      this.options.logger.warn({ waitMs: wait, last }, 'reconnecting to rippled');
      await sleep(wait);
    }
  }
}
