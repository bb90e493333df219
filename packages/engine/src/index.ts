export { EngineError } from './errors.js';
export { fetchEngine, isFetched, requireTool } from './fetch.js';
export {
  engineHttpUrl,
  type EngineInstance,
  engineSourceDir,
  ES_VERSION,
  instanceFromConfig,
  logFile,
  pidFile,
} from './instance.js';
export {
  type EngineStatus,
  engineStatus,
  probeHealth,
  startEngine,
  type StartOptions,
  stopEngine,
  tailLog,
} from './lifecycle.js';
