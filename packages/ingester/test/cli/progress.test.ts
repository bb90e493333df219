import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import t, { type Test } from 'tap';
import { fixturesDir, indexName, repoRoot } from '@xle/core';
import { normalizeLedger, type Json, type LedgerInput } from '@xle/documents';
import {
  createTestIndices,
  exitOf,
  listFixtureLedgers,
  readFixture,
  ReplayRippled,
  runPnpm,
  syntheticLedgers,
  waitUntil,
  type TestIndices,
} from '@xle/test-helpers';

/**
 * Long work shows its progress through the README's own commands: on a terminal (a pseudo-terminal
 * made by util-linux `script`) a bar with the count, the rate and the time left; otherwise JSON
 * `progress` lines whose count rises to the total, each with its rate and time left.
 */
const START = 62_000_000;
const templates = listFixtureLedgers().map((file) => normalizeLedger(readFixture(file)));
const ledgers: LedgerInput[] = [
  ...syntheticLedgers(templates, {
    transactions: 240,
    perLedger: 6,
    startLedger: START,
    accounts: 30,
    seed: 'progress',
  }),
];
const LAST = START + ledgers.length - 1;
const server = new ReplayRippled();
for (const ledger of ledgers) server.addLedger(structuredClone(ledger) as unknown as Json);
server.validated = LAST;
await server.start();
t.teardown(() => server.stop());

interface Run {
  code: number | null;
  /** What the process wrote to its terminal or its standard output, escape sequences removed. */
  out: string;
}

function environment(target: TestIndices, level: string): Record<string, string> {
  return {
    ES_INDEX_PREFIX: target.naming.prefix,
    XLE_NETWORK: target.config.network,
    RIPPLED_URL: server.url,
    LOG_LEVEL: level,
  };
}

/** `pnpm -s …` with its output on a pipe and its log lines at info: the JSON progress lines. */
async function piped(target: TestIndices, args: readonly string[]): Promise<Run> {
  const { code, stdout, stderr } = await runPnpm(args, environment(target, 'info'));
  return { code, out: `${stdout}\n${stderr}` };
}

/** `pnpm -s …` on a 200-column pseudo-terminal; `until` ends a command that does not end by itself. */
async function onTerminal(
  target: TestIndices,
  args: readonly string[],
  until?: (pid: number) => Promise<void>,
): Promise<Run> {
  const command = ['pnpm', '-s', ...args].map((word) => `'${word}'`).join(' ');
  const child = spawn('script', ['-qec', `stty cols 200; ${command}`, '/dev/null'], {
    cwd: repoRoot,
    env: { ...process.env, ...environment(target, 'warn') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  if (until !== undefined) await until(child.pid!);
  const { code } = await exitOf(child);
  return { code, out: stripVTControlCharacters(out) };
}

interface ProgressLine {
  label: string;
  done: number;
  of: number;
  unit: string;
  rate: number;
  elapsed_s: number;
  eta_s: number | null;
  [field: string]: unknown;
}

/** The JSON progress lines of one label, in order. */
function progressLines(run: Run, label: string): ProgressLine[] {
  return run.out
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as ProgressLine & { msg?: string })
    .filter((line) => line.msg === 'progress' && line.label === label);
}

/** Progress lines that rise to their total, each with a rate and a time left, the last with none left. */
function risesToTotal(t: Test, lines: readonly ProgressLine[], unit: string, total: number, least = 2): void {
  t.ok(lines.length >= least, `${lines.length} progress lines`);
  t.ok(
    lines.every((line, i) => i === 0 || line.done >= lines[i - 1]!.done),
    'the count never goes back',
  );
  t.ok(
    lines.every((l) => l.unit === unit && typeof l.rate === 'number' && l.rate >= 0 && typeof l.elapsed_s === 'number'),
    `each counts ${unit} and has a rate and the time spent`,
  );
  t.ok(
    lines.every((l) => l.done === 0 || (typeof l.eta_s === 'number' && l.eta_s >= 0)),
    'each line with work done says the time left',
  );
  const last = lines[lines.length - 1]!;
  t.match(last, { done: total, of: total, eta_s: 0 }, `the last line: ${total} of ${total} ${unit}, none left`);
}

/** The bar as last drawn: the label, a full bar, the count, the rate, the time left. */
function barEnds(t: Test, run: Run, label: string, count: string, rateUnit: string): void {
  t.equal(run.code, 0, `exit 0 ${run.out.slice(-300)}`);
  // The bar's state as last drawn (each redraw writes the whole line again).
  const last = run.out.slice(run.out.lastIndexOf(`${label} |`));
  const bar = new RegExp(`^${label} \\|█{20}\\| ${count} \\| [\\d.]+ ${rateUnit}/s \\| ETA \\d+s`);
  t.match(last, bar, `the bar ends full: ${label} ${count}, rate in ${rateUnit}/s, ETA`);
  t.notMatch(run.out, /\{\w+\}/, 'every field filled');
  t.notMatch(run.out, /"msg":"progress"/, 'no JSON progress lines on a terminal');
}

const ledgerFolder = join(fixturesDir, 'ledgers');
/** As the quick start ingests them: two recorded ledgers whose hashes do not match are taken anyway. */
const fileArgs = ['ingest', 'file', ledgerFolder, '--accept-refused', '87704323'];
const files = listFixtureLedgers().length;

t.test('ingest file, ranges rebuild and jobs', async (t) => {
  const target = await createTestIndices(t);
  const file = await piped(target, fileArgs);
  t.equal(file.code, 0, 'ingest file ends');
  risesToTotal(t, progressLines(file, 'ingest'), 'files', files);
  t.ok(
    progressLines(file, 'ingest').every((l) => typeof l.ledgers === 'number' && typeof l.docs === 'number'),
    'with the ledgers and documents written so far',
  );
  barEnds(t, await onTerminal(target, fileArgs), 'ingest', `${files}/${files} files`, 'docs');

  const listed = await runPnpm(['ingest', 'ranges', '--kind', 'transactions', '--json'], environment(target, 'silent'));
  const ranges = JSON.parse(listed.stdout) as { ranges: { alias: string; documents: number }[] };
  // A ledger each of the two largest ranges holds: the one after the first of its alias's name.
  const [first, second] = [...ranges.ranges]
    .sort((a, b) => b.documents - a.documents)
    .map((r) => ({ documents: r.documents, ledger: Number(r.alias.split('-').pop()) + 1 }));
  t.ok(first !== undefined && second !== undefined, 'two transaction ranges to rebuild');
  const rebuildArgs = (ledger: number): string[] => [
    ...['ingest', 'ranges', 'rebuild'],
    ...['--kind', 'transactions', '--ledger', String(ledger)],
  ];
  const rebuild = await piped(target, rebuildArgs(first!.ledger));
  t.equal(rebuild.code, 0, 'rebuild ends');
  // The copy, then the catch-up's second scan of the old index: each reaches the range's documents
  // (in pages of 2,000, so one line each for a small range).
  risesToTotal(t, progressLines(rebuild, 'rebuild transactions'), 'documents', first!.documents, 1);
  risesToTotal(t, progressLines(rebuild, 'rebuild transactions catch-up'), 'documents', first!.documents, 1);
  barEnds(
    t,
    await onTerminal(target, rebuildArgs(second!.ledger)),
    'rebuild transactions',
    `${second!.documents}/${second!.documents} documents`,
    'documents',
  );

  const jobs = await piped(target, ['ingest', 'jobs']);
  t.equal(jobs.code, 0, 'jobs end');
  risesToTotal(t, progressLines(jobs, 'tokens'), 'steps', 4);
  t.ok(
    progressLines(jobs, 'tokens').every((l) => typeof l.step === 'string'),
    'each step named',
  );
  const drawn = await onTerminal(target, ['ingest', 'jobs']);
  barEnds(t, drawn, 'tokens', '4/4 steps', 'steps');
  barEnds(t, drawn, 'metrics', '4/4 steps', 'steps');
});

t.test('backfill: the ledgers this process wrote of the range', async (t) => {
  // Batches of 10 ledgers: a line per batch, several of them for this short range.
  const args = [
    'ingest',
    'backfill',
    '--from',
    String(START),
    '--to',
    String(LAST),
    '--workers',
    '2',
    '--batch-ledgers',
    '10',
  ];
  const run = await piped(await createTestIndices(t), args);
  t.equal(run.code, 0, `backfill ends ${run.out.slice(-300)}`);
  const lines = progressLines(run, 'backfill');
  risesToTotal(t, lines, 'ledgers', ledgers.length);
  t.ok(
    lines.every((l) => typeof l.docs === 'number'),
    'with the documents written',
  );
  t.ok(
    lines.every((l, i) => i === 0 || (l.docs as number) >= (lines[i - 1]!.docs as number)),
    'documents never go back',
  );
  barEnds(
    t,
    await onTerminal(await createTestIndices(t), args),
    'backfill',
    `${ledgers.length}/${ledgers.length} ledgers`,
    'docs',
  );
});

t.test('live: a bar while it catches up with the network, full at the tip', async (t) => {
  const args = ['ingest', 'live', '--from', String(START)];
  /**
   * Ends a live ingester once it has recorded the tip: SIGTERM to the node process below the one
   * this test started (never another run's).
   */
  const stopAtTip =
    (target: TestIndices) =>
    async (root: number): Promise<void> => {
      await waitUntil('live to reach the tip', async () => {
        const found = await target.client.get<Json>(
          { index: indexName(target.naming, 'ingest-state'), id: 'rippled' },
          { ignore: [404] },
        );
        return found.found && Number(found._source?.last_ledger) === LAST;
      });
      const table = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
        .split('\n')
        .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3]! }));
      const below = new Set([root]);
      for (let grew = true; grew;) {
        grew = false;
        for (const p of table)
          if (below.has(p.ppid) && !below.has(p.pid)) {
            below.add(p.pid);
            grew = true;
          }
      }
      const ingester = table.find((p) => below.has(p.pid) && p.args.includes('packages/ingester/dist/src/cli.js'));
      t.ok(ingester !== undefined, 'the ingester runs below the started process');
      if (ingester !== undefined) process.kill(ingester.pid, 'SIGTERM');
    };
  const piping = await createTestIndices(t);
  const child = spawn('pnpm', ['-s', ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...environment(piping, 'info') },
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await stopAtTip(piping)(child.pid!);
  await exitOf(child);
  risesToTotal(t, progressLines({ code: 0, out }, 'live catch-up'), 'ledgers', ledgers.length);

  const drawing = await createTestIndices(t);
  const drawn = await onTerminal(drawing, args, stopAtTip(drawing));
  const full = `${ledgers.length}/${ledgers.length} ledgers`;
  const last = drawn.out.slice(drawn.out.lastIndexOf('live catch-up |'));
  t.match(last, new RegExp(`^live catch-up \\|█{20}\\| ${full} \\| [\\d.]+ ledgers/s \\| ETA \\d+s \\| \\d+ docs`));
});
