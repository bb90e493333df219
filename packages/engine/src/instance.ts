import { resolve } from 'node:path';
import { readLocalCluster, repoRoot, type Config } from '@xle/core';

/** One local engine node: shared jars (`home`) plus its own data, logs, config and pid file. */
export interface EngineInstance {
  home: string;
  dataDir: string;
  port: number;
  transportPort: number;
  heap: string;
  startTimeoutMs: number;
  clusterName: string;
  nodeName: string;
  /**
   * Absent: a single-node cluster (`discovery.type: single-node`). Present: this node is one
   * member of a cluster that discovers its peers at `seedHosts` (transport addresses) and elects
   * its first master among `initialMasters` (node names).
   */
  members?: { seedHosts: string[]; initialMasters: string[] };
}

/** The nodes of one local cluster, and the folder that records them (`cluster.json`). */
export interface EngineCluster {
  dataDir: string;
  nodes: EngineInstance[];
}

export const ES_VERSION = '8.19.5';
export const engineSourceDir = resolve(repoRoot, 'packages/engine');
export const CLUSTER_NAME = 'xrpl-explorer-local';

/**
 * The local cluster of a configuration: `nodes` nodes (default ENGINE_NODES) on consecutive HTTP
 * and transport ports from ENGINE_PORT and ENGINE_TRANSPORT_PORT. One node keeps its data in
 * ENGINE_DATA_DIR itself; the nodes of a larger cluster in `node-1`, `node-2`, ... under it, so
 * the two layouts never share a data folder (a node's data belongs to the cluster that made it).
 */
export function clusterFromConfig(
  config: Config,
  { cwd = repoRoot, nodes = config.engine.nodes }: { cwd?: string; nodes?: number } = {},
): EngineCluster {
  const dataDir = resolve(cwd, config.engine.dataDir);
  const names = Array.from({ length: nodes }, (_, i) => `local-${config.engine.port + i}`);
  const members =
    nodes === 1
      ? undefined
      : {
          seedHosts: names.map((_, i) => `127.0.0.1:${config.engine.transportPort + i}`),
          initialMasters: names,
        };
  return {
    dataDir,
    nodes: names.map((nodeName, i) => ({
      home: resolve(cwd, config.engine.home),
      dataDir: nodes === 1 ? dataDir : resolve(dataDir, `node-${i + 1}`),
      port: config.engine.port + i,
      transportPort: config.engine.transportPort + i,
      heap: config.engine.heap,
      startTimeoutMs: config.engine.startTimeoutMs,
      clusterName: CLUSTER_NAME,
      nodeName,
      ...(members === undefined ? {} : { members }),
    })),
  };
}

/**
 * The local cluster as `engine start` last recorded it (so that `status`, `stop` and `logs` find
 * every node it started, whatever ENGINE_NODES says now), else as the configuration describes it.
 */
export function recordedCluster(config: Config, cwd: string = repoRoot): EngineCluster {
  const recorded = readLocalCluster(config, cwd);
  return clusterFromConfig(config, { cwd, ...(recorded === undefined ? {} : { nodes: recorded.nodes.length }) });
}

/** The single node of a one-node configuration (the test runner's and the demo's engine). */
export function instanceFromConfig(config: Config, cwd: string = repoRoot): EngineInstance {
  return clusterFromConfig(config, { cwd, nodes: 1 }).nodes[0] as EngineInstance;
}

export const pidFile = (i: EngineInstance): string => resolve(i.dataDir, 'engine.pid');
export const logFile = (i: EngineInstance): string => resolve(i.dataDir, 'engine.log');
export const engineHttpUrl = (i: EngineInstance): string => `http://127.0.0.1:${i.port}`;
