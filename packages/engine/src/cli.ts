#!/usr/bin/env node
import { engineUrl, exitWith, loadConfig, usesExternalEngine } from '@xle/core';
import { fetchEngine } from './fetch.js';
import { instanceFromConfig, logFile } from './instance.js';
import { engineStatus, startEngine, stopEngine, tailLog } from './lifecycle.js';

const USAGE = `usage: engine <fetch|start|stop|status|logs [N]>
  fetch    download the Elasticsearch jars from Maven Central (once)
  start    start the local node in the background and wait until it is ready
  stop     stop it cleanly (SIGTERM)
  status   is it running, and its cluster health
  logs     print the last N lines of its log (default 50)
Configured by ENGINE_PORT, ENGINE_HEAP, ENGINE_DATA_DIR, ... (see \`pnpm config\`).
When ES_URL is set, the local node is not used: start and stop do nothing.`;

async function main([command, arg]: string[]): Promise<number> {
  const config = loadConfig();
  const instance = instanceFromConfig(config);
  const log = (line: string): void => console.log(line);
  const external = usesExternalEngine(config);
  switch (command) {
    case 'fetch':
      fetchEngine(instance.home, log);
      log(`engine jars ready in ${instance.home}`);
      return 0;
    case 'start':
      if (external) {
        log(`ES_URL is set (${engineUrl(config)}): using that cluster, the local engine is not started.`);
        return 0;
      }
      await startEngine(instance, { log });
      return 0;
    case 'stop':
      if (external) {
        log('ES_URL is set: there is no local engine to stop.');
        return 0;
      }
      log((await stopEngine(instance)) ? 'engine stopped' : 'engine was not running');
      return 0;
    case 'status': {
      const status = await engineStatus(instance);
      const text = external
        ? `external cluster ${engineUrl(config)} (local engine not used)`
        : status.running
          ? `running, pid ${status.pid}, ${status.url}, health ${status.health ?? 'not answering'}`
          : `not running (${status.url})`;
      log(text);
      return status.running || external ? 0 : 3;
    }
    case 'logs':
      log(`== ${logFile(instance)}`);
      log(tailLog(instance, arg === undefined ? 50 : Number.parseInt(arg, 10) || 50));
      return 0;
    default:
      console.error(USAGE);
      return 64;
  }
}

exitWith(main(process.argv.slice(2)));
