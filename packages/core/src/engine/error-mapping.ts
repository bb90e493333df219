import { errors } from '@elastic/elasticsearch';
import { INDEX_KINDS } from '../index-names.js';
import { isTransportFailure } from './breaker.js';
import {
  AppError,
  BadRequestError,
  EngineTimeoutError,
  EngineUnavailableError,
  ErrorCode,
  IndexNotFoundError,
} from '../errors.js';

/**
 * Maps an engine client error to the shared error model, explicitly, so the client's raw `meta`
 * (request, headers, node addresses) never reaches a response.
 * - engine unreachable → 503 ENGINE_UNAVAILABLE (with Retry-After)
 * - engine timeout     → 504 ENGINE_TIMEOUT
 * - 400 from the engine (a user query it rejected) → 400 with the engine's own reason
 * - a point in time that expired or was closed (search_context_missing_exception) → 400
 *   INVALID_CURSOR: the cursor or PIT id the client sent is spent
 * - an index or alias that is not there (index_not_found_exception) → 503 INDEX_NOT_FOUND: the
 *   indices were deleted or are being recreated, which is no fault of the request (a 404 would
 *   say the document does not exist). A read by id that may miss its range asks with
 *   `ignore: [404]` and never gets here.
 */
export function mapEngineError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  if (error instanceof errors.TimeoutError) return new EngineTimeoutError(error);
  if (isTransportFailure(error)) return new EngineUnavailableError(error);
  if (error instanceof errors.ResponseError) {
    const status = error.meta.statusCode ?? 500;
    if (engineErrorType(error) === 'index_not_found_exception') return new IndexNotFoundError(error);
    // A point in time that expired or was closed: the cursor or PIT id the client sent is spent.
    if (engineErrorType(error) === 'search_context_missing_exception')
      return new BadRequestError(
        'The point in time of this cursor has expired or was closed; run the query again.',
        { reason: engineReason(error) },
        ErrorCode.InvalidCursor,
      );
    if (status === 400) {
      return new BadRequestError(
        'The search engine rejected the query.',
        { reason: engineReason(error) },
        ErrorCode.QueryRejected,
      );
    }
    if (status === 429 || status === 502 || status === 503) return new EngineUnavailableError(error);
    if (status === 504) return new EngineTimeoutError(error);
    // A node lost or a shard moving while the cluster recovers: a failure of the moment.
    if (status >= 500 && CLUSTER_WEATHER.has(engineErrorType(error))) return new EngineUnavailableError(error);
  }
  return error;
}

/** Engine error types that say a node, shard or master is unavailable for now, not that the request is wrong. */
const CLUSTER_WEATHER = new Set([
  'no_shard_available_action_exception',
  'unavailable_shards_exception',
  'node_not_connected_exception',
  'node_disconnected_exception',
  'node_closed_exception',
  'connect_transport_exception',
  'cluster_block_exception',
  'master_not_discovered_exception',
  'primary_missing_action_exception',
  'shard_not_found_exception',
]);

/** Whether an engine error type says a node, shard or master is unavailable for now. */
export function isClusterWeather(type: string): boolean {
  return CLUSTER_WEATHER.has(type);
}

/** The root cause's type of an engine error (a search failure names its shards' failures). */
function engineErrorType(error: InstanceType<typeof errors.ResponseError>): string {
  const body = error.meta.body as
    | {
        error?: {
          type?: string;
          root_cause?: { type?: string }[];
          failed_shards?: { reason?: { type?: string } }[];
        };
      }
    | undefined;
  return body?.error?.failed_shards?.[0]?.reason?.type ?? body?.error?.root_cause?.[0]?.type ?? body?.error?.type ?? '';
}

/**
 * A deployment's index names (`xrpl-mainnet-transactions-0094000000-g1`, `…-transactions`) as the
 * public name of their kind: answers never show a backing index, a prefix or a range.
 */
const INDEX_NAME = new RegExp(
  String.raw`\b[A-Za-z0-9_.]+(?:-[A-Za-z0-9_.]+)+?-(${[...INDEX_KINDS].sort((a, b) => b.length - a.length).join('|')})(?:-\d{10}(?:-g\d+)?)?\b`,
  'g',
);

/** The longest engine reason an answer quotes. */
const MAX_REASON = 1000;

/** An engine message with its index names replaced by their public names (pure). */
export function publicReason(reason: string): string {
  // Cut first: an engine message may quote a long query, and the scan is not linear in the worst case.
  const text = reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON)}…` : reason;
  return text.replace(INDEX_NAME, '$1');
}

function engineReason(error: InstanceType<typeof errors.ResponseError>): string {
  const body = error.meta.body as { error?: { root_cause?: { reason?: string }[]; reason?: string } } | undefined;
  return publicReason(body?.error?.root_cause?.[0]?.reason ?? body?.error?.reason ?? 'unknown reason');
}
