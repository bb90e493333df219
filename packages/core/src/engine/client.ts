import { readFileSync } from 'node:fs';
import { Client, Transport, type ClientOptions } from '@elastic/elasticsearch';
import { engineUrls, type Config } from '../config.js';
import { ConfigError } from '../errors.js';
import { guardedTransport, type TransportGuard } from './breaker.js';

export type { Client };

/**
 * The transport with the client's OpenTelemetry spans off unless `OTEL_ELASTICSEARCH_ENABLED` asks
 * for them: a span costs ~35 µs of CPU per call even with no tracer installed (measured on the hot
 * path). The client's own `openTelemetry` option cannot do this: 8.19 does not hand it to its
 * transport, which then reads only the environment and defaults to on.
 */
function withoutSpans(Base: typeof Transport): typeof Transport {
  if (process.env.OTEL_ELASTICSEARCH_ENABLED !== undefined) return Base;
  return class TransportWithoutSpans extends Base {
    constructor(options: ConstructorParameters<typeof Transport>[0]) {
      super({ ...options, openTelemetry: { enabled: false } });
    }
  };
}

/**
 * The one factory for engine clients. The same code talks to the embedded local node and to any
 * production Elasticsearch 8.x/9.x cluster; only the configuration differs. A server passes a
 * guard: its breaker and its observer see every call (see breaker.ts).
 */
export function createEngineClient(
  config: Config,
  overrides: Partial<ClientOptions> = {},
  guard?: TransportGuard,
): Client {
  const options: ClientOptions = {
    // Every node known: a request to a lost node is retried on another (maxRetries).
    nodes: engineUrls(config),
    requestTimeout: config.es.requestTimeoutMs,
    maxRetries: 1,
    // Never sniff: behind load balancers and in containers the published node addresses lie.
    sniffOnStart: false,
    Transport: withoutSpans(guard === undefined ? Transport : guardedTransport(guard)),
    ...overrides,
  };
  if (config.es.apiKey !== undefined) options.auth = { apiKey: config.es.apiKey };
  else if (config.es.username !== undefined) {
    options.auth = { username: config.es.username, password: config.es.password ?? '' };
  }
  if (config.es.caFile !== undefined) {
    try {
      options.tls = { ca: readFileSync(config.es.caFile, 'utf8') };
    } catch (error) {
      throw new ConfigError(`Cannot read ES_CA_FILE ${config.es.caFile}: ${(error as Error).message}`);
    }
  }
  return new Client(options);
}

/** Runs `work` with a client of the configured engine, closed when the work is done either way. */
export async function withEngineClient<T>(config: Config, work: (client: Client) => Promise<T>): Promise<T> {
  const client = createEngineClient(config);
  try {
    return await work(client);
  } finally {
    await client.close();
  }
}
