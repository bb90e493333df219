/**
 * The error model every package shares. An `AppError` carries an HTTP status, a stable machine
 * code and a message that is safe to show; anything that is not an `AppError` is an internal
 * error whose message is never exposed (the API answers a generic 500 and logs the original).
 */
export type ErrorDetails = Record<string, unknown> | readonly unknown[];

/** Stable codes: clients may switch on them, so never rename one. */
export const ErrorCode = {
  BadRequest: 'BAD_REQUEST',
  InvalidParameter: 'INVALID_PARAMETER',
  UnknownParameter: 'UNKNOWN_PARAMETER',
  NotFound: 'NOT_FOUND',
  /**
   * A balance asked at a point the index cannot answer exactly: the account's history there is
   * not complete (ledgers missing between where it starts and that point). Never answered with a guess.
   */
  HistoryIncomplete: 'HISTORY_INCOMPLETE',
  MethodNotAllowed: 'METHOD_NOT_ALLOWED',
  PayloadTooLarge: 'PAYLOAD_TOO_LARGE',
  HeadersTooLarge: 'HEADERS_TOO_LARGE',
  EngineUnavailable: 'ENGINE_UNAVAILABLE',
  EngineTimeout: 'ENGINE_TIMEOUT',
  DataNotReady: 'DATA_NOT_READY',
  /** A ledger whose transactions are not all searchable yet (being indexed): 503 with Retry-After. */
  LedgerNotReady: 'LEDGER_NOT_READY',
  /** A ledger some of whose transactions the engine refused when they were written (dead letters): 500. */
  LedgerIncomplete: 'LEDGER_INCOMPLETE',
  /** An index the request reads is not in the cluster (deleted, or being recreated): 503, never a 500. */
  IndexNotFound: 'INDEX_NOT_FOUND',
  /** The engine refused a query a client wrote (400 with the engine's reason). */
  QueryRejected: 'QUERY_REJECTED',
  /** A request body in a media type the route does not read (415). */
  UnsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  /** The configured cluster runs an Elasticsearch major this product does not support. */
  EngineVersionUnsupported: 'ENGINE_VERSION_UNSUPPORTED',
  /** A search body or SQL text that does not parse, or names an unknown table, column or field. */
  InvalidQuery: 'INVALID_QUERY',
  /** A search body or SQL statement that tries something never allowed: scripts, writes, other indices. */
  ForbiddenQuery: 'FORBIDDEN_QUERY',
  /** Valid SQL outside the supported subset (joins, sub-queries, functions not on the list). */
  UnsupportedSql: 'UNSUPPORTED_SQL',
  /** Above a size, window, bucket or nesting cap. */
  QueryLimitExceeded: 'QUERY_LIMIT_EXCEEDED',
  /** A cursor or point-in-time token that is malformed, forged or expired. */
  InvalidCursor: 'INVALID_CURSOR',
  NotAcceptable: 'NOT_ACCEPTABLE',
  /** An API key that is malformed, unknown or revoked (never downgraded to the free plan). */
  InvalidApiKey: 'INVALID_API_KEY',
  /** An address that admits subscription keys only (the search API) was called without one. */
  ApiKeyRequired: 'API_KEY_REQUIRED',
  /** The plan's requests per UTC day are used up; Retry-After says when the day ends. */
  QuotaExceeded: 'QUOTA_EXCEEDED',
  /** Above the plan's requests per second; Retry-After: 1. */
  RateLimited: 'RATE_LIMITED',
  // Pay-as-you-go (402): the Payment-Claim header and the pay channel behind it (packages/access/src/payg).
  /** No Payment-Claim header on a pay-as-you-go address. */
  PaymentRequired: 'PAYMENT_REQUIRED',
  /** A Payment-Claim header that does not follow the documented format. */
  ClaimMalformed: 'CLAIM_MALFORMED',
  /** The signature does not verify for that channel, amount and public key (a forged claim). */
  ClaimSignatureInvalid: 'CLAIM_SIGNATURE_INVALID',
  /** No open PayChannel with that id in the indexed ledger objects. */
  ChannelNotFound: 'CHANNEL_NOT_FOUND',
  /** The channel's Expiration or CancelAfter has passed. */
  ChannelExpired: 'CHANNEL_EXPIRED',
  /** The channel does not pay this service's account. */
  ChannelWrongDestination: 'CHANNEL_WRONG_DESTINATION',
  /** The claim's public key is not the channel's PublicKey. */
  ChannelKeyMismatch: 'CHANNEL_KEY_MISMATCH',
  /** The claim exceeds what the channel holds (its Amount). */
  ChannelUnderfunded: 'CHANNEL_UNDERFUNDED',
  /** The cumulative amount does not cover the requests served so far plus this one (stale or replayed claim). */
  ClaimInsufficient: 'CLAIM_INSUFFICIENT',
  /** Too many concurrent writers on one channel's accounting; retry. */
  ChannelBusy: 'CHANNEL_BUSY',
  ConfigInvalid: 'CONFIG_INVALID',
  Internal: 'INTERNAL_ERROR',
  /** An answer that does not match its route's published schema (with api.validateResponses). */
  ResponseContractViolation: 'RESPONSE_CONTRACT_VIOLATION',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export interface AppErrorOptions {
  details?: ErrorDetails;
  /** Seconds a client should wait before retrying (sent as `Retry-After`). */
  retryAfter?: number;
  cause?: unknown;
}

/**
 * Whether an answer of this status and code is a failure to log at error level: any 5xx but a
 * ledger still being indexed (the newest ledgers' normal state for about a second).
 */
export function isServerFailure(status: number, code: string): boolean {
  return status >= 500 && code !== ErrorCode.LedgerNotReady;
}

export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: ErrorDetails | undefined;
  readonly retryAfter: number | undefined;
  /** Koa's convention: only exposed errors show their message to the client. */
  readonly expose = true;

  constructor(status: number, code: string, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    this.details = options.details;
    this.retryAfter = options.retryAfter;
  }
}

export class BadRequestError extends AppError {
  constructor(message: string, details?: ErrorDetails, code: string = ErrorCode.BadRequest) {
    super(400, code, message, details === undefined ? {} : { details });
    this.name = 'BadRequestError';
  }
}

export class NotFoundError extends AppError {
  constructor(message: string, details?: ErrorDetails) {
    super(404, ErrorCode.NotFound, message, details === undefined ? {} : { details });
    this.name = 'NotFoundError';
  }
}

export class EngineUnavailableError extends AppError {
  constructor(cause?: unknown, retryAfter = 5) {
    super(503, ErrorCode.EngineUnavailable, 'The search engine is not reachable; try again shortly.', {
      retryAfter,
      cause,
    });
    this.name = 'EngineUnavailableError';
  }
}

export class EngineTimeoutError extends AppError {
  constructor(cause?: unknown) {
    super(504, ErrorCode.EngineTimeout, 'The search engine did not answer in time.', { cause });
    this.name = 'EngineTimeoutError';
  }
}

export class DataNotReadyError extends AppError {
  constructor(resource: string) {
    super(503, ErrorCode.DataNotReady, `The data behind ${resource} has not been computed yet.`, {
      retryAfter: 3600,
      details: { resource },
    });
    this.name = 'DataNotReadyError';
  }
}

/**
 * A ledger whose header is read before all of its transactions are searchable: the header is
 * read by id (realtime), its transactions are searched (each visible once its shard refreshes),
 * and the ingester writes a ledger's documents in more than one bulk request. The newest ledgers
 * are in that state for about a refresh interval (a second), a backfill's until its next refresh
 * (ES_BACKFILL_REFRESH). A part of the list is never answered (it is cached for good).
 */
export class LedgerNotReadyError extends AppError {
  constructor(ledgerIndex: number, searchable: number, txCount: number) {
    super(
      503,
      ErrorCode.LedgerNotReady,
      `Ledger ${ledgerIndex} is still being indexed: ${searchable} of its ${txCount} transactions are searchable yet; ask again shortly.`,
      { retryAfter: 1, details: { ledger_index: ledgerIndex, searchable, tx_count: txCount } },
    );
    this.name = 'LedgerNotReadyError';
  }
}

/**
 * A ledger some of whose transactions the engine refused when the ingester wrote them (recorded
 * in the dead-letters index, for the operator to replay once the cause is fixed): its list is not
 * whole and will not become so by waiting, so it is the server's fault, not a part of the list.
 */
export class LedgerIncompleteError extends AppError {
  constructor(ledgerIndex: number, refused: number, txCount: number) {
    super(
      500,
      ErrorCode.LedgerIncomplete,
      `Ledger ${ledgerIndex} is indexed without ${refused} of its ${txCount} transactions: the search engine refused them (recorded as dead letters for the operator).`,
      { details: { ledger_index: ledgerIndex, refused, tx_count: txCount } },
    );
    this.name = 'LedgerIncompleteError';
  }
}

/**
 * The engine has no index where the request reads (index_not_found_exception): deleted under a
 * running server, or not recreated yet after `templates apply --recreate-stale`. An operator's
 * matter of the moment, not the client's request: 503 with Retry-After, and which index is never
 * said (the engine's own error stays in the log).
 */
export class IndexNotFoundError extends AppError {
  constructor(cause?: unknown) {
    super(
      503,
      ErrorCode.IndexNotFound,
      'The data this request reads is not in the search engine right now; try again later.',
      {
        retryAfter: 30,
        cause,
      },
    );
    this.name = 'IndexNotFoundError';
  }
}

export class ConfigError extends AppError {
  constructor(message: string, details?: ErrorDetails) {
    super(500, ErrorCode.ConfigInvalid, message, details === undefined ? {} : { details });
    this.name = 'ConfigError';
  }
}

/** The one JSON body every failure is answered with. */
export interface ErrorBody {
  error: { code: string; message: string; details?: ErrorDetails };
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** Shapes any thrown value into the public body; internal errors get a generic message. */
export function toErrorBody(error: unknown): { status: number; body: ErrorBody; retryAfter?: number } {
  if (isAppError(error)) {
    const body: ErrorBody = { error: { code: error.code, message: error.message } };
    if (error.details !== undefined) body.error.details = error.details;
    return error.retryAfter === undefined
      ? { status: error.status, body }
      : { status: error.status, body, retryAfter: error.retryAfter };
  }
  return {
    status: 500,
    body: { error: { code: ErrorCode.Internal, message: 'Internal server error.' } },
  };
}

/**
 * A failure of a command-line tool, not of an HTTP request: a stable code, a message that says
 * what to do, and the process exit code (64 for a misused command, as sysexits' EX_USAGE).
 */
export class CommandError extends Error {
  readonly code: string;
  readonly exitCode: number;
  readonly details: ErrorDetails | undefined;

  constructor(
    code: string,
    message: string,
    options: { exitCode?: number; details?: ErrorDetails; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CommandError';
    this.code = code;
    this.exitCode = options.exitCode ?? 1;
    this.details = options.details;
  }
}

/** A command called with options it does not take, or with values out of range (exit 64). */
export class UsageError extends CommandError {
  constructor(message: string) {
    super('USAGE', message, { exitCode: 64 });
    this.name = 'UsageError';
  }
}

/** Options of the right form that the command refuses (a ledger range that cannot exist): exit 1. */
export class InvalidOptionError extends CommandError {
  constructor(message: string) {
    super('INVALID_OPTION', message);
    this.name = 'InvalidOptionError';
  }
}
