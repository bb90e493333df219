import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import Type, { type Static, type TSchema } from 'typebox';
import Compile from 'typebox/compile';
import { ConfigError } from './errors.js';
import { DEFAULT_LOG_BUFFER_BYTES } from './logger.js';
import { repoRoot } from './paths.js';

/**
 * The one configuration object. Sources, lowest to highest precedence:
 * schema defaults < JSON config file (`XLE_CONFIG`, else `./config.local.json` when present) < environment.
 * Validated once at start-up and passed into factories; never imported as a global.
 */
/** The XRPL networks the product serves, each with its own indices. */
export const NETWORKS = ['mainnet', 'testnet'] as const;

const Network = Type.Union([Type.Literal(NETWORKS[0]), Type.Literal(NETWORKS[1])], {
  default: 'mainnet',
  description: 'Which XRPL network this process serves and ingests; each network has its own indices.',
});

/** The token score's metrics, as `TOKEN_SCORE_WEIGHTS` names them (the spec's "Token score"). */
export const SCORE_WEIGHT_METRICS = [
  'amms',
  'trustlines',
  'holdingWallets',
  'totalSupply',
  'price',
  'marketCap',
] as const;
const SCORE_WEIGHT = `(${SCORE_WEIGHT_METRICS.join('|')})=[0-9]+(\\.[0-9]+)?`;

export const ConfigSchema = Type.Object(
  {
    network: Network,
    es: Type.Object(
      {
        url: Type.Optional(
          Type.String({
            description:
              'URL of an Elasticsearch 8.x/9.x cluster, or several node URLs separated by commas. When set, the local engine is never started.',
          }),
        ),
        apiKey: Type.Optional(Type.String({ description: 'API key for the cluster (encoded form).' })),
        username: Type.Optional(Type.String({ description: 'Basic-auth user name.' })),
        password: Type.Optional(Type.String({ description: 'Basic-auth password.' })),
        caFile: Type.Optional(Type.String({ description: 'PEM file of the CA that signed the cluster certificate.' })),
        indexPrefix: Type.String({
          default: 'xrpl',
          pattern: '^[a-z0-9][a-z0-9_.-]*$',
          maxLength: 100,
          description: 'Prefix of every index and template name: `<prefix>-<network>-<kind>`.',
        }),
        requestTimeoutMs: Type.Integer({
          default: 10000,
          minimum: 100,
          description: 'Timeout of one request to the engine.',
        }),
        lookupTimeoutMs: Type.Integer({
          default: 2000,
          minimum: 50,
          description:
            "Timeout of one read by id (a document, a hash's locator): far shorter than a search's, so an engine that stops answering is known within it (two in a row open the breaker: 503 at once until it answers).",
        }),
        pingTimeoutMs: Type.Integer({
          default: 800,
          minimum: 50,
          maximum: 999,
          description: 'Timeout of the readiness probe behind /api/v1/ping (must stay under one second).',
        }),
        rangeLedgers: Type.Integer({
          default: 1_000_000,
          minimum: 1000,
          maximum: 100_000_000,
          description:
            'Ledgers per range index: transactions, ledgers, balance changes and validations are written to one index per range, read through one alias per kind. Recorded in the cluster by `pnpm templates apply` and never changed there: every process refuses to start when its value differs from the recorded one (`pnpm ingest ranges` shows it).',
        }),
        shards: Type.Integer({
          default: 1,
          minimum: 1,
          maximum: 64,
          description:
            'Primary shards of each range index (transactions, ledgers, balance changes, validations) created from now on. Recorded in the cluster by `pnpm templates apply` (a new layout generation when it changes); the ingester refuses to start when it differs from the recorded one, the API and search servers log a warning.',
        }),
        stateShards: Type.Integer({
          default: 1,
          minimum: 1,
          maximum: 64,
          description:
            'Primary shards of the ledger-state indices (objects, accounts, activations, deletions, NFTokens), which grow with the state, and of the locators (one small document per transaction and ledger hash). Recorded in the cluster like `ES_SHARDS`, and checked the same way.',
        }),
        replicas: Type.Optional(
          Type.Integer({
            minimum: 0,
            maximum: 8,
            description:
              'Replicas of every index; unset: 0 on one node, 1 when the cluster has two or more. Recorded in the cluster like `ES_SHARDS`, and checked the same way.',
          }),
        ),
        backfillRefresh: Type.String({
          default: '30s',
          pattern: '^(-1|[1-9][0-9]*(ms|s|m))$',
          description:
            'Refresh interval of the range indices a backfill writes, and of the state indices unless live is running, until it is done (then 1s).',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    engine: Type.Object(
      {
        home: Type.String({
          default: '.data/engine-home',
          description: 'Folder holding the local engine jars (filled by `pnpm engine fetch`).',
        }),
        dataDir: Type.String({
          default: '.data/engine',
          description: 'Data, logs and pid file of the local engine instance.',
        }),
        port: Type.Integer({
          default: 9200,
          minimum: 1,
          maximum: 65535,
          description: 'HTTP port of the local engine.',
        }),
        transportPort: Type.Integer({
          default: 9300,
          minimum: 1,
          maximum: 65535,
          description: 'Transport (node-to-node) port of the local engine.',
        }),
        heap: Type.String({
          default: '1g',
          pattern: '^[1-9][0-9]*[mg]$',
          description: 'JVM heap of the local engine (`-Xms`/`-Xmx`).',
        }),
        nodes: Type.Integer({
          default: 1,
          minimum: 1,
          maximum: 9,
          description:
            'Nodes of the local engine: one, or a real cluster of N nodes on consecutive HTTP and transport ports.',
        }),
        startTimeoutMs: Type.Integer({
          default: 120000,
          minimum: 1000,
          description: 'How long `engine start` waits for the cluster to turn yellow.',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    xrpl: Type.Object(
      {
        asnFile: Type.Optional(
          Type.String({
            description:
              "An IP-to-AS table (iptoasn.com's public-domain `ip2asn-combined.tsv`, `ip2asn-v4.tsv` or `ip2asn-v6.tsv`, gzipped or not) the node crawler reads to give each node its AS number and name; without it a node's `asn` stays absent.",
          }),
        ),
        url: Type.String({
          default: 'wss://xrplcluster.com',
          description: 'WebSocket URL of the rippled server the ingester reads (live and backfill).',
        }),
        networkId: Type.Integer({
          default: 0,
          minimum: 0,
          maximum: 65535,
          description: 'NetworkID used in ctids (XLS-37) when a transaction carries none; mainnet is 0.',
        }),
        historyStart: Type.Optional(
          Type.Integer({
            minimum: 1,
            description:
              "The network's first ledger (default on mainnet 32570, the oldest any server holds; unset elsewhere). Once the indexed history runs without a gap from it, `pnpm ingest jobs` prunes the deletion guards behind that point and writers skip ledger state there.",
          }),
        ),
        jobsIntervalS: Type.Integer({
          default: 300,
          minimum: 0,
          maximum: 86400,
          description:
            'How often `pnpm ingest live` checks whether the derived data sets are behind what is indexed (the ledgers it writes, and those a backfill writes beneath it) and, when they are, runs `pnpm ingest jobs` itself, each job reading only what changed; 0 leaves the jobs to the operator.',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    api: Type.Object(
      {
        host: Type.String({ default: '127.0.0.1', description: 'Address the REST API listens on.' }),
        port: Type.Integer({ default: 3000, minimum: 0, maximum: 65535, description: 'Port of the REST API.' }),
        validateResponses: Type.Boolean({
          default: false,
          description:
            "Check every JSON 200 answer against its route's published schema and answer 500 RESPONSE_CONTRACT_VIOLATION on a mismatch (the test suite runs with it on).",
        }),
        answerCacheMb: Type.Integer({
          default: 64,
          minimum: 0,
          maximum: 65536,
          description:
            'Megabytes of answers that never change (a transaction by hash or ctid, a ledger header) the API keeps in memory for 60 s, oldest dropped first; the same request within that time is answered without the engine (still counted by the access plans). 0 turns it off.',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    site: Type.Object(
      {
        enabled: Type.Boolean({
          default: true,
          description:
            'Serve the website (the explorer pages at `/`, `/account/…`, `/tx/…`, `/ledger/…`, `/token/…`, `/nft/…`, `/validator/…`, `/amendment/…`) beside the API on its port.',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    search: Type.Object(
      {
        mount: Type.Boolean({
          default: true,
          description: 'Serve /api/v1/search and /api/v1/sql beside the REST API on its port.',
        }),
        port: Type.Integer({
          default: 3001,
          minimum: 0,
          maximum: 65535,
          description: 'Port of the search API when it runs alone (`pnpm serve:search`).',
        }),
        timeoutMs: Type.Integer({
          default: 10000,
          minimum: 100,
          description: 'Server-side time limit of one search or one SQL page in the engine.',
        }),
        secret: Type.Optional(
          Type.String({
            minLength: 16,
            description:
              'Key that signs the point-in-time tokens of POST /search/pit. Random per process when unset; set the same value on every instance behind one address. (SQL cursors are kept in the engine and need no key.)',
          }),
        ),
      },
      { additionalProperties: false, default: {} },
    ),
    access: Type.Object(
      {
        mode: Type.Union([Type.Literal('open'), Type.Literal('plans'), Type.Literal('payg')], {
          default: 'plans',
          description:
            'How this address admits requests: `plans` (free per client address, or an API key of a subscription plan), `payg` (every request carries a Payment-Claim), `open` (no limits; development only).',
        }),
        freePerDay: Type.Integer({
          default: 10000,
          minimum: 1,
          description: 'Requests per UTC day of the free plan, per client address.',
        }),
        proPerDay: Type.Integer({
          default: 100000,
          minimum: 1,
          description: 'Requests per UTC day of the Pro plan, per API key.',
        }),
        enterprisePerDay: Type.Integer({
          default: 1000000,
          minimum: 1,
          description: 'Requests per UTC day of the Enterprise plan, per API key.',
        }),
        freePerSecond: Type.Integer({
          default: 10,
          minimum: 1,
          description: 'Burst limit of the free plan: requests per second per client address.',
        }),
        proPerSecond: Type.Integer({
          default: 50,
          minimum: 1,
          description: 'Burst limit of the Pro plan: requests per second per key.',
        }),
        enterprisePerSecond: Type.Integer({
          default: 200,
          minimum: 1,
          description: 'Burst limit of the Enterprise plan: requests per second per key.',
        }),
        quotaBlock: Type.Integer({
          default: 1000,
          minimum: 1,
          maximum: 100000,
          description:
            "The most places of a daily quota one API process reserves at a time, and never more than 1 % of the plan's daily limit (it counts them in memory and gives back the unused ones when it closes or the counter goes idle): an admitted request costs an engine write once per half block, never per request.",
        }),
        keyCacheSeconds: Type.Integer({
          default: 5,
          minimum: 0,
          maximum: 60,
          description:
            'How long an API key record is used as read before it is read again in the background: a revoked key stops within this time plus one engine read (0: read on every request).',
        }),
        proxyHops: Type.Integer({
          default: 0,
          minimum: 0,
          maximum: 10,
          description:
            'Reverse proxies in front of the API that append to X-Forwarded-For; the free plan counts the address that many hops from the right (0: the socket address, X-Forwarded-For ignored).',
        }),
        paygDestination: Type.Optional(
          Type.String({
            pattern: '^r[1-9A-HJ-NP-Za-km-z]{24,34}$',
            description: 'The service account pay-as-you-go channels must pay (required when a mode is payg).',
          }),
        ),
        paygDropsPerRequest: Type.Integer({
          default: 100,
          minimum: 1,
          description: 'Price of one pay-as-you-go request in drops (100 drops = 0.0001 XRP).',
        }),
        search: Type.Union(
          [Type.Literal('keys'), Type.Literal('payg'), Type.Literal('keys+payg'), Type.Literal('open')],
          {
            default: 'keys',
            description:
              'Who may use the search and SQL API: subscription keys, pay-as-you-go claims, either, or anyone (development only).',
          },
        ),
      },
      { additionalProperties: false, default: {} },
    ),
    tokens: Type.Object(
      {
        tomlDir: Type.Optional(
          Type.String({
            description:
              "Read issuers' xrp-ledger.toml files from this folder (`<domain>.toml`) instead of fetching them over HTTPS.",
          }),
        ),
        tomlUrlTemplate: Type.String({
          default: 'https://{domain}/.well-known/xrp-ledger.toml',
          pattern: '\\{domain\\}',
          description: "Where an issuer domain's XLS-26 file is fetched from; `{domain}` is replaced.",
        }),
        tomlTimeoutMs: Type.Integer({
          default: 5000,
          minimum: 100,
          description: 'Time limit of one xrp-ledger.toml fetch, whole body included.',
        }),
        tomlMaxBytes: Type.Integer({
          default: 262144,
          minimum: 1024,
          description: 'Largest xrp-ledger.toml accepted; a larger one is recorded as too_large.',
        }),
        tomlMaxAgeHours: Type.Number({
          default: 24,
          minimum: 0,
          description: "A domain's toml is fetched again when its last fetch is older than this (or on request).",
        }),
        scoreWeights: Type.String({
          default: 'amms=0.1,trustlines=0.15,holdingWallets=0.4,totalSupply=0.05,price=0.1,marketCap=0.2',
          pattern: `^${SCORE_WEIGHT}(,${SCORE_WEIGHT})*$`,
          description:
            'Token score weights, `metric=weight` pairs; metrics not named keep their default. The spec fixes holdingWallets at 0.4.',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    log: Type.Object(
      {
        level: Type.Union(
          [
            Type.Literal('fatal'),
            Type.Literal('error'),
            Type.Literal('warn'),
            Type.Literal('info'),
            Type.Literal('debug'),
            Type.Literal('trace'),
            Type.Literal('silent'),
          ],
          { default: 'info', description: 'Log level.' },
        ),
        format: Type.Union([Type.Literal('auto'), Type.Literal('json'), Type.Literal('pretty')], {
          default: 'auto',
          description:
            'Log lines as JSON (for log shippers) or pretty (readable); `auto`: pretty on a terminal, JSON otherwise.',
        }),
        bufferBytes: Type.Integer({
          default: DEFAULT_LOG_BUFFER_BYTES,
          minimum: 4096,
          description:
            'How many bytes of log lines a server holds while its standard output is not read (a stalled log shipper); later lines are dropped and counted, and requests never wait on the log.',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
  },
  { additionalProperties: false },
);

export type Config = Static<typeof ConfigSchema>;

/** Mainnet's first ledger: no server holds the ledgers before it. */
export const MAINNET_FIRST_LEDGER = 32570;

/** The network's first ledger (XRPL_HISTORY_START; on mainnet 32570 unless set), or undefined. */
export function historyStart(config: Config): number | undefined {
  return config.xrpl.historyStart ?? (config.network === 'mainnet' ? MAINNET_FIRST_LEDGER : undefined);
}

/** Environment variable → config key. The README's configuration table is printed from this. */
export const ENV_VARS: readonly { env: string; path: readonly [string, string?] }[] = [
  { env: 'XLE_NETWORK', path: ['network'] },
  { env: 'ES_URL', path: ['es', 'url'] },
  { env: 'ES_API_KEY', path: ['es', 'apiKey'] },
  { env: 'ES_USERNAME', path: ['es', 'username'] },
  { env: 'ES_PASSWORD', path: ['es', 'password'] },
  { env: 'ES_CA_FILE', path: ['es', 'caFile'] },
  { env: 'ES_INDEX_PREFIX', path: ['es', 'indexPrefix'] },
  { env: 'ES_REQUEST_TIMEOUT_MS', path: ['es', 'requestTimeoutMs'] },
  { env: 'ES_LOOKUP_TIMEOUT_MS', path: ['es', 'lookupTimeoutMs'] },
  { env: 'ES_PING_TIMEOUT_MS', path: ['es', 'pingTimeoutMs'] },
  { env: 'ES_RANGE_LEDGERS', path: ['es', 'rangeLedgers'] },
  { env: 'ES_SHARDS', path: ['es', 'shards'] },
  { env: 'ES_STATE_SHARDS', path: ['es', 'stateShards'] },
  { env: 'ES_REPLICAS', path: ['es', 'replicas'] },
  { env: 'ES_BACKFILL_REFRESH', path: ['es', 'backfillRefresh'] },
  { env: 'ENGINE_HOME', path: ['engine', 'home'] },
  { env: 'ENGINE_DATA_DIR', path: ['engine', 'dataDir'] },
  { env: 'ENGINE_PORT', path: ['engine', 'port'] },
  { env: 'ENGINE_TRANSPORT_PORT', path: ['engine', 'transportPort'] },
  { env: 'ENGINE_HEAP', path: ['engine', 'heap'] },
  { env: 'ENGINE_NODES', path: ['engine', 'nodes'] },
  { env: 'ENGINE_START_TIMEOUT_MS', path: ['engine', 'startTimeoutMs'] },
  { env: 'RIPPLED_URL', path: ['xrpl', 'url'] },
  { env: 'XRPL_NETWORK_ID', path: ['xrpl', 'networkId'] },
  { env: 'XRPL_HISTORY_START', path: ['xrpl', 'historyStart'] },
  { env: 'NODES_ASN_FILE', path: ['xrpl', 'asnFile'] },
  { env: 'XRPL_JOBS_INTERVAL_S', path: ['xrpl', 'jobsIntervalS'] },
  { env: 'API_HOST', path: ['api', 'host'] },
  { env: 'API_PORT', path: ['api', 'port'] },
  { env: 'API_VALIDATE_RESPONSES', path: ['api', 'validateResponses'] },
  { env: 'API_ANSWER_CACHE_MB', path: ['api', 'answerCacheMb'] },
  { env: 'SITE_ENABLED', path: ['site', 'enabled'] },
  { env: 'SEARCH_MOUNT', path: ['search', 'mount'] },
  { env: 'SEARCH_PORT', path: ['search', 'port'] },
  { env: 'SEARCH_TIMEOUT_MS', path: ['search', 'timeoutMs'] },
  { env: 'SEARCH_SECRET', path: ['search', 'secret'] },
  { env: 'ACCESS_MODE', path: ['access', 'mode'] },
  { env: 'ACCESS_FREE_PER_DAY', path: ['access', 'freePerDay'] },
  { env: 'ACCESS_PRO_PER_DAY', path: ['access', 'proPerDay'] },
  { env: 'ACCESS_ENTERPRISE_PER_DAY', path: ['access', 'enterprisePerDay'] },
  { env: 'ACCESS_FREE_PER_SECOND', path: ['access', 'freePerSecond'] },
  { env: 'ACCESS_PRO_PER_SECOND', path: ['access', 'proPerSecond'] },
  { env: 'ACCESS_ENTERPRISE_PER_SECOND', path: ['access', 'enterprisePerSecond'] },
  { env: 'ACCESS_PROXY_HOPS', path: ['access', 'proxyHops'] },
  { env: 'ACCESS_QUOTA_BLOCK', path: ['access', 'quotaBlock'] },
  { env: 'ACCESS_KEY_CACHE_SECONDS', path: ['access', 'keyCacheSeconds'] },
  { env: 'PAYG_DESTINATION', path: ['access', 'paygDestination'] },
  { env: 'PAYG_DROPS_PER_REQUEST', path: ['access', 'paygDropsPerRequest'] },
  { env: 'SEARCH_ACCESS', path: ['access', 'search'] },
  { env: 'TOML_DIR', path: ['tokens', 'tomlDir'] },
  { env: 'TOML_URL_TEMPLATE', path: ['tokens', 'tomlUrlTemplate'] },
  { env: 'TOML_TIMEOUT_MS', path: ['tokens', 'tomlTimeoutMs'] },
  { env: 'TOML_MAX_BYTES', path: ['tokens', 'tomlMaxBytes'] },
  { env: 'TOML_MAX_AGE_HOURS', path: ['tokens', 'tomlMaxAgeHours'] },
  { env: 'TOKEN_SCORE_WEIGHTS', path: ['tokens', 'scoreWeights'] },
  { env: 'LOG_LEVEL', path: ['log', 'level'] },
  { env: 'LOG_FORMAT', path: ['log', 'format'] },
  { env: 'LOG_BUFFER_BYTES', path: ['log', 'bufferBytes'] },
];

const SECRET_KEYS = new Set(['apiKey', 'password', 'secret']);
const validator = Compile(ConfigSchema);

export interface LoadConfigOptions {
  env?: NodeJS.ProcessEnv;
  /** Explicit config file; otherwise `XLE_CONFIG`, otherwise `./config.local.json` if it exists. */
  file?: string;
  /** Values applied last (tests use this to point at their own engine and prefix). */
  overrides?: DeepPartial<Config>;
  cwd?: string;
}

export type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mergeInto(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(source)) {
    if (value === undefined) continue;
    const existing = target[key];
    if (isPlainObject(value) && isPlainObject(existing)) mergeInto(existing, value);
    else target[key] = isPlainObject(value) ? structuredClone(value) : value;
  }
}

function readConfigFile(path: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError(`Cannot read config file ${path}: ${(error as Error).message}`);
  }
  if (!isPlainObject(parsed)) throw new ConfigError(`Config file ${path} must hold a JSON object.`);
  return parsed;
}

/** One thing wrong with the configuration: where it was set (variable or file key) and why. */
export interface ConfigProblem {
  /** The environment variable, when the value came from one or has one. */
  variable?: string;
  /** The config file's key (`api.port`). */
  key: string;
  message: string;
}

type Scalar = 'integer' | 'number' | 'boolean' | 'string';

/** What kind of value a key takes, and its allowed values when it is a choice. */
function describeSchema(schema: TSchema): { kind: Scalar; allowed?: string[] } {
  const s = schema as unknown as { type?: string; anyOf?: { const?: unknown }[]; const?: unknown };
  if (Array.isArray(s.anyOf) && s.anyOf.every((b) => typeof b.const === 'string'))
    return { kind: 'string', allowed: s.anyOf.map((b) => String(b.const)) };
  if (s.type === 'integer' || s.type === 'number' || s.type === 'boolean') return { kind: s.type };
  return { kind: 'string' };
}

const INTEGER_TEXT = /^[+-]?\d+$/;
const NUMBER_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/**
 * The environment's values as the config's types, strictly: a whole number is digits (no `true`,
 * `0x10`, `1e3` or `3000.5`), a number is a plain decimal, a flag is `true` or `false`. What does
 * not convert is a problem naming its variable.
 */
function environmentLayer(env: NodeJS.ProcessEnv, problems: ConfigProblem[]): Record<string, unknown> {
  const layer: Record<string, unknown> = {};
  for (const { env: name, path } of ENV_VARS) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    const key = path.filter(Boolean).join('.');
    const { kind } = describeSchema(schemaAt(path));
    let value: unknown = raw;
    if (kind === 'integer' || kind === 'number') {
      const text = raw.trim();
      if (!(kind === 'integer' ? INTEGER_TEXT : NUMBER_TEXT).test(text)) {
        problems.push({
          variable: name,
          key,
          message: `must be ${kind === 'integer' ? 'a whole number written in digits' : 'a decimal number'}, not “${raw}”`,
        });
        continue;
      }
      value = Number(text);
    } else if (kind === 'boolean') {
      if (raw !== 'true' && raw !== 'false') {
        problems.push({ variable: name, key, message: `must be true or false, not “${raw}”` });
        continue;
      }
      value = raw === 'true';
    }
    const [section, inner] = path;
    if (inner === undefined) layer[section] = value;
    else ((layer[section] ??= {}) as Record<string, unknown>)[inner] = value;
  }
  return layer;
}

/** The variable of a config key (`api.port` → `API_PORT`). */
function variableOf(key: string): string | undefined {
  return ENV_VARS.find((v) => v.path.filter(Boolean).join('.') === key)?.env;
}

/** Schema errors in words: one per key, a choice listing its allowed values. */
function schemaProblems(candidate: unknown): ConfigProblem[] {
  const byKey = new Map<string, ConfigProblem>();
  for (const error of validator.Errors(candidate)) {
    const parts = error.instancePath.split('/').filter(Boolean);
    const key = parts.join('.') || '(top level)';
    if (byKey.has(key)) continue;
    const variable = variableOf(key);
    let message = error.message;
    const [section, inner] = parts as [string, string | undefined];
    if (parts.length >= 1 && parts.length <= 2) {
      try {
        const { allowed } = describeSchema(schemaAt([section, inner]));
        if (allowed !== undefined) message = `must be one of ${allowed.join(', ')}`;
      } catch {
        // an unknown key: the validator's words say so
      }
    }
    // An unknown key is reported at the key itself ("schema is false"); its parent's
    // "additional properties" error says the same again.
    if (/additional properties/i.test(message)) continue;
    if (/schema is false/i.test(message)) message = 'is not a configuration key';
    if (/must be integer/i.test(message)) message = 'must be a whole number';
    if (/must match pattern/i.test(message)) {
      const description = (() => {
        try {
          return (schemaAt([section, inner]) as { description?: string }).description;
        } catch {
          return undefined;
        }
      })();
      message =
        key === 'tokens.scoreWeights'
          ? `must be metric=weight pairs separated by commas, each metric one of ${SCORE_WEIGHT_METRICS.join(', ')}`
          : `is not in the expected form${description === undefined ? '' : `: ${description}`}`;
    }
    byKey.set(key, { ...(variable === undefined ? {} : { variable }), key, message });
  }
  return [...byKey.values()];
}

/** URLs that must parse with one of the schemes their client speaks. */
function urlProblems(config: Config, cwd: string): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const check = (variable: string, key: string, text: string, schemes: readonly string[], what: string): void => {
    let scheme: string | undefined;
    try {
      scheme = new URL(text).protocol.replace(/:$/, '');
    } catch {
      scheme = undefined;
    }
    if (scheme === undefined || !schemes.includes(scheme))
      problems.push({
        variable,
        key,
        message: `“${text}” is not ${what} (a URL starting ${schemes.map((s) => `${s}://`).join(' or ')})`,
      });
  };
  if (config.es.url !== undefined)
    for (const node of config.es.url
      .split(',')
      .map((u) => u.trim())
      .filter((u) => u !== ''))
      check('ES_URL', 'es.url', node, ['http', 'https'], 'the address of an Elasticsearch node');
  check('RIPPLED_URL', 'xrpl.url', config.xrpl.url, ['ws', 'wss'], "a rippled server's WebSocket address");
  check(
    'TOML_URL_TEMPLATE',
    'tokens.tomlUrlTemplate',
    config.tokens.tomlUrlTemplate.replace('{domain}', 'example.com'),
    ['https', 'http'],
    'a web address',
  );
  if (config.tokens.tomlDir !== undefined) {
    const dir = resolve(cwd, config.tokens.tomlDir);
    if (!existsSync(dir) || !statSync(dir).isDirectory())
      problems.push({ variable: 'TOML_DIR', key: 'tokens.tomlDir', message: `the folder ${dir} does not exist` });
  }
  if (config.xrpl.asnFile !== undefined && !existsSync(resolve(cwd, config.xrpl.asnFile)))
    problems.push({
      variable: 'NODES_ASN_FILE',
      key: 'xrpl.asnFile',
      message: `the file ${config.xrpl.asnFile} does not exist (an iptoasn.com table, e.g. ip2asn-combined.tsv.gz)`,
    });
  if (config.es.caFile !== undefined && !existsSync(resolve(cwd, config.es.caFile)))
    problems.push({ variable: 'ES_CA_FILE', key: 'es.caFile', message: `the file ${config.es.caFile} does not exist` });
  return problems;
}

/** "ES_URL (es.url): …", one line per problem. */
export function configProblemLines(problems: readonly ConfigProblem[]): string[] {
  return problems.map((p) => `${p.variable === undefined ? p.key : `${p.variable} (${p.key})`}: ${p.message}`);
}

/**
 * Merges defaults, file, environment and overrides, then checks what the values mean: types
 * without coercion, documented bounds, choices, URLs with the schemes their clients speak, folders
 * that must exist. Throws `ConfigError` naming every problem by its variable and file key.
 */
export function loadConfig(options: LoadConfigOptions = {}): Config {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const merged: Record<string, unknown> = {};
  const file = options.file ?? env.XLE_CONFIG ?? defaultConfigFile(cwd);
  if (file !== undefined) mergeInto(merged, readConfigFile(resolve(cwd, file)));
  const problems: ConfigProblem[] = [];
  mergeInto(merged, environmentLayer(env, problems));
  if (options.overrides !== undefined) mergeInto(merged, options.overrides as Record<string, unknown>);

  const candidate = validator.Default(merged);
  if (problems.length === 0 && validator.Check(candidate)) problems.push(...urlProblems(candidate, cwd));
  else problems.push(...schemaProblems(candidate));
  if (problems.length > 0) {
    const lines = configProblemLines(problems);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`, { problems });
  }
  return candidate as Config;
}

function defaultConfigFile(cwd: string): string | undefined {
  const path = resolve(cwd, 'config.local.json');
  return existsSync(path) ? path : undefined;
}

/** The engine URL everything uses: `ES_URL` when set, otherwise the local engine's port. */
export function engineUrl(config: Config): string {
  return engineUrls(config).join(',');
}

/**
 * Every node address clients may use: the nodes listed in ES_URL (comma-separated), or the local
 * engine's nodes (as many as the running local cluster records in its cluster file, else
 * ENGINE_NODES) on consecutive ports. A client that knows several nodes moves on to another when
 * one is lost.
 */
export function engineUrls(config: Config): string[] {
  if (config.es.url !== undefined)
    return config.es.url
      .split(',')
      .map((url) => url.trim())
      .filter((url) => url !== '');
  const nodes = readLocalCluster(config)?.nodes.length ?? config.engine.nodes;
  return Array.from({ length: nodes }, (_, i) => `http://127.0.0.1:${config.engine.port + i}`);
}

/** What `engine start` records of the local cluster it started, in `<engine dataDir>/cluster.json`. */
export interface LocalClusterFile {
  name: string;
  nodes: { name: string; port: number; transportPort: number; dataDir: string }[];
}

export function localClusterFile(config: Pick<Config, 'engine'>, cwd = repoRoot): string {
  return resolve(cwd, config.engine.dataDir, 'cluster.json');
}

/** The local cluster `engine start` last recorded, or undefined when none was. */
export function readLocalCluster(config: Pick<Config, 'engine'>, cwd = repoRoot): LocalClusterFile | undefined {
  const path = localClusterFile(config, cwd);
  if (!existsSync(path)) return undefined;
  try {
    const recorded = JSON.parse(readFileSync(path, 'utf8')) as LocalClusterFile;
    return Array.isArray(recorded.nodes) && recorded.nodes.length > 0 ? recorded : undefined;
  } catch {
    return undefined;
  }
}

/** True when an external cluster is configured and the local engine must not be started. */
export function usesExternalEngine(config: Config): boolean {
  return config.es.url !== undefined;
}

/** A copy safe to print: secrets replaced. */
export function redactConfig(config: Config): Config {
  const copy = structuredClone(config) as unknown as Record<string, Record<string, unknown>>;
  for (const section of Object.values(copy)) {
    if (!isPlainObject(section)) continue;
    for (const key of Object.keys(section)) if (SECRET_KEYS.has(key)) section[key] = '[redacted]';
  }
  return copy as unknown as Config;
}

function schemaAt(path: readonly [string, string?]): TSchema {
  const [section, key] = path;
  const top = (ConfigSchema.properties as Record<string, TSchema>)[section];
  if (top === undefined) throw new Error(`unknown config section ${section}`);
  if (key === undefined) return top;
  const inner = (top as unknown as { properties: Record<string, TSchema> }).properties[key];
  if (inner === undefined) throw new Error(`unknown config key ${section}.${key}`);
  return inner;
}

/** The README's configuration table, generated from the schema so the two cannot drift. */
export function configTableMarkdown(): string {
  const rows = ENV_VARS.map(({ env, path }) => {
    const schema = schemaAt(path) as TSchema & { default?: unknown; description?: string };
    const fallback = path.join('.') === 'es.url' ? 'local engine' : schema.default;
    const def = fallback === undefined ? '' : `\`${String(fallback)}\``;
    return `| \`${env}\` | \`${path.filter(Boolean).join('.')}\` | ${def} | ${schema.description ?? ''} |`;
  });
  return ['| Environment | Config file key | Default | Meaning |', '|---|---|---|---|', ...rows].join('\n');
}
