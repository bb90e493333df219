import { PassThrough } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import t from 'tap';
import { createLogger, createProgress, formatSeconds } from '../../src/index.js';

/** A clock the test moves. */
function clock(): { now: () => number; advance: (ms: number) => void } {
  let at = 1_000_000;
  return { now: () => at, advance: (ms) => (at += ms) };
}

t.test('not on a terminal: a JSON line per update with the rate and the time left', async (t) => {
  const logs = new PassThrough();
  let text = '';
  logs.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const time = clock();
  const progress = createProgress({
    logger: createLogger('ingester', 'info', logs, 'json'),
    label: 'backfill',
    total: 1000,
    unit: 'ledgers',
    stream: new PassThrough() as unknown as NodeJS.WriteStream,
    now: time.now,
  });
  time.advance(10_000);
  progress.update(250, { docs: 5000 });
  time.advance(10_000);
  progress.setTotal(1200);
  progress.update(600, { docs: 9000, rate: 450 });
  progress.stop();
  const lines = text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  t.match(lines, [
    // 250 ledgers in 10 s: 25/s, 750 left take 30 s more.
    {
      msg: 'progress',
      label: 'backfill',
      done: 250,
      of: 1000,
      unit: 'ledgers',
      docs: 5000,
      rate: 25,
      rate_unit: 'ledgers',
      elapsed_s: 10,
      eta_s: 30,
    },
    // A rate the caller gives (another unit) is kept; the time left follows the new total.
    { done: 600, of: 1200, rate: 450, elapsed_s: 20, eta_s: 20 },
  ]);
  t.equal(lines.length, 2, 'nothing written by stop');
});

t.test('on a terminal: a bar with the count, the fields, the rate and the time left', async (t) => {
  const time = clock();
  const terminal = Object.assign(new PassThrough(), { isTTY: true, columns: 160 });
  let drawn = '';
  terminal.on('data', (chunk: Buffer) => (drawn += chunk.toString('utf8')));
  const logs = new PassThrough();
  let logged = '';
  logs.on('data', (chunk: Buffer) => (logged += chunk.toString('utf8')));
  const progress = createProgress({
    logger: createLogger('ingester', 'info', logs, 'json'),
    label: 'ingest',
    total: 62,
    unit: 'files',
    format: '{ledgers} ledgers | {docs} docs',
    rateUnit: 'docs',
    stream: terminal as unknown as NodeJS.WriteStream,
    now: time.now,
  });
  time.advance(10_000);
  progress.update(31, { ledgers: 30, docs: 600, rate: 1200 });
  time.advance(10_000);
  progress.update(62, { ledgers: 61, docs: 1236, rate: 1300 });
  progress.stop();
  const screen = stripVTControlCharacters(drawn);
  t.match(screen, /ingest \|█{20}\| 62\/62 files \| 1300 docs\/s \| ETA 0s \| 61 ledgers \| 1236 docs/);
  // Half the files in 10 s: 10 s left, by the progress's own clock.
  t.match(screen, /ingest \|█{10}░{10}\| 31\/62 files \| 1200 docs\/s \| ETA 10s \| 30 ledgers \| 600 docs/);
  t.notMatch(screen, /\{\w+\}/, 'every field of the format filled');
  t.equal(logged, '', 'no log lines while a bar is drawn');
});

t.test('the time left as people read it', async (t) => {
  t.same([0, 42.4, 65, 3599, 3600, 7620, 86_399, 273_600].map(formatSeconds), [
    '0s',
    '42s',
    '1m05s',
    '59m59s',
    '1h00m',
    '2h07m',
    '23h59m',
    '3d04h',
  ]);
});
