import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { repoRoot } from '@xle/core';

/**
 * Runs `pnpm ingest <args>` (the built CLI) with extra environment; with `killAtStep`, SIGKILLs
 * it a few random milliseconds after its n-th JSON progress line, so the kill lands inside the
 * work. Resolves with the exit code, or null when killed.
 */
export function runIngestCli(
  args: readonly string[],
  env: Record<string, string>,
  killAtStep?: number,
): Promise<number | null> {
  const cli = join(repoRoot, 'packages/ingester/dist/src/cli.js');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env: { ...process.env, LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let steps = 0;
    createInterface({ input: child.stderr }).on('line', (line) => {
      if (!line.includes('"msg":"progress"')) return;
      steps += 1;
      if (steps === killAtStep) setTimeout(() => child.kill('SIGKILL'), Math.floor(Math.random() * 30));
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code));
  });
}

/** Starts `pnpm ingest <args>` (the built CLI) in a process of its own, its logs silent; see exitOf. */
export function startIngestCli(args: readonly string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, [join(repoRoot, 'packages/ingester/dist/src/cli.js'), ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

/** How a child process ended: its exit code, or the signal that ended it. */
export function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null)
      resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

/** Polls until `check` holds; fails with what was awaited after `ms`. */
export async function waitUntil(
  what: string,
  check: () => boolean | Promise<boolean>,
  ms = 60_000,
  every = 100,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, every));
  }
}

/** What a command-line run printed and how it ended. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a built CLI of the repository (`packages/…/dist/src/….js`) with extra environment, to its end. */
export function runNodeCli(script: string, args: readonly string[], env: Record<string, string>): Promise<CliRun> {
  return runToEnd(process.execPath, [join(repoRoot, script), ...args], env, undefined);
}

/** Runs `pnpm -s <args>` from the repository, as the README's commands are run, to its end. */
export function runPnpm(args: readonly string[], env: Record<string, string>): Promise<CliRun> {
  return runToEnd('pnpm', ['-s', ...args], env, repoRoot);
}

function runToEnd(
  command: string,
  args: readonly string[],
  env: Record<string, string>,
  cwd: string | undefined,
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      ...(cwd === undefined ? {} : { cwd }),
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
