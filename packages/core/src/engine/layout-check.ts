import type { Config } from '../config.js';
import type { EngineBreaker } from './breaker.js';
import { createEngineClient } from './client.js';
import { checkLayout, configuredLayout, layoutReadOutcome, type LayoutError } from './layout.js';
import { namingOf } from '../index-names.js';
import type { Logger } from '../logger.js';
import type { CloseHooks } from '../http/close-hooks.js';

/** How often a server that could not check the layout at start asks again. */
const RETRY_MS = 1000;

export interface LayoutCheckOptions {
  config: Config;
  logger: Logger;
  /** The server's breaker: held (every engine call 503) while the layout is not checked yet. */
  breaker: EngineBreaker;
  /** Where the background check registers its stop. */
  closing: CloseHooks;
  /** A check made after the start refused the layout: the server must stop. */
  onRefused: (error: LayoutError) => void;
  retryMs?: number;
}

/**
 * Checks the index layout recorded in the cluster against the server's configuration before it
 * listens (see engine/layout.ts): a range size that differs, or no layout at all, throws a
 * LayoutError and the server does not start. An engine that cannot be reached keeps the start as
 * it was before the check existed (the server listens and answers 503 ENGINE_UNAVAILABLE): the
 * breaker holds every engine call, the check is asked again every second in the background, and
 * the first answer either releases the calls or refuses (`onRefused`), so no request is ever
 * answered from indices laid out otherwise. Its own client has short timeouts and no retries.
 */
export async function checkLayoutAtStart(options: LayoutCheckOptions): Promise<void> {
  const { config, logger, breaker, closing } = options;
  const client = createEngineClient(config, {
    requestTimeout: Math.min(config.es.requestTimeoutMs, 5000),
    maxRetries: 0,
  });
  let closed = false;
  const closeClient = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await client.close();
  };
  const naming = namingOf(config);
  const attempt = async (): Promise<'done' | 'retry'> => {
    try {
      const { layout, warnings } = await checkLayout(client, naming, configuredLayout(config), 'serve');
      for (const warning of warnings) logger.warn({ layout }, warning);
      logger.info({ layout }, 'index layout checked');
      return 'done';
    } catch (error) {
      const outcome = layoutReadOutcome(error);
      if (outcome === 'refuse') throw error;
      if (outcome === 'retry') return 'retry';
      logger.warn({ err: error }, 'the index layout could not be read (no right to read index templates): not checked');
      return 'done';
    }
  };
  let first: 'done' | 'retry';
  try {
    first = await attempt();
  } catch (error) {
    await closeClient();
    throw error;
  }
  if (first === 'done') {
    await closeClient();
    return;
  }
  logger.warn(
    'the engine does not answer: the index layout is checked once it does; every engine call answers 503 until then',
  );
  breaker.hold('index layout not checked yet');
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const again = (): void => {
    timer = setTimeout(() => {
      void attempt().then(
        async (outcome) => {
          if (stopped) return;
          if (outcome === 'retry') return again();
          breaker.release();
          await closeClient();
        },
        async (error: unknown) => {
          if (stopped) return;
          await closeClient();
          options.onRefused(error as LayoutError);
        },
      );
    }, options.retryMs ?? RETRY_MS);
    timer.unref();
  };
  again();
  closing.add(async () => {
    stopped = true;
    clearTimeout(timer);
    await closeClient();
  });
}
