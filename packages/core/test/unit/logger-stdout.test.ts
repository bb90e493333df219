import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import t from 'tap';

/**
 * Lines written to stdout in batches still reach the reader while the process runs and has
 * nothing else to do: each batch is written by a timer armed by its first line, and the next
 * line after a written batch arms it again.
 */
const LOGGER = new URL('../../src/logger.js', import.meta.url).href;

t.test('a lone line, and one after the next pause, reach the reader while the process idles', async (t) => {
  const script = `
    import { createLogger } from ${JSON.stringify(LOGGER)};
    const log = createLogger('probe', 'info');
    log.info('first');
    setTimeout(() => log.info('second'), 1000);
    // Alive, idle, well after both lines: the lines must not wait for the exit.
    setTimeout(() => undefined, 20_000);
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  t.teardown(() => child.kill('SIGKILL'));
  const seen: string[] = [];
  for await (const line of createInterface({ input: child.stdout })) {
    const entry = JSON.parse(line) as { msg: string; name: string };
    t.equal(entry.name, 'probe');
    t.equal(child.exitCode, null, `"${entry.msg}" read while the process still runs`);
    seen.push(entry.msg);
    if (seen.length === 2) break;
  }
  t.same(seen, ['first', 'second']);
  child.kill('SIGTERM');
  await once(child, 'exit');
});
