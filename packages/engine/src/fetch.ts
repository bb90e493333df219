import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EngineError } from './errors.js';
import { ES_VERSION, engineSourceDir } from './instance.js';

const MARKER = '.fetched';
const NETTY_MODULE = 'modules/transport-netty4';

/** True when `home` already holds the server jars and the transport module. */
export function isFetched(home: string): boolean {
  return existsSync(join(home, MARKER));
}

export function requireTool(command: string, args: string[], hint: string): string {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.error !== undefined || result.status !== 0) {
    throw new EngineError('ENGINE_TOOL_MISSING', `${command} is required but was not found or failed to run. ${hint}`);
  }
  return `${result.stdout}${result.stderr}`;
}

/**
 * Fetches Elasticsearch's server jars and transport-netty4 from Maven Central through the small
 * Maven project in packages/engine/pom.xml, then lays them out as the node expects
 * (shared/ENGINE.md): server jars in lib/ (module path), transport-netty4 and its netty jars in
 * modules/transport-netty4/ with a plugin descriptor. Idempotent; the first run takes a minute.
 */
export function fetchEngine(home: string, log: (line: string) => void = () => {}): void {
  if (isFetched(home)) return;
  requireTool('mvn', ['-v'], 'Install Maven (apt-get install maven).');
  const staging = join(home, 'staging');
  rmSync(home, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  log(`fetching Elasticsearch ${ES_VERSION} jars from Maven Central into ${home}`);
  const mvn = spawnSync(
    'mvn',
    [
      '-q',
      '-B',
      '-f',
      join(engineSourceDir, 'pom.xml'),
      'dependency:copy-dependencies',
      `-DoutputDirectory=${staging}`,
    ],
    { encoding: 'utf8' },
  );
  if (mvn.status !== 0) {
    const output = `${mvn.stdout ?? ''}${mvn.stderr ?? ''}`.trim().split('\n').slice(-20).join('\n');
    throw new EngineError('ENGINE_FETCH_FAILED', `Maven could not fetch the engine jars:\n${output}`);
  }
  const lib = join(home, 'lib');
  const netty = join(home, NETTY_MODULE);
  mkdirSync(lib, { recursive: true });
  mkdirSync(netty, { recursive: true });
  for (const jar of readdirSync(staging)) {
    // Keep netty and transport-netty4 off the server's module path; never copy ssl-config twice (jar hell).
    const target = jar.startsWith('netty-') || jar.startsWith('transport-netty4-') ? netty : lib;
    renameSync(join(staging, jar), join(target, jar));
  }
  writeFileSync(
    join(netty, 'plugin-descriptor.properties'),
    [
      'name=transport-netty4',
      'description=Netty 4 based HTTP and transport layer',
      `version=${ES_VERSION}`,
      `elasticsearch.version=${ES_VERSION}`,
      'java.version=17',
      'classname=org.elasticsearch.transport.netty4.Netty4Plugin',
      'modulename=org.elasticsearch.transport.netty4',
      'extended.plugins=',
      'has.native.controller=false',
      '',
    ].join('\n'),
  );
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(join(home, 'plugins'), { recursive: true });
  writeFileSync(join(home, MARKER), `${ES_VERSION}\n`);
  log(`fetched ${readdirSync(lib).length} server jars and ${readdirSync(netty).length - 1} transport jars`);
}
