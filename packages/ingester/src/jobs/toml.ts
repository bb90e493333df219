import { lookup as dnsLookup } from 'node:dns';
import { readFile, stat } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { join } from 'node:path';
import { parse, TomlError } from 'smol-toml';
import type { Logger } from '@xle/core';
import { currencyHex, isRecord, type Json } from '@xle/documents';

/**
 * XLS-26 `xrp-ledger.toml` files of token issuers' domains
 * (https://github.com/XRPLF/XRPL-Standards/tree/master/XLS-0026-iou-token-metadata): fetched over
 * HTTPS with a timeout and a size cap, or read from a directory (tests, air-gapped deployments).
 * Every outcome is recorded; none throws, so one bad domain never stops the tokens job.
 */
export type TomlOutcome =
  | 'ok'
  | 'invalid_domain'
  | 'forbidden_address'
  | 'not_found'
  | 'http_error'
  | 'too_large'
  | 'timeout'
  | 'invalid'
  | 'unreachable';

export interface TomlResult {
  domain: string;
  outcome: TomlOutcome;
  /** Why it is not `ok`, in words. */
  reason?: string;
  /**
   * The parsed file (TOML dates as ISO strings): this fetch's when `ok`, else the last good one
   * (an issuer's server down for a day does not erase what its file said).
   */
  data?: Json;
  fetched_at: string;
  /** Where it was read from: the URL, or the file of a toml directory. */
  source?: string;
  /** When `data` was fetched (the last `ok` fetch). */
  data_fetched_at?: string;
}

export interface TomlSource {
  /** Where the file of a domain is read from, for logs and errors. */
  describe(domain: string): string;
  fetch(domain: string): Promise<TomlResult>;
}

export const TOML_MAX_BYTES = 256 * 1024;
export const TOML_TIMEOUT_MS = 5_000;
export const TOML_URL_TEMPLATE = 'https://{domain}/.well-known/xrp-ledger.toml';

/**
 * A public DNS name: labels of letters, digits and hyphens, at least one dot, a letter in the
 * last label. IP literals, `localhost` and single-label names are refused, so ledger data (the
 * Domain field is whatever an account set) cannot point the fetcher at internal addresses.
 */
const HOSTNAME = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/** The domain an account's Domain field names (lower case), or a reason it is not one. */
export function normalizeDomain(raw: string): { domain: string } | { reason: string } {
  let text = raw.trim().toLowerCase();
  text = text.replace(/^https?:\/\//, '').replace(/\/.*$/, '');
  if (text.endsWith('.')) text = text.slice(0, -1);
  if (text === '' || !HOSTNAME.test(text))
    return { reason: `not a public domain name: ${JSON.stringify(raw).slice(0, 80)}` };
  if (/\.(?:local|localhost|internal|lan|home|arpa)$/.test(text))
    return { reason: `not a public domain name: ${text}` };
  return { domain: text };
}

/** TOML text → JSON-safe object; TOML dates become ISO strings. */
export function parseTomlText(text: string): { data: Json } | { reason: string } {
  try {
    const parsed = toJson(parse(text.replace(/^\uFEFF/, ''), { integersAsBigInt: 'asNeeded' })) as Json;
    if (depthOf(parsed) > TOML_MAX_DEPTH)
      return { reason: `malformed TOML: nested deeper than ${TOML_MAX_DEPTH} levels` };
    return { data: parsed };
  } catch (error) {
    const message = error instanceof TomlError ? error.message.split('\n')[0] : String(error);
    return { reason: `malformed TOML: ${message}` };
  }
}

/** How deep a toml's tables may nest (the tokens index keeps `tomldata` to this depth). */
export const TOML_MAX_DEPTH = 8;

function depthOf(value: unknown): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depthOf));
  if (isRecord(value)) return 1 + Math.max(0, ...Object.values(value).map(depthOf));
  return 0;
}

function toJson(value: unknown): unknown {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? String(value) : value.toISOString();
  if (Array.isArray(value)) return value.map(toJson);
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJson(v)]));
  // Integers beyond 2^53 stay exact, as text.
  if (typeof value === 'bigint') return value.toString();
  return value;
}

function finish(domain: string, now: Date, text: string): TomlResult {
  const parsed = parseTomlText(text);
  if ('reason' in parsed) return { domain, outcome: 'invalid', reason: parsed.reason, fetched_at: now.toISOString() };
  return { domain, outcome: 'ok', data: parsed.data, fetched_at: now.toISOString() };
}

export interface HttpTomlOptions {
  /** `{domain}` is replaced by the domain (default: the XLS-26 well-known HTTPS address). */
  urlTemplate?: string;
  timeoutMs?: number;
  maxBytes?: number;
  now?: () => Date;
  /**
   * Connect to loopback, private, link-local and other non-public addresses too. Off by default:
   * the domains come from ledger data anyone can write, so the fetcher must not reach inside the
   * operator's network. Tests serving files from 127.0.0.1 turn it on.
   */
  allowPrivateAddresses?: boolean;
}

/** Addresses a public web server does not have (RFC 6890 special-purpose ranges). */
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const)
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 127],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');

export function isPublicAddress(address: string): boolean {
  // An IPv4-mapped IPv6 address is its IPv4 address. (A BlockList rule for ::ffff:0:0/96 would
  // also match every plain IPv4 address, so the mapping is undone here instead.)
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped !== null) return isPublicAddress(mapped[1] as string);
  if (/^::ffff:/i.test(address)) return false;
  const family = isIP(address);
  return family !== 0 && !NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * A DNS lookup that refuses non-public addresses. The connection is made to the address this
 * returns, so a name cannot pass the check and then resolve elsewhere (DNS rebinding).
 */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error !== null) return callback(error, '', 0);
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused !== undefined || addresses.length === 0) {
      const problem = Object.assign(
        new Error(`${hostname} resolves to ${refused?.address ?? 'nothing'}, not a public address`),
        {
          code: 'ENOTPUBLIC',
        },
      );
      return callback(problem, '', 0);
    }
    if (options.all === true) return (callback as unknown as (e: null, a: typeof addresses) => void)(null, addresses);
    const first = addresses[0]!;
    return callback(null, first.address, first.family);
  });
};

/**
 * Fetches over HTTP(S) with node's own client: no redirects followed, only public addresses
 * unless allowed, one time limit over connection and body, and a byte cap while streaming.
 */
export function httpTomlSource(options: HttpTomlOptions = {}): TomlSource {
  const template = options.urlTemplate ?? TOML_URL_TEMPLATE;
  const timeoutMs = options.timeoutMs ?? TOML_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? TOML_MAX_BYTES;
  const now = options.now ?? (() => new Date());
  const describe = (domain: string): string => template.replaceAll('{domain}', domain);
  return {
    describe,
    async fetch(domain) {
      const fail = (outcome: TomlOutcome, reason: string): TomlResult => ({
        domain,
        outcome,
        reason,
        fetched_at: now().toISOString(),
      });
      const url = describe(domain);
      const signal = AbortSignal.timeout(timeoutMs);
      let response: IncomingMessage | undefined;
      try {
        const target = new URL(url);
        const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
        response = await new Promise<IncomingMessage>((resolve, reject) => {
          const request = send(target, {
            signal,
            headers: { accept: 'application/toml, text/plain, */*', 'user-agent': 'xrpl-ledger-explorer' },
            ...(options.allowPrivateAddresses === true ? {} : { lookup: publicOnlyLookup }),
          });
          request.on('response', resolve);
          request.on('error', reject);
          request.end();
        });
        const status = response.statusCode ?? 0;
        if (status === 404) return fail('not_found', `${url} answered 404`);
        if (status >= 300 && status < 400)
          return fail('http_error', `${url} redirects (${status}); XLS-26 files are served in place`);
        if (status < 200 || status >= 300) return fail('http_error', `${url} answered ${status}`);
        const declared = Number(response.headers['content-length'] ?? NaN);
        if (declared > maxBytes) return fail('too_large', `${url} is ${declared} bytes (limit ${maxBytes})`);
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of response) {
          size += (chunk as Buffer).byteLength;
          if (size > maxBytes) return fail('too_large', `${url} is over ${maxBytes} bytes`);
          chunks.push(chunk as Buffer);
        }
        return finish(domain, now(), Buffer.concat(chunks).toString('utf8'));
      } catch (error) {
        if (signal.aborted) return fail('timeout', `${url} did not answer within ${timeoutMs} ms`);
        const code = (error as { code?: string }).code;
        if (code === 'ENOTPUBLIC') return fail('forbidden_address', (error as Error).message);
        return fail('unreachable', `${url}: ${code ?? (error as Error).message}`);
      } finally {
        // Whatever was not read is dropped with its connection.
        response?.destroy();
      }
    },
  };
}

/** Reads `<dir>/<domain>.toml` (or `<dir>/<domain>/.well-known/xrp-ledger.toml`), same caps. */
export function directoryTomlSource(dir: string, options: { maxBytes?: number; now?: () => Date } = {}): TomlSource {
  const maxBytes = options.maxBytes ?? TOML_MAX_BYTES;
  const now = options.now ?? (() => new Date());
  const candidates = (domain: string): string[] => [
    join(dir, `${domain}.toml`),
    join(dir, domain, '.well-known', 'xrp-ledger.toml'),
  ];
  return {
    // What a reader of the API sees: the file's name, not the server's folders.
    describe: (domain) => `file:${domain}.toml`,
    async fetch(domain) {
      for (const path of candidates(domain)) {
        const info = await stat(path).catch(() => undefined);
        if (info === undefined || !info.isFile()) continue;
        if (info.size > maxBytes)
          return {
            domain,
            outcome: 'too_large',
            // Readers see the file's name, never the server's folders.
            reason: `file:${domain}.toml is ${info.size} bytes (limit ${maxBytes})`,
            fetched_at: now().toISOString(),
          };
        return finish(domain, now(), await readFile(path, 'utf8'));
      }
      return {
        domain,
        outcome: 'not_found',
        reason: `no file:${domain}.toml in the configured folder (TOML_DIR)`,
        fetched_at: now().toISOString(),
      };
    },
  };
}

/** A weblink of the spec's meta: `{url, title or type}`. */
export interface Weblink {
  url: string;
  title?: string;
  type?: string;
}

export interface TokenMeta {
  name?: string;
  description?: string;
  icon?: string;
  trust_level: number;
  weblinks: Weblink[];
}

export interface IssuerMeta extends TokenMeta {
  kyc: boolean;
}

/** Longest text kept in `meta` (names, descriptions, icons, links); the rest is cut. */
const META_TEXT_MAX = 1024;
const META_LINKS_MAX = 20;
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, META_TEXT_MAX) : undefined;
const tables = (value: unknown): Json[] =>
  Array.isArray(value) ? value.filter(isRecord) : isRecord(value) ? [value] : [];

function weblinksOf(entry: Json): Weblink[] {
  const links: Weblink[] = [];
  for (const key of ['URLS', 'WEBLINKS', 'urls', 'weblinks'])
    for (const link of tables(entry[key])) {
      const url = text(link.url);
      if (url === undefined) continue;
      const item: Weblink = { url };
      if (text(link.title) !== undefined) item.title = text(link.title);
      if (text(link.type) !== undefined) item.type = text(link.type);
      links.push(item);
    }
  const plain = text(entry.url) ?? text(entry.website);
  if (plain !== undefined && !links.some((l) => l.url === plain)) links.push({ url: plain, type: 'website' });
  return links.slice(0, META_LINKS_MAX);
}

function described(entry: Json | undefined, trustLevel: number): TokenMeta {
  const meta: TokenMeta = { trust_level: trustLevel, weblinks: entry === undefined ? [] : weblinksOf(entry) };
  if (entry === undefined) return meta;
  const name = text(entry.name);
  const description = text(entry.desc) ?? text(entry.description);
  const icon = text(entry.icon);
  if (name !== undefined) meta.name = name;
  if (description !== undefined) meta.description = description;
  if (icon !== undefined) meta.icon = icon;
  return meta;
}

/**
 * `meta.token` and `meta.issuer` of one token from its issuer's domain's toml (pure). The token
 * is found under TOKENS (XLS-26) or CURRENCIES (the older common form) by issuer and currency
 * (code or hex); the issuer under ISSUERS or ACCOUNTS by address, ORGANIZATION naming it when it
 * has no name of its own. `trust_level`, which XLS-26 does not define, is ours:
 * 0 nothing links the account and the domain both ways; 1 the account's Domain names the domain
 * and the domain's toml lists the account (a two-way link); 2 the toml also lists this token.
 */
export function tokenMetaFromToml(
  toml: Json | undefined,
  token: { code: string; currency: string; issuer: string },
  kyc: boolean,
): { token: TokenMeta; issuer: IssuerMeta } {
  if (toml === undefined) return { token: described(undefined, 0), issuer: { ...described(undefined, 0), kyc } };
  const matchesCurrency = (entry: Json): boolean => {
    const code = text(entry.currency) ?? text(entry.code);
    return code !== undefined && (code === token.code || currencyHex(code) === token.currency);
  };
  const tokenEntry = [...tables(toml.TOKENS), ...tables(toml.CURRENCIES)].find(
    (entry) => text(entry.issuer) === token.issuer && matchesCurrency(entry),
  );
  const issuerEntry = [...tables(toml.ISSUERS), ...tables(toml.ACCOUNTS)].find(
    (entry) => text(entry.address) === token.issuer,
  );
  const linked = issuerEntry !== undefined || tokenEntry !== undefined;
  const level = tokenEntry !== undefined ? 2 : linked ? 1 : 0;
  const issuer: IssuerMeta = { ...described(issuerEntry, linked ? 1 : 0), kyc };
  const organization = tables(toml.ORGANIZATION)[0];
  if (issuer.name === undefined && linked && organization !== undefined) {
    const name = text(organization.name);
    if (name !== undefined) issuer.name = name;
    if (issuer.weblinks.length === 0) issuer.weblinks = weblinksOf(organization);
  }
  return { token: described(tokenEntry, level), issuer };
}

/** Domains fetched at once. */
const FETCH_CONCURRENCY = 8;

export interface TomlRefreshOptions {
  source: TomlSource;
  /** A domain's result older than this is fetched again. */
  maxAgeMs: number;
  /** Domains to fetch now whatever their age (`all`: every domain). */
  refresh?: 'all' | ReadonlySet<string>;
  now?: () => Date;
  logger?: Logger;
}

/**
 * Results for every domain: cached ones while fresh, the others fetched (a few at a time). A
 * failed fetch is a result like any other, with its outcome and reason, and is retried when it
 * is older than `maxAgeMs`.
 */
export async function refreshToml(
  domains: readonly string[],
  cache: ReadonlyMap<string, TomlResult>,
  options: TomlRefreshOptions,
): Promise<Map<string, TomlResult>> {
  const now = (options.now ?? (() => new Date()))().getTime();
  const out = new Map<string, TomlResult>();
  const due: string[] = [];
  for (const domain of domains) {
    const cached = cache.get(domain);
    const forced = options.refresh === 'all' || options.refresh?.has(domain) === true;
    if (cached !== undefined && !forced && now - Date.parse(cached.fetched_at) <= options.maxAgeMs)
      out.set(domain, cached);
    else due.push(domain);
  }
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < due.length) {
      const domain = due[next++] as string;
      const result: TomlResult = { ...(await options.source.fetch(domain)), source: options.source.describe(domain) };
      const previous = cache.get(domain);
      if (result.outcome === 'ok') result.data_fetched_at = result.fetched_at;
      else {
        options.logger?.warn({ domain, outcome: result.outcome, reason: result.reason }, 'xrp-ledger.toml not used');
        // The last good file stays until one replaces it; the outcome says this fetch failed.
        if (previous?.data !== undefined) {
          result.data = previous.data;
          result.data_fetched_at = previous.data_fetched_at ?? previous.fetched_at;
        }
      }
      out.set(domain, result);
    }
  };
  await Promise.all(Array.from({ length: Math.min(FETCH_CONCURRENCY, due.length) }, worker));
  return out;
}
