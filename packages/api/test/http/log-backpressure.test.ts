import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { createTestIndices, listeningUrl, spawnApi } from '@xle/test-helpers';

/**
 * A reader that stops reading the API's standard output (a stalled log shipper, a full pipe) must
 * not stop the API: requests are answered while the pipe stays full, the lines beyond
 * LOG_BUFFER_BYTES are dropped and counted, the count is logged once the reader reads again (with
 * the next line), and a SIGTERM still ends the process while nobody reads.
 */
const target = await createTestIndices(t);
const BUFFER_BYTES = 16 * 1024;
const REQUESTS = 1500;

t.test('a stdout nobody reads neither blocks requests nor the shutdown', async (t) => {
  const child = spawnApi(t, target, { LOG_BUFFER_BYTES: String(BUFFER_BYTES), ACCESS_MODE: 'open' });
  const stdout = child.stdout;
  const url = await listeningUrl(stdout, 'the API');
  // From here nothing is read (the stream stays paused): the pipe and the stream's own buffer
  // fill, then the API's buffer.

  let slowest = 0;
  for (let i = 0; i < REQUESTS; i++) {
    const started = performance.now();
    const answer = await fetch(`${url}/api/v1/ping`, { signal: AbortSignal.timeout(5000) });
    await answer.arrayBuffer();
    if (answer.status !== 200) t.fail(`request ${i} answered ${answer.status}`);
    slowest = Math.max(slowest, performance.now() - started);
  }
  t.pass(`${REQUESTS} requests answered while stdout was not read`);
  // Blocked, they would wait until the reader reads (the synchronous log made them time out).
  t.ok(slowest < 3000, `no request waited on the log (slowest ${slowest.toFixed(1)} ms)`);

  // The reader reads again: with the next line, the waiting lines come out, then how many were dropped.
  let after = '';
  stdout.on('data', (chunk: Buffer) => {
    after += chunk.toString('utf8');
  });
  stdout.resume();
  await sleep(100);
  await (await fetch(`${url}/api/v1/ping`)).arrayBuffer();
  const deadline = Date.now() + 5000;
  while (!after.includes('log lines dropped') && Date.now() < deadline) await sleep(50);
  const notice = after
    .split('\n')
    .filter((line) => line.includes('log lines dropped'))
    .map((line) => JSON.parse(line) as { level: string; dropped: number })[0];
  t.ok(notice !== undefined, 'the lines dropped are counted in the log');
  t.equal(notice?.level, 'warn');
  t.ok((notice?.dropped ?? 0) > 0 && (notice?.dropped ?? 0) < REQUESTS, `${notice?.dropped} lines dropped`);
  const kept = after.split('\n').filter((line) => line.includes('"msg":"request"')).length;
  t.ok(kept > 0, `${kept} request lines written once read again`);
  // The first line may be the end of one the first reader had begun; every other is whole.
  const whole = after.split('\n').slice(1, -1);
  const broken = whole.filter((line) => {
    try {
      JSON.parse(line);
      return false;
    } catch {
      return true;
    }
  });
  t.same(broken, [], 'no line cut');
  const ids = whole
    .filter((line) => !broken.includes(line) && line.includes('"msg":"request"'))
    .map((line) => (JSON.parse(line) as { requestId: string }).requestId);
  t.equal(new Set(ids).size, ids.length, `no request line repeated (${ids.length} request ids, each once)`);

  // Full again, then a SIGTERM: the process ends within the exit's flush time.
  stdout.removeAllListeners('data');
  stdout.pause();
  for (let i = 0; i < REQUESTS; i++) await (await fetch(`${url}/api/v1/ping`)).arrayBuffer();
  const exited = once(child, 'exit');
  const stopping = performance.now();
  child.kill('SIGTERM');
  const [code] = (await Promise.race([exited, sleep(10_000).then(() => ['still running'])])) as [unknown];
  t.equal(code, 0, 'SIGTERM ends the process with 0 while nobody reads its stdout');
  t.ok(performance.now() - stopping < 8000, `it ended in ${(performance.now() - stopping).toFixed(0)} ms`);
});
