import { resolve } from 'node:path';
import { repoRoot, type Config } from '@xle/core';

/** One local engine node: shared jars (`home`) plus its own data, logs, config and pid file. */
export interface EngineInstance {
  home: string;
  dataDir: string;
  port: number;
  transportPort: number;
  heap: string;
  startTimeoutMs: number;
  clusterName: string;
}

export const ES_VERSION = '8.19.5';
export const engineSourceDir = resolve(repoRoot, 'packages/engine');

export function instanceFromConfig(config: Config, cwd: string = repoRoot): EngineInstance {
  return {
    home: resolve(cwd, config.engine.home),
    dataDir: resolve(cwd, config.engine.dataDir),
    port: config.engine.port,
    transportPort: config.engine.transportPort,
    heap: config.engine.heap,
    startTimeoutMs: config.engine.startTimeoutMs,
    clusterName: 'xrpl-explorer-local',
  };
}

export const pidFile = (i: EngineInstance): string => resolve(i.dataDir, 'engine.pid');
export const logFile = (i: EngineInstance): string => resolve(i.dataDir, 'engine.log');
export const engineHttpUrl = (i: EngineInstance): string => `http://127.0.0.1:${i.port}`;
