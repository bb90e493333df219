import { resolve } from 'node:path';
import { createLogger, loadConfig, probeEngine, type Config, type Logger } from '@xle/core';
import { IngestEngine } from '../engine/ingest-engine.js';
import type { TokensJobOptions } from '../jobs/run.js';
import { scoreConfigOf } from '../jobs/tokens/build.js';
import { directoryTomlSource, httpTomlSource } from '../jobs/toml.js';

/** What an ingest command works with: the configuration, a logger on stderr, and the engine. */
export interface CommandContext {
  config: Config;
  logger: Logger;
  engine: IngestEngine;
}

/**
 * Runs a command's work with the configured engine, and closes the engine whatever happens. The
 * engine is probed first: one not there (or not Elasticsearch) is said within seconds with what
 * was tried and what to check. Templates are applied first, so a fresh cluster works, unless
 * `templates: false`: a read-only command never creates an index, and a command that must check
 * something before it creates any applies them itself.
 */
export async function withIngestEngine<T>(
  work: (ctx: CommandContext) => Promise<T>,
  options: { templates?: boolean } = {},
): Promise<T> {
  const config = loadConfig();
  await probeEngine(config);
  const logger = createLogger('ingester', config.log.level, process.stderr, config.log.format);
  const engine = IngestEngine.open(config, logger);
  try {
    if (options.templates !== false) await engine.applyTemplates();
    return await work({ config, logger, engine });
  } finally {
    await engine.close();
  }
}

/** The tokens job's settings from the configuration: where toml files come from, their age, the score. */
export function tokensJobOptions(config: Config, refresh: readonly string[] = []): TokensJobOptions {
  const wanted = refresh.map((d) => d.toLowerCase());
  return {
    toml:
      config.tokens.tomlDir === undefined
        ? httpTomlSource({
            urlTemplate: config.tokens.tomlUrlTemplate,
            timeoutMs: config.tokens.tomlTimeoutMs,
            maxBytes: config.tokens.tomlMaxBytes,
          })
        : directoryTomlSource(resolve(config.tokens.tomlDir), { maxBytes: config.tokens.tomlMaxBytes }),
    tomlMaxAgeMs: config.tokens.tomlMaxAgeHours * 3600_000,
    score: scoreConfigOf(config.tokens.scoreWeights),
    ...(wanted.length === 0 ? {} : { refresh: wanted.includes('all') ? 'all' : new Set(wanted) }),
  };
}
