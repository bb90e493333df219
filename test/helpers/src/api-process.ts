import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { engineUrl, repoRoot } from '@xle/core';
import type { TestIndices } from './engine.js';
import type { Teardown } from './listen.js';

export type ApiChild = ChildProcessByStdio<null, Readable, null>;

/**
 * The API as users run it (`node packages/site/dist/src/server.js`, `pnpm serve`) in a process of its own, on a
 * free port over a test's indices, with JSON info logs on a stdout pipe the caller reads (see
 * listeningUrl) and `env` on top; killed if still running when
 * the test ends.
 */
export function spawnApi(t: Teardown, target: TestIndices, env: Record<string, string>): ApiChild {
  const child = spawn(process.execPath, [`${repoRoot}packages/site/dist/src/server.js`], {
    env: {
      ...process.env,
      ES_URL: engineUrl(target.config),
      ES_INDEX_PREFIX: target.naming.prefix,
      XLE_NETWORK: target.naming.network,
      API_PORT: '0',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return child;
}

/**
 * Where a server process listens: the `url` of the first JSON line of its stdout that has one.
 * The stream is left paused after that line; the caller resumes it to drain the log, or leaves it
 * unread.
 */
export async function listeningUrl(stdout: Readable, what = 'the server'): Promise<string> {
  for await (const line of createInterface({ input: stdout })) {
    const url = (JSON.parse(line) as { url?: string }).url;
    if (url !== undefined) {
      // Closing the line reader would leave the stream flowing into no listener.
      stdout.pause();
      return url;
    }
  }
  throw new Error(`${what} stopped before it listened`);
}
