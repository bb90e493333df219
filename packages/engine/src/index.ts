export { EngineError } from './errors.js';
export { fetchEngine, isFetched, requireTool } from './fetch.js';
export {
  CLUSTER_NAME,
  clusterFromConfig,
  type EngineCluster,
  engineHttpUrl,
  type EngineInstance,
  engineSourceDir,
  ES_VERSION,
  instanceFromConfig,
  logFile,
  pidFile,
  recordedCluster,
} from './instance.js';
export {
  type ClusterStatus,
  clusterHealth,
  clusterStatus,
  type EngineStatus,
  engineStatus,
  killNode,
  probeHealth,
  startCluster,
  startEngine,
  type StartOptions,
  stopCluster,
  stopEngine,
  tailLog,
} from './lifecycle.js';
