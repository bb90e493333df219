import { errors } from '@elastic/elasticsearch';
import { engineUrls, usesExternalEngine, type Config } from '../config.js';
import { CommandError } from '../errors.js';
import { createEngineClient } from './client.js';

/** How long a command waits for the engine's first answer before it says the engine is not there. */
export const PROBE_TIMEOUT_MS = 8000;

/** Why a node did not answer as an Elasticsearch node, in words. */
function reasonOf(error: unknown, timeoutMs: number): string {
  if (error instanceof errors.TimeoutError) return `no answer within ${timeoutMs / 1000} s`;
  if (error instanceof errors.ProductNotSupportedError || error instanceof errors.DeserializationError)
    return 'it answers, but it is not Elasticsearch';
  if (error instanceof errors.ResponseError) {
    const status = error.statusCode ?? 0;
    if (status === 401 || status === 403)
      return `it refuses the credentials (HTTP ${status}): check ES_API_KEY, or ES_USERNAME and ES_PASSWORD`;
    return `it answers HTTP ${status}, not as an Elasticsearch node does`;
  }
  if (error instanceof errors.ConnectionError) {
    const message = error.message;
    if (/ECONNREFUSED/.test(message)) return 'nothing listens there (connection refused)';
    if (/ENOTFOUND|EAI_AGAIN/.test(message)) return 'the host name does not resolve';
    if (/EPROTO|wrong version number|SSL|TLS|certificate/i.test(message))
      return `the TLS handshake failed (${message.split('\n')[0]}): check http versus https, and ES_CA_FILE`;
    return message.split('\n')[0] ?? 'the connection failed';
  }
  return (error as Error)?.message ?? String(error);
}

/**
 * Checks, within `timeoutMs` and without retrying, that the configured engine answers as an
 * Elasticsearch node: a command that needs it says at once what was tried and what to check,
 * rather than retrying for minutes. Throws `CommandError` ENGINE_UNREACHABLE (exit 1).
 */
export async function probeEngine(config: Config, timeoutMs = PROBE_TIMEOUT_MS): Promise<void> {
  const client = createEngineClient(config, { maxRetries: 0, requestTimeout: timeoutMs });
  try {
    await client.cluster.health({}, { requestTimeout: timeoutMs, maxRetries: 0 });
  } catch (error) {
    const tried = engineUrls(config).join(', ');
    const advice = usesExternalEngine(config)
      ? 'Check that ES_URL names the cluster (scheme http or https, host, port) and that it runs.'
      : 'Start the local engine with `pnpm engine start` (`pnpm engine status` says whether it runs), or set ES_URL to a cluster.';
    throw new CommandError(
      'ENGINE_UNREACHABLE',
      `cannot reach Elasticsearch at ${tried}: ${reasonOf(error, timeoutMs)}. ${advice}`,
    );
  } finally {
    await client.close();
  }
}
