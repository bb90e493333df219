import { engineUrl, loadConfig, usesExternalEngine } from '@xle/core';
import { instanceFromConfig, type EngineInstance } from '../instance.js';

/**
 * The local engine of the configuration, or undefined when ES_URL points at a cluster: then it
 * prints what is done instead (`instead`, after the cluster's address).
 */
export function localEngine(instead: string): EngineInstance | undefined {
  const config = loadConfig();
  if (!usesExternalEngine(config)) return instanceFromConfig(config);
  console.log(`ES_URL is set (${engineUrl(config)}): ${instead}`);
  return undefined;
}
