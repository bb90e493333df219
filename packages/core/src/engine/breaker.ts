import {
  errors,
  Transport,
  type TransportRequestOptions,
  type TransportRequestOptionsWithMeta,
  type TransportRequestOptionsWithOutMeta,
  type TransportRequestParams,
  type TransportResult,
} from '@elastic/elasticsearch';
import { EngineUnavailableError } from '../errors.js';
import type { Logger } from '../logger.js';

/** One engine call as the transport saw it: for metrics. */
export interface EngineCall {
  method: string;
  path: string;
  seconds: number;
  /** The error's name when the call failed (`ResponseError`, `ConnectionError`, …). */
  error?: string;
}

/** Transport failures that say the engine cannot be reached at all (not a slow or refused query). */
export function isTransportFailure(error: unknown): boolean {
  return error instanceof errors.ConnectionError || error instanceof errors.NoLivingConnectionsError;
}

/** A call that got no answer within its time limit (the engine paused, partitioned or overloaded). */
export function isTimeout(error: unknown): boolean {
  return error instanceof errors.TimeoutError;
}

export interface BreakerOptions {
  /** How often the background probe asks the engine while the breaker is open. */
  probeMs?: number;
  /** Consecutive calls without an answer in time that open the breaker (default 2). */
  timeoutsToOpen?: number;
  logger?: Logger;
}

/**
 * Fail fast while the engine is down or hangs. The first call that cannot reach the engine
 * (connection refused or reset, no living node) opens the breaker, and so do `timeoutsToOpen`
 * calls in a row that got no answer within their time limit (an engine that accepts connections
 * and never answers: a long pause, a partition, a node stopped); while it is open every call
 * throws EngineUnavailableError at once (503 with Retry-After), so no request waits on connection
 * attempts, client retries or time limits. A probe asks the engine in the background every
 * `probeMs` and closes the breaker on the first answer of any status. Any answer resets the count
 * of timeouts: one slow query among answered ones never opens it.
 */
export class EngineBreaker {
  private openedAt: number | undefined;
  /** Why calls are held back though the engine may answer (see `hold`), or undefined. */
  private heldFor: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly probeMs: number;
  private readonly timeoutsToOpen: number;
  private timeoutsInARow = 0;

  constructor(private readonly options: BreakerOptions = {}) {
    this.probeMs = options.probeMs ?? 500;
    this.timeoutsToOpen = options.timeoutsToOpen ?? 2;
  }

  get isOpen(): boolean {
    return this.openedAt !== undefined || this.heldFor !== undefined;
  }

  /** Throws while open or held. */
  check(): void {
    // Retry-After: the probe's next look, not the 5 s of an unexplained failure.
    if (this.openedAt !== undefined || this.heldFor !== undefined)
      throw new EngineUnavailableError(undefined, Math.max(1, Math.ceil(this.probeMs / 1000)));
  }

  /**
   * Answers every call 503 ENGINE_UNAVAILABLE until `release`, whatever the engine says: a server
   * that could not check the index layout at start (the engine unreachable) holds its calls until
   * the check passes, so that no request is answered from indices laid out otherwise.
   */
  hold(reason: string): void {
    this.heldFor = reason;
  }

  release(): void {
    this.heldFor = undefined;
  }

  /** A call was answered (any status): the engine is there, the timeouts so far were not in a row. */
  answered(): void {
    this.timeoutsInARow = 0;
  }

  /**
   * Opens on a transport failure, or on the `timeoutsToOpen`th timeout in a row, and probes with
   * `probe` until the engine answers.
   */
  trip(error: unknown, probe: () => Promise<unknown>): void {
    if (error instanceof errors.ResponseError) return this.answered();
    const timedOut = isTimeout(error);
    if (timedOut) this.timeoutsInARow += 1;
    if (this.openedAt !== undefined) return;
    if (!isTransportFailure(error) && !(timedOut && this.timeoutsInARow >= this.timeoutsToOpen)) return;
    this.openedAt = Date.now();
    this.options.logger?.warn(
      { err: error },
      timedOut
        ? `engine not answering (${this.timeoutsInARow} calls in a row timed out): answering 503 until it is back`
        : 'engine unreachable: answering 503 until it is back',
    );
    const attempt = (): void => {
      this.timer = setTimeout(() => {
        probe().then(
          () => this.close(),
          (failure: unknown) => {
            // A response of any status means the engine is reachable again.
            if (failure instanceof errors.ResponseError) this.close();
            else if (this.openedAt !== undefined) attempt();
          },
        );
      }, this.probeMs);
      this.timer.unref();
    };
    attempt();
  }

  /** Stops probing (the server's close). */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private close(): void {
    if (this.openedAt === undefined) return;
    this.options.logger?.info({ downMs: Date.now() - this.openedAt }, 'engine reachable again');
    this.openedAt = undefined;
    this.timeoutsInARow = 0;
    this.stop();
  }
}

/** Marks the probe's own calls, which must pass an open breaker. */
const PROBE = Symbol('breaker probe');

export interface TransportGuard {
  breaker?: EngineBreaker;
  /** Told about every call once it ends (the probe's included). */
  observe?: (call: EngineCall) => void;
}

/**
 * The client's transport with the guard around every call: the breaker's check before it, the
 * observer and the breaker's trip after it. Every engine call of a server passes here, so this
 * is the one place that measures them and the one place that fails fast.
 */
export function guardedTransport(guard: TransportGuard): typeof Transport {
  return class GuardedTransport extends Transport {
    override request<T = unknown>(
      params: TransportRequestParams,
      options?: TransportRequestOptionsWithOutMeta,
    ): Promise<T>;
    override request<T = unknown, C = unknown>(
      params: TransportRequestParams,
      options?: TransportRequestOptionsWithMeta,
    ): Promise<TransportResult<T, C>>;
    override request<T = unknown>(params: TransportRequestParams, options?: TransportRequestOptions): Promise<T>;
    override async request(params: TransportRequestParams, options?: TransportRequestOptions): Promise<unknown> {
      const probing = (options?.context as { probe?: symbol } | undefined)?.probe === PROBE;
      if (!probing) guard.breaker?.check();
      const started = performance.now();
      try {
        const result: unknown = await super.request(params, options);
        if (!probing) guard.breaker?.answered();
        guard.observe?.({ method: params.method, path: params.path, seconds: (performance.now() - started) / 1000 });
        return result;
      } catch (error) {
        guard.observe?.({
          method: params.method,
          path: params.path,
          seconds: (performance.now() - started) / 1000,
          error: error instanceof Error ? error.name : 'Error',
        });
        if (!probing)
          guard.breaker?.trip(error, () =>
            this.request(
              { method: 'GET', path: '/_cluster/health', querystring: { timeout: '1s' } },
              { context: { probe: PROBE }, requestTimeout: 2000, maxRetries: 0 },
            ),
          );
        throw error;
      }
    }
  };
}
