import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { EngineError } from './errors.js';
import { fetchEngine, isFetched, requireTool } from './fetch.js';
import {
  engineHttpUrl,
  engineSourceDir,
  logFile,
  pidFile,
  type EngineCluster,
  type EngineInstance,
} from './instance.js';

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
  const discovery: Record<string, string> =
    instance.members === undefined
      ? { 'discovery.type': 'single-node' }
      : {
          'discovery.seed_hosts': instance.members.seedHosts.join(','),
          'cluster.initial_master_nodes': instance.members.initialMasters.join(','),
        };
  const settings: Record<string, string> = {
    'path.home': instance.home,
    'path.data': join(instance.dataDir, 'data'),
    'path.logs': join(instance.dataDir, 'logs'),
    'cluster.name': instance.clusterName,
    'node.name': instance.nodeName,
    ...discovery,
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

/** Java 17 or newer on the PATH, and the jars in `home` (fetched unless told not to). */
function checkTools(home: string, options: StartOptions): void {
  const javaVersion = requireTool(
    'java',
    ['-version'],
    'Install Java 17 or newer (apt-get install openjdk-17-jre-headless).',
  );
  const major = Number.parseInt(/version "(\d+)/.exec(javaVersion)?.[1] ?? '0', 10);
  if (major < 17)
    throw new EngineError('ENGINE_TOOL_MISSING', `Java 17 or newer is required, found: ${javaVersion.split('\n')[0]}`);
  if (!isFetched(home)) {
    if (options.fetch === false)
      throw new EngineError('ENGINE_NOT_FETCHED', `No engine jars in ${home}; run \`engine fetch\`.`);
    fetchEngine(home, options.log ?? (() => {}));
  }
}

/** A node's process, just spawned: its pid, and its exit code once it has exited. */
interface LaunchedNode {
  instance: EngineInstance;
  pid: number;
  exited: () => number | null | undefined;
}

/** Spawns one node in the background (pid file, log file under its dataDir), after checking its ports. */
async function launchNode(instance: EngineInstance): Promise<LaunchedNode> {
  await assertPortFree(instance.port, 'HTTP');
  await assertPortFree(instance.transportPort, 'transport');
  for (const sub of ['data', 'logs', 'config', 'tmp']) mkdirSync(join(instance.dataDir, sub), { recursive: true });
  writeFileSync(logFile(instance), '');
  const out = openSync(logFile(instance), 'a');
  const child = spawn('java', javaArgs(instance), { detached: true, stdio: ['ignore', out, out] });
  closeSync(out);
  if (child.pid === undefined) throw new EngineError('ENGINE_START_FAILED', 'Could not spawn java.');
  writeFileSync(pidFile(instance), `${child.pid}\n`);
  let code: number | null | undefined;
  child.once('exit', (exitCode) => {
    code = exitCode;
  });
  child.unref();
  return { instance, pid: child.pid, exited: () => code };
}

/** The local cluster's health as one of its nodes sees it, or undefined when none answers. */
export async function clusterHealth(
  cluster: EngineCluster,
  timeoutMs = 1000,
): Promise<{ status: string; nodes: number } | undefined> {
  for (const node of cluster.nodes) {
    try {
      const response = await fetch(`${engineHttpUrl(node)}/_cluster/health`, {
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) continue;
      const health = (await response.json()) as { status?: string; number_of_nodes?: number };
      if (health.status !== undefined) return { status: health.status, nodes: health.number_of_nodes ?? 0 };
    } catch {
      // That node is down or not ready: ask the next.
    }
  }
  return undefined;
}

export interface ClusterStatus {
  running: boolean;
  health?: string;
  /** Nodes in the cluster, as its health reports them. */
  joined?: number;
  nodes: EngineStatus[];
}

export async function clusterStatus(cluster: EngineCluster): Promise<ClusterStatus> {
  const nodes = await Promise.all(cluster.nodes.map((node) => engineStatus(node)));
  const health = await clusterHealth(cluster);
  return {
    running: nodes.some((node) => node.running),
    ...(health === undefined ? {} : { health: health.status, joined: health.nodes }),
    nodes,
  };
}

/**
 * Starts every node of the cluster that is not running (all of them on a first start; one that
 * was lost, on a restart) and waits until the cluster is yellow or green with every node joined.
 * Records the cluster in `<dataDir>/cluster.json`, so that clients and `engine status`/`stop` find
 * all its nodes. Fails with the last lines of a node's log when Java is missing, a port is taken,
 * a node exits, or the cluster is not ready in time.
 */
export async function startCluster(cluster: EngineCluster, options: StartOptions = {}): Promise<ClusterStatus> {
  const log = options.log ?? (() => {});
  const current = await clusterStatus(cluster);
  const down = cluster.nodes.filter((_, i) => current.nodes[i]?.running !== true);
  if (down.length === 0) {
    if (current.health !== undefined) return current;
    throw new EngineError(
      'ENGINE_UNHEALTHY',
      `Engine process ${current.nodes[0]?.pid} is running but ${current.nodes[0]?.url} does not answer; run \`engine stop\` first.`,
    );
  }
  const first = cluster.nodes[0] as EngineInstance;
  checkTools(first.home, options);
  for (const node of down) {
    await assertPortFree(node.port, 'HTTP');
    await assertPortFree(node.transportPort, 'transport');
  }
  mkdirSync(cluster.dataDir, { recursive: true });
  writeFileSync(
    join(cluster.dataDir, 'cluster.json'),
    `${JSON.stringify(
      {
        name: first.clusterName,
        nodes: cluster.nodes.map((n) => ({
          name: n.nodeName,
          port: n.port,
          transportPort: n.transportPort,
          dataDir: n.dataDir,
        })),
      },
      null,
      2,
    )}\n`,
  );
  const launched: LaunchedNode[] = [];
  for (const node of down) {
    const started = await launchNode(node);
    launched.push(started);
    log(`engine node ${node.nodeName} starting (pid ${started.pid}, port ${node.port}, heap ${node.heap})`);
  }

  const deadline = Date.now() + first.startTimeoutMs;
  while (Date.now() < deadline) {
    const failed = launched.find((node) => node.exited() !== undefined);
    if (failed !== undefined) {
      rmSync(pidFile(failed.instance), { force: true });
      await Promise.all(launched.map((node) => stopEngine(node.instance)));
      throw new EngineError(
        'ENGINE_START_FAILED',
        `The engine exited during start-up (code ${failed.exited()}). Last lines of ${logFile(failed.instance)}:\n${tailLog(failed.instance)}`,
      );
    }
    const health = await clusterHealth(cluster);
    if (health !== undefined && health.status !== 'red' && health.nodes >= cluster.nodes.length) {
      const urls = cluster.nodes.map(engineHttpUrl).join(', ');
      log(`engine ready at ${urls} (${health.status}, ${health.nodes} node${health.nodes === 1 ? '' : 's'})`);
      return clusterStatus(cluster);
    }
    await sleep(250);
  }
  await Promise.all(launched.map((node) => stopEngine(node.instance)));
  throw new EngineError(
    'ENGINE_START_TIMEOUT',
    `The engine was not ready within ${first.startTimeoutMs} ms. Last lines of ${logFile(first)}:\n${tailLog(first)}`,
  );
}

/** Stops every node of the cluster at once; true when any was running. */
export async function stopCluster(cluster: EngineCluster, graceMs = 30000): Promise<boolean> {
  const stopped = await Promise.all(cluster.nodes.map((node) => stopEngine(node, graceMs)));
  return stopped.some(Boolean);
}

/**
 * Starts one node as a single-node cluster and waits until it is ready. Already running: returns
 * its status.
 */
export async function startEngine(instance: EngineInstance, options: StartOptions = {}): Promise<EngineStatus> {
  await startCluster({ dataDir: instance.dataDir, nodes: [instance] }, options);
  return engineStatus(instance);
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

/**
 * Kills a node at once, as a crash or a lost machine would (SIGKILL: no flush, no goodbye to the
 * cluster). The tests use it to show that losing a node is a normal event.
 */
export async function killNode(instance: EngineInstance): Promise<void> {
  const pid = readPid(instance);
  if (pid === undefined || !isAlive(pid)) return;
  process.kill(pid, 'SIGKILL');
  while (isAlive(pid)) await sleep(50);
  rmSync(pidFile(instance), { force: true });
}
