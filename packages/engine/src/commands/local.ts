import { engineUrl, loadConfig, usesExternalEngine } from '@xle/core';
import { clusterFromConfig, recordedCluster, type EngineCluster } from '../instance.js';

/**
 * The local cluster of the configuration (`nodes` nodes when given, else as `engine start` last
 * recorded it), or undefined when ES_URL points at a cluster: then it prints what is done instead
 * (`instead`, after the cluster's address).
 */
export function localCluster(instead: string, nodes?: number): EngineCluster | undefined {
  const config = loadConfig();
  if (!usesExternalEngine(config))
    return nodes === undefined ? recordedCluster(config) : clusterFromConfig(config, { nodes });
  console.log(`ES_URL is set (${engineUrl(config)}): ${instead}`);
  return undefined;
}
