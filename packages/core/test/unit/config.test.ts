import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import {
  ConfigError,
  configTableMarkdown,
  engineUrl,
  engineUrls,
  ENV_VARS,
  loadConfig,
  localClusterFile,
  readLocalCluster,
  redactConfig,
  repoRoot,
  usesExternalEngine,
} from '../../src/index.js';

// No config file, and a local engine folder of its own (no cluster file a developer's engine wrote).
const noFile = {
  env: { ENGINE_DATA_DIR: mkdtempSync(join(tmpdir(), 'xle-engine-')) },
  cwd: mkdtempSync(join(tmpdir(), 'xle-config-')),
};

t.test('defaults', async (t) => {
  const config = loadConfig(noFile);
  t.equal(config.network, 'mainnet');
  t.equal(config.es.indexPrefix, 'xrpl');
  t.equal(config.api.port, 3000);
  t.equal(config.engine.port, 9200);
  t.equal(engineUrl(config), 'http://127.0.0.1:9200');
  t.equal(usesExternalEngine(config), false);
});

t.test('environment wins over the file, which wins over defaults', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'xle-config-'));
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify({ network: 'testnet', api: { port: 4000 }, es: { indexPrefix: 'fromfile' } }));
  const config = loadConfig({ cwd: dir, file, env: { ...noFile.env, API_PORT: '4100', ENGINE_PORT: '9400' } });
  t.equal(config.network, 'testnet', 'file over default');
  t.equal(config.api.port, 4100, 'env over file, converted to a number');
  t.equal(config.es.indexPrefix, 'fromfile');
  t.equal(config.engine.port, 9400);
  t.equal(engineUrl(config), 'http://127.0.0.1:9400', 'local engine URL follows its port');
});

t.test('every node a client may use: ES_URL lists them, a local cluster records them', async (t) => {
  const listed = loadConfig({ ...noFile, env: { ES_URL: 'http://a:9200, http://b:9200,,http://c:9200' } });
  t.same(engineUrls(listed), ['http://a:9200', 'http://b:9200', 'http://c:9200']);
  t.equal(engineUrl(listed), 'http://a:9200,http://b:9200,http://c:9200');
  const dataDir = mkdtempSync(join(tmpdir(), 'xle-engine-'));
  const local = loadConfig({ ...noFile, env: { ENGINE_DATA_DIR: dataDir, ENGINE_NODES: '2' } });
  t.same(engineUrls(local), ['http://127.0.0.1:9200', 'http://127.0.0.1:9201'], 'ENGINE_NODES before any start');
  t.equal(readLocalCluster(local), undefined);
  const nodes = [0, 1, 2].map((i) => ({ name: `local-${9200 + i}`, port: 9200 + i, transportPort: 9300 + i, dataDir }));
  writeFileSync(join(dataDir, 'cluster.json'), JSON.stringify({ name: 'x', nodes }));
  t.equal(localClusterFile(local), join(dataDir, 'cluster.json'));
  t.same(engineUrls(local).length, 3, 'the cluster `engine start` recorded wins');
  writeFileSync(join(dataDir, 'cluster.json'), '{ not json');
  t.same(engineUrls(local).length, 2, 'an unreadable record is ignored');
});

t.test('config.local.json in the working directory is read when no file is named', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'xle-config-'));
  writeFileSync(join(dir, 'config.local.json'), JSON.stringify({ log: { level: 'debug' } }));
  t.equal(loadConfig({ cwd: dir, env: {} }).log.level, 'debug');
});

t.test('ES_URL selects an external cluster', async (t) => {
  const config = loadConfig({ ...noFile, env: { ES_URL: 'https://search.example:9243', ES_API_KEY: 'secret' } });
  t.same(engineUrls(config), ['https://search.example:9243']);
  t.equal(usesExternalEngine(config), true);
  t.equal(engineUrl(config), 'https://search.example:9243');
  t.equal(redactConfig(config).es.apiKey, '[redacted]', 'secrets are redacted for printing');
  t.equal(config.es.apiKey, 'secret', 'redaction does not touch the original');
});

t.test('every problem is reported with its variable and its file key', async (t) => {
  const error = t.throws(() =>
    loadConfig({ ...noFile, env: { API_PORT: 'eighty', XLE_NETWORK: 'devnet', ENGINE_HEAP: '1 GB' } }),
  ) as ConfigError;
  t.type(error, ConfigError);
  t.equal(error.code, 'CONFIG_INVALID');
  const problems = (error.details as { problems: { variable?: string; key: string; message: string }[] }).problems;
  t.match(problems, [
    { variable: 'API_PORT', key: 'api.port', message: /whole number.*“eighty”/ },
    { variable: 'XLE_NETWORK', key: 'network', message: 'must be one of mainnet, testnet' },
    { variable: 'ENGINE_HEAP', key: 'engine.heap', message: /expected form/ },
  ]);
  t.match(error.message, 'API_PORT (api.port): must be a whole number written in digits, not “eighty”');
});

t.test(
  'values mean what they say: no coercion, documented bounds, URLs with their schemes, folders that exist',
  async (t) => {
    const problem = (env: Record<string, string>): string => {
      try {
        loadConfig({ ...noFile, env });
      } catch (error) {
        return ((error as ConfigError).details as { problems: { message: string }[] }).problems[0]?.message ?? '';
      }
      return 'accepted';
    };
    for (const port of ['true', '0x10', '1e3', '3000.5', '80 80'])
      t.match(problem({ API_PORT: port }), `not “${port}”`, `API_PORT=${port} is refused, not coerced`);
    t.equal(loadConfig({ ...noFile, env: { API_PORT: '8080' } }).api.port, 8080);
    t.match(problem({ SITE_ENABLED: 'yes' }), 'must be true or false');
    t.match(problem({ ES_PING_TIMEOUT_MS: '5000' }), '<= 999', 'the ping must stay under a second');
    t.match(problem({ TOKEN_SCORE_WEIGHTS: 'volume=1' }), 'each metric one of amms, trustlines');
    t.match(problem({ ES_URL: 'garbage' }), 'is not the address of an Elasticsearch node');
    t.match(problem({ ES_URL: 'ftp://x:9200' }), 'http:// or https://');
    t.match(problem({ RIPPLED_URL: 'garbage' }), 'ws:// or wss://');
    t.match(problem({ RIPPLED_URL: 'https://s1.ripple.com' }), 'ws:// or wss://');
    t.match(problem({ TOML_DIR: '/no/such/folder' }), 'does not exist');
    t.match(
      problem({ NODES_ASN_FILE: '/no/such/ip2asn.tsv' }),
      'the file /no/such/ip2asn.tsv does not exist (an iptoasn.com table',
    );
    t.match(problem({ LOG_LEVEL: 'loud' }), 'must be one of fatal, error, warn, info, debug, trace, silent');
    const dir = mkdtempSync(join(tmpdir(), 'xle-config-'));
    const file = join(dir, 'c.json');
    writeFileSync(file, JSON.stringify({ access: { freePerDay: 2.7 } }));
    t.throws(
      () => loadConfig({ cwd: dir, file, env: {} }),
      { message: /ACCESS_FREE_PER_DAY \(access\.freePerDay\): must be a whole number/ },
      'a fraction in the file is refused, not truncated',
    );
  },
);

t.test('unknown keys in the file are rejected', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'xle-config-'));
  const file = join(dir, 'c.json');
  writeFileSync(file, JSON.stringify({ es: { indexPrefx: 'typo' } }));
  t.throws(() => loadConfig({ cwd: dir, file, env: {} }), { code: 'CONFIG_INVALID' });
});

t.test('a broken file is a clear error', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'xle-config-'));
  const file = join(dir, 'c.json');
  writeFileSync(file, '{ not json');
  t.throws(() => loadConfig({ cwd: dir, file, env: {} }), {
    code: 'CONFIG_INVALID',
    message: /Cannot read config file/,
  });
});

t.test('docs/configuration.md holds the generated table, row for row', async (t) => {
  const table = configTableMarkdown();
  for (const { env } of ENV_VARS) t.match(table, `\`${env}\``);
  // Cells compared without the padding the formatter adds.
  const rows = (text: string): string[] =>
    text
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) =>
        line
          .split('|')
          .map((cell) => cell.trim())
          .join('|'),
      );
  const page = readFileSync(join(repoRoot, 'docs/configuration.md'), 'utf8');
  t.same(rows(page), rows(table), 'regenerate with `pnpm run config --markdown`');
});
