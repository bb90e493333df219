#!/usr/bin/env node
/**
 * The project's one test command (`pnpm test`, after `tsc -b` has typechecked everything):
 * lint and format gates, then the test tiers through tap against a real Elasticsearch node that
 * this runner starts on its own port with a throw-away data folder (or the cluster in ES_URL),
 * and stops at the end. Ends with one line `N passed, N failed` taken from the real results.
 *
 *   node scripts/dist/src/test.js [--tier unit|http|contract|browser|integration|cli]... [--no-gates] [--nodes N]
 *
 * `--nodes 3` (or TEST_ENGINE_NODES=3) runs every test against a real three-node cluster.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { loadConfig, repoRoot } from '@xle/core';
import { clusterFromConfig, engineHttpUrl, startCluster, stopCluster, type EngineCluster } from '@xle/engine';

/**
 * In the order they run. `browser` drives Debian's Chromium (/usr/bin/chromium, or CHROMIUM_PATH)
 * with playwright-core over the website; scripts/test.sh installs it when it is missing.
 */
const TIERS = ['unit', 'http', 'contract', 'browser', 'integration', 'cli'] as const;
type Tier = (typeof TIERS)[number];

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

interface RunOptions {
  tiers: Tier[];
  gates: boolean;
  /** Nodes of the test engine: 1, or a real local cluster. */
  nodes: number;
}

function runOptions(argv: string[]): RunOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      tier: { type: 'string', multiple: true },
      'no-gates': { type: 'boolean' },
      nodes: { type: 'string' },
    },
    strict: true,
  });
  const tiers = values.tier ?? [];
  for (const tier of tiers)
    if (!(TIERS as readonly string[]).includes(tier)) throw new Error(`--tier takes one of ${TIERS.join(', ')}`);
  const nodes = Number(values.nodes ?? process.env.TEST_ENGINE_NODES ?? 1);
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > 9) throw new Error('--nodes takes an integer from 1 to 9');
  return {
    tiers: tiers.length === 0 ? [...TIERS] : (tiers as Tier[]),
    gates: values['no-gates'] !== true && tiers.length === 0,
    nodes,
  };
}

/** Compiled test files of a tier: `<project>/dist/test/<tier>/**\/*.test.js` in every project. */
function testFiles(tier: Tier): string[] {
  const projects = [
    ...readdirSync(join(repoRoot, 'packages')).map((p) => join(repoRoot, 'packages', p)),
    join(repoRoot, 'scripts'),
  ];
  const roots = projects.map((p) => join(p, 'dist/test', tier));
  if (tier === 'integration') roots.push(join(repoRoot, 'test/integration/dist/test'));
  const found: string[] = [];
  const walk = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry.endsWith('.test.js')) found.push(relative(repoRoot, path));
    }
  };
  roots.forEach(walk);
  return found.sort();
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: repoRoot, env, stdio: 'inherit' });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/**
 * Runs tap with the TAP reporter into .tap/report.tap, echoing file-level results and every
 * failure with its diagnostics, and reads the totals from tap's closing summary line.
 */
function runTap(files: string[], env: NodeJS.ProcessEnv): Promise<Counts & { exitCode: number }> {
  mkdirSync(join(repoRoot, '.tap'), { recursive: true });
  const report = createWriteStream(join(repoRoot, '.tap/report.tap'));
  return new Promise((resolve) => {
    const child = spawn('pnpm', ['exec', 'tap', '--reporter=tap', ...files], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let summary: Counts | undefined;
    let inFailure = false;
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      report.write(`${line}\n`);
      const trimmed = line.trimStart();
      if (/^not ok \d+/.test(trimmed)) inFailure = true;
      if (inFailure || /^(not )?ok \d+ - /.test(line) || line.startsWith('# {')) console.log(line);
      if (inFailure && trimmed === '...') inFailure = false;
      const totals = /^# \{ (.*) \}$/.exec(line)?.[1];
      if (totals !== undefined) {
        const get = (key: string): number => Number(new RegExp(`${key}: (\\d+)`).exec(totals)?.[1] ?? 0);
        summary = { passed: get('pass'), failed: get('fail'), skipped: get('skip') + get('todo') };
      }
    });
    child.on('exit', (code) => {
      report.end();
      const counts = summary ?? { passed: 0, failed: 1, skipped: 0 };
      resolve({ ...counts, exitCode: code ?? 1 });
    });
  });
}

async function main(): Promise<number> {
  const { tiers, gates, nodes } = runOptions(process.argv.slice(2));
  const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  const gate = async (name: string, command: string, args: string[]): Promise<void> => {
    console.log(`\n== ${name}`);
    const ok = (await run(command, args)) === 0;
    if (ok) counts.passed += 1;
    else counts.failed += 1;
    console.log(`${ok ? 'ok' : 'not ok'} - ${name}`);
  };
  if (gates) {
    await gate('lint (eslint, zero warnings)', 'pnpm', ['exec', 'eslint', '.', '--max-warnings', '0']);
    await gate('format (prettier --check)', 'pnpm', ['exec', 'prettier', '--check', '--log-level', 'warn', '.']);
  }

  const files = tiers.flatMap(testFiles);
  const needsEngine = tiers.some((t) => t !== 'unit');
  // API processes a test starts check every answer against its published schema too.
  const env: NodeJS.ProcessEnv = { API_VALIDATE_RESPONSES: 'true', ...process.env };
  let engine: EngineCluster | undefined;
  let dataDir: string | undefined;
  const cleanup = async (): Promise<void> => {
    if (engine !== undefined) await stopCluster(engine);
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => void cleanup().then(() => process.exit(130)));
  try {
    if (needsEngine && env.ES_URL === undefined) {
      // The test engine: its own ports and a throw-away data folder, never the demo's.
      dataDir = mkdtempSync(join(tmpdir(), 'xle-test-engine-'));
      const port = Number(env.TEST_ENGINE_PORT ?? 9250);
      const config = loadConfig({
        overrides: { engine: { port, transportPort: port + 100, dataDir, heap: env.TEST_ENGINE_HEAP ?? '768m' } },
      });
      engine = clusterFromConfig(config, { nodes });
      const what = nodes === 1 ? `port ${port}` : `${nodes} nodes, ports ${port}-${port + nodes - 1}`;
      console.log(`\n== test engine on ${what} (data in ${dataDir})`);
      await startCluster(engine, { log: (line) => console.log(line) });
      env.ES_URL = engine.nodes.map(engineHttpUrl).join(',');
    }
    console.log(`\n== tests: ${tiers.join(', ')} (${files.length} files)`);
    const result = await runTap(files, env);
    counts.passed += result.passed;
    counts.failed += result.failed + (result.exitCode !== 0 && result.failed === 0 ? 1 : 0);
    counts.skipped += result.skipped;
  } catch (error) {
    console.error(`test run failed: ${(error as Error).message}`);
    counts.failed += 1;
  } finally {
    await cleanup();
  }
  const skipped = counts.skipped > 0 ? `, ${counts.skipped} skipped` : '';
  console.log(`\n${counts.passed} passed, ${counts.failed} failed${skipped}`);
  return counts.failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error((error as Error).message);
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
