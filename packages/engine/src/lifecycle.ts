import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { EngineError } from './errors.js';
import { fetchEngine, isFetched, requireTool } from './fetch.js';
import { engineHttpUrl, engineSourceDir, logFile, pidFile, type EngineInstance } from './instance.js';

export interface EngineStatus {
  running: boolean;
  pid?: number;
  url: string;
  health?: string;
}

function readPid(instance: EngineInstance): number | undefined {
  const path = pidFile(instance);
  if (!existsSync(path)) return undefined;
  const pid = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The last lines of the instance's log, for error messages and `engine logs`. */
export function tailLog(instance: EngineInstance, lines = 30): string {
  const path = logFile(instance);
  if (!existsSync(path)) return '(no log yet)';
  return readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

function assertPortFree(port: number, what: string): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        new EngineError(
          'ENGINE_PORT_TAKEN',
          error.code === 'EADDRINUSE'
            ? `Port ${port} (${what}) is already taken by another process. Stop it, or choose another port (ENGINE_PORT / ENGINE_TRANSPORT_PORT).`
            : `Cannot bind port ${port} (${what}): ${error.message}`,
        ),
      );
    });
    server.listen(port, '127.0.0.1', () => server.close(() => resolvePromise()));
  });
}

/** Cluster health status, or undefined when the node does not answer. */
export async function probeHealth(instance: EngineInstance, timeoutMs = 1000): Promise<string | undefined> {
  try {
    const response = await fetch(`${engineHttpUrl(instance)}/_cluster/health`, {
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) return undefined;
    return ((await response.json()) as { status?: string }).status;
  } catch {
    return undefined;
  }
}

export async function engineStatus(instance: EngineInstance): Promise<EngineStatus> {
  const pid = readPid(instance);
  const url = engineHttpUrl(instance);
  if (pid === undefined || !isAlive(pid)) return { running: false, url };
  const health = await probeHealth(instance);
  return health === undefined ? { running: true, pid, url } : { running: true, pid, url, health };
}

function javaArgs(instance: EngineInstance): string[] {
  const settings: Record<string, string> = {
    'path.home': instance.home,
    'path.data': join(instance.dataDir, 'data'),
    'path.logs': join(instance.dataDir, 'logs'),
    'cluster.name': instance.clusterName,
    'node.name': `local-${instance.port}`,
    'discovery.type': 'single-node',
    // No security module exists on this node: it must only ever listen on loopback.
    'network.host': '127.0.0.1',
    'http.host': '127.0.0.1',
    'http.port': String(instance.port),
    'transport.port': String(instance.transportPort),
    // A laptop disk above the watermarks would otherwise turn every index read-only.
    'cluster.routing.allocation.disk.threshold_enabled': 'false',
  };
  return [
    `-Xms${instance.heap}`,
    `-Xmx${instance.heap}`,
    '-XX:+UseG1GC',
    '-Dfile.encoding=UTF-8',
    `-Djava.io.tmpdir=${join(instance.dataDir, 'tmp')}`,
    `-Dlauncher.config=${join(instance.dataDir, 'config')}`,
    '--module-path',
    join(instance.home, 'lib'),
    '--add-modules',
    'ALL-MODULE-PATH',
    resolve(engineSourceDir, 'java/Launcher.java'),
    ...Object.entries(settings).map(([k, v]) => `-E${k}=${v}`),
  ];
}

export interface StartOptions {
  /** Fetch the jars first when they are missing (default true). */
  fetch?: boolean;
  log?: (line: string) => void;
}

/**
 * Starts the node in the background (pid file, log file under dataDir) and waits until the
 * cluster is yellow. Already running: returns its status. Fails with the last lines of the log
 * when Java is missing, a port is taken, the node exits, or it is not ready in time.
 */
export async function startEngine(instance: EngineInstance, options: StartOptions = {}): Promise<EngineStatus> {
  const log = options.log ?? (() => {});
  const current = await engineStatus(instance);
  if (current.running && current.health !== undefined) return current;
  if (current.running) {
    throw new EngineError(
      'ENGINE_UNHEALTHY',
      `Engine process ${current.pid} is running but ${current.url} does not answer; run \`engine stop\` first.`,
    );
  }

  const javaVersion = requireTool(
    'java',
    ['-version'],
    'Install Java 17 or newer (apt-get install openjdk-17-jre-headless).',
  );
  const major = Number.parseInt(/version "(\d+)/.exec(javaVersion)?.[1] ?? '0', 10);
  if (major < 17)
    throw new EngineError('ENGINE_TOOL_MISSING', `Java 17 or newer is required, found: ${javaVersion.split('\n')[0]}`);
  if (!isFetched(instance.home)) {
    if (options.fetch === false)
      throw new EngineError('ENGINE_NOT_FETCHED', `No engine jars in ${instance.home}; run \`engine fetch\`.`);
    fetchEngine(instance.home, log);
  }
  await assertPortFree(instance.port, 'HTTP');
  await assertPortFree(instance.transportPort, 'transport');

  for (const sub of ['data', 'logs', 'config', 'tmp']) mkdirSync(join(instance.dataDir, sub), { recursive: true });
  writeFileSync(logFile(instance), '');
  const out = openSync(logFile(instance), 'a');
  const child = spawn('java', javaArgs(instance), { detached: true, stdio: ['ignore', out, out] });
  closeSync(out);
  if (child.pid === undefined) throw new EngineError('ENGINE_START_FAILED', 'Could not spawn java.');
  writeFileSync(pidFile(instance), `${child.pid}\n`);
  let exited: number | null | undefined;
  child.once('exit', (code) => {
    exited = code;
  });
  child.unref();
  log(`engine starting (pid ${child.pid}, port ${instance.port}, heap ${instance.heap})`);

  const deadline = Date.now() + instance.startTimeoutMs;
  while (Date.now() < deadline) {
    if (exited !== undefined) {
      rmSync(pidFile(instance), { force: true });
      throw new EngineError(
        'ENGINE_START_FAILED',
        `The engine exited during start-up (code ${exited}). Last lines of ${logFile(instance)}:\n${tailLog(instance)}`,
      );
    }
    const health = await probeHealth(instance);
    if (health === 'yellow' || health === 'green') {
      log(`engine ready at ${engineHttpUrl(instance)} (${health})`);
      return { running: true, pid: child.pid, url: engineHttpUrl(instance), health };
    }
    await sleep(250);
  }
  await stopEngine(instance);
  throw new EngineError(
    'ENGINE_START_TIMEOUT',
    `The engine was not ready within ${instance.startTimeoutMs} ms. Last lines of ${logFile(instance)}:\n${tailLog(instance)}`,
  );
}

/** SIGTERM (the node closes cleanly and flushes), then SIGKILL after the grace period. */
export async function stopEngine(instance: EngineInstance, graceMs = 30000): Promise<boolean> {
  const pid = readPid(instance);
  if (pid === undefined || !isAlive(pid)) {
    rmSync(pidFile(instance), { force: true });
    return false;
  }
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(100);
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  while (isAlive(pid)) await sleep(50);
  rmSync(pidFile(instance), { force: true });
  return true;
}
