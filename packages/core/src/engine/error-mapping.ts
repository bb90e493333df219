import { errors } from '@elastic/elasticsearch';
import { AppError, BadRequestError, EngineTimeoutError, EngineUnavailableError, ErrorCode } from '../errors.js';

/**
 * Maps an engine client error to the shared error model, explicitly, so the client's raw `meta`
 * (request, headers, node addresses) never reaches a response.
 * - engine unreachable → 503 ENGINE_UNAVAILABLE (with Retry-After)
 * - engine timeout     → 504 ENGINE_TIMEOUT
 * - 400 from the engine (a user query it rejected) → 400 with the engine's own reason
 */
export function mapEngineError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  if (error instanceof errors.TimeoutError) return new EngineTimeoutError(error);
  if (error instanceof errors.ConnectionError || error instanceof errors.NoLivingConnectionsError) {
    return new EngineUnavailableError(error);
  }
  if (error instanceof errors.ResponseError) {
    const status = error.meta.statusCode ?? 500;
    if (status === 400) {
      return new BadRequestError(
        'The search engine rejected the query.',
        { reason: engineReason(error) },
        ErrorCode.QueryRejected,
      );
    }
    if (status === 429 || status === 503) return new EngineUnavailableError(error);
    if (status === 504) return new EngineTimeoutError(error);
  }
  return error;
}

function engineReason(error: InstanceType<typeof errors.ResponseError>): string {
  const body = error.meta.body as { error?: { root_cause?: { reason?: string }[]; reason?: string } } | undefined;
  return body?.error?.root_cause?.[0]?.reason ?? body?.error?.reason ?? 'unknown reason';
}
