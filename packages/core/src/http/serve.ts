import { reportError } from '../cli/command.js';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type Koa from 'koa';
import { engineUrl, loadConfig, type Config } from '../config.js';
import { createEngineClient, type Client } from '../engine/client.js';
import { ReadEngine } from '../engine/read.js';
import { CommandError, ErrorCode } from '../errors.js';
import { createLogger, type Logger } from '../logger.js';
import { EngineBreaker } from '../engine/breaker.js';
import type { LayoutError } from '../engine/layout.js';
import { CloseHooks } from './close-hooks.js';
import { checkLayoutAtStart } from '../engine/layout-check.js';
import { ServerMetrics } from './metrics.js';

export interface RunningServer {
  server: Server;
  url: string;
  /**
   * Stops accepting connections, lets in-flight requests finish (closing any still running after
   * `graceMs`), then runs `closeAfter` (the engine client's close).
   */
  close: (graceMs?: number) => Promise<void>;
}

/** Request line plus headers larger than this get a 431 before the app sees them. */
export const MAX_HEADER_BYTES = 16 * 1024;
/** How long a shutdown waits for in-flight requests before closing their connections. */
export const SHUTDOWN_GRACE_MS = 30_000;

/**
 * Node answers malformed or oversized requests itself with a bare status line; answer them with
 * the shared error body instead, then close the socket.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
  const body = JSON.stringify({
    error: tooLarge
      ? { code: ErrorCode.HeadersTooLarge, message: `Request headers exceed ${MAX_HEADER_BYTES} bytes.` }
      : { code: ErrorCode.BadRequest, message: 'Malformed HTTP request.' },
  });
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export interface ListenOptions {
  host: string;
  port: number;
  logger: Logger;
  /** Runs after the HTTP server is closed and in-flight requests are done (closes the engine client). */
  closeAfter: () => Promise<void>;
}

/**
 * Serves a request listener with the product's limits: a header cap answered with the shared
 * error body, request timeouts, and a graceful close.
 */
export async function listen(
  listener: RequestListener,
  { host, port, logger, closeAfter }: ListenOptions,
): Promise<RunningServer> {
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, listener);
  server.headersTimeout = 10_000;
  server.requestTimeout = 60_000;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => answerClientError(error, socket));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const bound = typeof address === 'object' && address !== null ? address.port : port;
  return {
    server,
    url: `http://${host}:${bound}`,
    close: async (graceMs = SHUTDOWN_GRACE_MS) => {
      let expired = false;
      const deadline = setTimeout(() => {
        expired = true;
        logger.warn({ graceMs }, 'in-flight requests still running at the shutdown deadline: closing them');
        server.closeAllConnections();
      }, graceMs);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      clearTimeout(deadline);
      // The engine client waits for its own requests; past the deadline nobody waits for their answers.
      if (expired) void closeAfter().catch(() => undefined);
      else await closeAfter();
    },
  };
}

/** Runs a server until SIGTERM / SIGINT, then closes it gracefully and exits. */
export function closeOnSignals(running: RunningServer, logger: Logger): void {
  const shutdown = (signal: string): void => {
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

/** What an HTTP app of the product is built from. */
export interface AppDeps {
  config: Config;
  client: Client;
  logger: Logger;
  /** The process's one read engine over `client` (absent: the app makes it; see readEngineFor). */
  read?: ReadEngine;
  /** Where the app registers what it hands back when the server closes (absent: nothing runs it). */
  closing?: CloseHooks;
  /** The server's metrics (absent: no /metrics). */
  metrics?: ServerMetrics;
}

/**
 * Serves one app of the product on `port`: the index layout recorded in the cluster checked first
 * (a LayoutError when the configuration disagrees with it or none is recorded; see
 * layout-check.ts), one engine client behind a breaker (503 at once while the engine cannot be
 * reached) and observed by the server's metrics, the app, the listening server (its close runs
 * the app's close hooks, then closes the client). The API and the search API alone both start
 * this way. `onRefused` is told when a layout check made after the start (the engine was down)
 * refuses; the server is closed by then.
 */
export async function startHttpServer(
  name: string,
  config: Config,
  port: number,
  createApp: (deps: AppDeps) => Koa,
  logger: Logger = createLogger(name, config.log.level, undefined, config.log.format, config.log.bufferBytes),
  onRefused: (error: LayoutError) => void = () => undefined,
): Promise<RunningServer> {
  const metrics = new ServerMetrics();
  const breaker = new EngineBreaker({ logger });
  const closing = new CloseHooks();
  closing.add(() => breaker.stop());
  let refuse = (error: LayoutError): void => onRefused(error);
  try {
    await checkLayoutAtStart({ config, logger, breaker, closing, onRefused: (error) => refuse(error) });
  } catch (error) {
    await closing.run();
    throw error;
  }
  const client = createEngineClient(config, {}, { breaker, observe: metrics.engineCall });
  const app = createApp({ config, client, read: readEngineFor({ config, client }), logger, closing, metrics });
  const running = await listen(app.callback(), {
    host: config.api.host,
    port,
    logger,
    closeAfter: async () => {
      try {
        await closing.run();
      } finally {
        await client.close();
      }
    },
  });
  refuse = (error) => {
    logger.fatal({ code: error.code }, `${name} stops: ${error.message}`);
    void running.close().finally(() => onRefused(error));
  };
  logger.info({ url: running.url, engine: engineUrl(config), network: config.network }, `${name} listening`);
  return running;
}

/** The read engine of each client: one per process's client, whichever part of the app asks. */
const readEngines = new WeakMap<Client, ReadEngine>();

/**
 * The process's one read engine (its cache, its budgets, its walkers): the one the app was given,
 * else the one of its client, made on first use with the configured budgets. The REST routes, the
 * search routes beside them, the access stores and the SQL cursors all read through it.
 */
export function readEngineFor(deps: Pick<AppDeps, 'config' | 'client' | 'read'>): ReadEngine {
  if (deps.read !== undefined) return deps.read;
  let read = readEngines.get(deps.client);
  if (read === undefined) {
    read = new ReadEngine(deps.client, { lookupMs: deps.config.es.lookupTimeoutMs });
    readEngines.set(deps.client, read);
  }
  return read;
}

/** True when `moduleUrl` (a module's import.meta.url) is the script node was started with. */
function isMainModule(moduleUrl: string): boolean {
  return process.argv[1] !== undefined && moduleUrl === new URL(`file://${process.argv[1]}`).href;
}

export type StartServer = (
  config: Config,
  logger?: Logger,
  onRefused?: (error: LayoutError) => void,
) => Promise<RunningServer>;

/**
 * A server's entry point: returns the function that starts it (for tests and other processes),
 * and when the module is the script node was started with, serves it with the loaded
 * configuration until SIGTERM / SIGINT.
 */
export function serverEntry(
  moduleUrl: string,
  name: string,
  portOf: (config: Config) => number,
  createApp: (deps: AppDeps) => Koa,
): StartServer {
  const start: StartServer = (config, logger, onRefused) =>
    startHttpServer(name, config, portOf(config), createApp, logger, onRefused);
  if (isMainModule(moduleUrl)) {
    let config: Config;
    try {
      config = loadConfig();
    } catch (error) {
      // A configuration mistake is said in words (each variable and what it must be), never a stack.
      reportError(error);
      process.exit(1);
    }
    const logger = createLogger(name, config.log.level, undefined, config.log.format, config.log.bufferBytes);
    start(config, logger, (error) => process.exit(error.exitCode)).then(
      (running) => closeOnSignals(running, logger),
      (error: unknown) => {
        // A refusal (the index layout) says what to do in its message; anything else is a failure.
        const code = (error as NodeJS.ErrnoException | undefined)?.code;
        const where = `${config.api.host}:${portOf(config)}`;
        if (error instanceof CommandError)
          logger.fatal({ code: error.code }, `${name} refuses to start: ${error.message}`);
        // A port taken or not allowed is an operator's mistake: said in words, no stack.
        else if (code === 'EADDRINUSE')
          logger.fatal(
            { code },
            `${name} cannot listen on ${where}: another process holds that port. Stop it, or choose another port (API_PORT, SEARCH_PORT).`,
          );
        else if (code === 'EACCES' || code === 'EADDRNOTAVAIL')
          logger.fatal(
            { code },
            `${name} cannot listen on ${where}: ${code === 'EACCES' ? 'ports below 1024 need privileges' : 'this machine has no such address'}. Check API_HOST and API_PORT (or SEARCH_PORT).`,
          );
        else logger.error({ err: error }, `${name} could not start`);
        process.exit(error instanceof CommandError ? error.exitCode : 1);
      },
    );
  }
  return start;
}
