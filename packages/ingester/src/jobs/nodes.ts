import { get as httpGet, type IncomingMessage } from 'node:http';
import { get as httpsGet } from 'node:https';
import { encodeNodePublic } from 'xrpl';
import type { Logger } from '@xle/core';
import { parseRippledTimeText, type Json } from '@xle/documents';
import type { IngestEngine } from '../engine/ingest-engine.js';
import type { AsnTable } from './asn.js';
import { recordJobRun, writeDocuments } from './data-set.js';

export interface NodeDoc {
  public_key: string;
  ip?: string;
  port?: number;
  /** The AS its address is announced from (`AS24940`), from the operator's IP-to-AS table. */
  asn?: string;
  /** That AS's registered name (`HETZNER-AS`). */
  isp?: string;
  complete_ledgers?: string;
  last_seen: string;
  last_seen_unix: number;
  /** When this service fetched the crawl that saw it (the newest crawl's nodes are those fetched since it started). */
  crawled_at: string;
  server_version?: string;
  version?: string;
  type?: string;
  uptime?: number;
}

/** A crawl answer's base64 node key (33 bytes) in its base58 `n...` form. */
function nodeKeyOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (value.startsWith('n')) return value;
  const bytes = Buffer.from(value, 'base64');
  return bytes.length === 33 ? encodeNodePublic(bytes) : undefined;
}

/** How far ahead of the fetch a crawled server's clock may run and still be believed. */
const CLOCK_SKEW_S = 300;

/**
 * When the nodes of a crawl answer were seen: the answering server's own clock (`server.time`,
 * rippled's text), which says when the answer was made (a recorded crawl replayed later was made
 * then, not now), unless it is missing or runs ahead of the fetch; else the time of the fetch.
 */
export function crawlTime(crawl: Json, fetchedAt: Date): Date {
  const server = (crawl.server ?? {}) as Json;
  const own = parseRippledTimeText(server.time);
  const fetched = fetchedAt.getTime() / 1000;
  return own !== undefined && own <= fetched + CLOCK_SKEW_S ? new Date(own * 1000) : fetchedAt;
}

/**
 * The nodes one `/crawl` answer shows (pure): the answering server itself (`server.pubkey_node`)
 * and every active peer of its overlay, keyed by base58 node public key, seen when the answer was
 * made (see crawlTime).
 */
export function parseCrawl(crawl: Json, fetchedAt: Date): NodeDoc[] {
  const seenAt = crawlTime(crawl, fetchedAt);
  const seen = {
    last_seen: seenAt.toISOString(),
    last_seen_unix: Math.floor(seenAt.getTime() / 1000),
    crawled_at: fetchedAt.toISOString(),
  };
  const docs: NodeDoc[] = [];
  const server = (crawl.server ?? {}) as Json;
  const self = nodeKeyOf(server.pubkey_node);
  if (self !== undefined) {
    const build = typeof server.build_version === 'string' ? server.build_version : undefined;
    docs.push({
      public_key: self,
      ...(typeof server.complete_ledgers === 'string' ? { complete_ledgers: server.complete_ledgers } : {}),
      ...seen,
      ...(build === undefined ? {} : { server_version: build, version: `rippled-${build}` }),
    });
  }
  const active = ((crawl.overlay ?? {}) as Json).active;
  for (const peer of Array.isArray(active) ? (active as Json[]) : []) {
    const key = nodeKeyOf(peer.public_key);
    if (key === undefined) continue;
    const version = typeof peer.version === 'string' ? peer.version : undefined;
    const doc: NodeDoc = { public_key: key, ...seen };
    if (typeof peer.ip === 'string') doc.ip = peer.ip;
    if (peer.port !== undefined && Number.isInteger(Number(peer.port))) doc.port = Number(peer.port);
    if (typeof peer.complete_ledgers === 'string') doc.complete_ledgers = peer.complete_ledgers;
    if (version !== undefined) Object.assign(doc, { version, server_version: version.replace(/^rippled-/, '') });
    if (typeof peer.type === 'string') doc.type = peer.type;
    if (typeof peer.uptime === 'number') doc.uptime = peer.uptime;
    docs.push(doc);
  }
  return docs;
}

const MAX_CRAWL_BYTES = 4 * 1024 * 1024;

/**
 * GETs one `/crawl` answer. Peer ports serve TLS with self-signed certificates (rippled makes its
 * own), so certificates are not verified: the answer is public data, and nothing is sent.
 */
export function fetchCrawl(url: string, timeoutMs: number): Promise<Json> {
  return new Promise((resolve, reject) => {
    const onResponse = (response: IncomingMessage): void => {
      if (response.statusCode !== 200) {
        response.resume();
        reject(new Error(`${url} answered ${response.statusCode}`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_CRAWL_BYTES) request.destroy(new Error(`${url}: answer over ${MAX_CRAWL_BYTES} bytes`));
        else chunks.push(chunk);
      });
      response.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json);
        } catch {
          reject(new Error(`${url}: not JSON`));
        }
      });
      response.on('error', reject);
    };
    const request = url.startsWith('https:')
      ? httpsGet(url, { rejectUnauthorized: false, timeout: timeoutMs }, onResponse)
      : httpGet(url, { timeout: timeoutMs }, onResponse);
    request.on('timeout', () => request.destroy(new Error(`${url}: no answer in ${timeoutMs} ms`)));
    request.on('error', reject);
  });
}

export interface CrawlOptions {
  /** 0: only the seeds; 1: also their peers' /crawl; and so on. */
  depth: number;
  timeoutMs: number;
  maxServers: number;
  concurrency: number;
  logger: Logger;
  fetch?: (url: string, timeoutMs: number) => Promise<Json>;
  /** Gives each node with an address its AS (NODES_ASN_FILE); without it `asn` stays absent. */
  asn?: AsnTable;
}

/** Breadth-first over `/crawl` answers from the seeds; every node seen once, newest data kept. */
export async function crawlNetwork(
  seeds: readonly string[],
  options: CrawlOptions,
): Promise<{ nodes: NodeDoc[]; crawled: number; failed: number }> {
  const fetchOne = options.fetch ?? fetchCrawl;
  const nodes = new Map<string, NodeDoc>();
  const visited = new Set<string>();
  let frontier = [...seeds];
  let crawled = 0;
  let failed = 0;
  for (let level = 0; level <= options.depth && frontier.length > 0; level += 1) {
    const next: string[] = [];
    const queue = frontier.filter((u) => !visited.has(u)).slice(0, Math.max(0, options.maxServers - visited.size));
    queue.forEach((u) => visited.add(u));
    const worker = async (): Promise<void> => {
      for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
        try {
          const found = parseCrawl(await fetchOne(url, options.timeoutMs), new Date());
          crawled += 1;
          for (const node of found) {
            nodes.set(node.public_key, { ...nodes.get(node.public_key), ...node });
            if (node.ip !== undefined && node.port !== undefined)
              next.push(`https://${node.ip.includes(':') ? `[${node.ip}]` : node.ip}:${node.port}/crawl`);
          }
        } catch (error) {
          failed += 1;
          options.logger.debug({ url, error: (error as Error).message }, 'crawl failed');
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
    frontier = next;
  }
  return { nodes: [...nodes.values()].sort((a, b) => (a.public_key < b.public_key ? -1 : 1)), crawled, failed };
}

/** Crawls and writes every node seen; the run's start marks which nodes are active. */
export async function crawlNodes(
  engine: IngestEngine,
  seeds: readonly string[],
  options: CrawlOptions,
): Promise<{ nodes: number; crawled: number; failed: number; withAsn: number }> {
  const started = new Date();
  const { nodes, crawled, failed } = await crawlNetwork(seeds, options);
  if (crawled === 0) throw new Error(`no /crawl answer from ${seeds.join(', ')}`);
  const located = nodes.map((node) => withAsn(node, options.asn));
  await writeDocuments(
    engine,
    'nodes',
    located.map((n) => ({ _id: n.public_key, doc: { ...n } })),
  );
  await recordJobRun(engine, {
    job: 'nodes',
    ledger_index: 0,
    documents: nodes.length,
    removed: 0,
    detail: { started_at: started.toISOString(), crawled, failed },
  });
  const withAs = located.filter((n) => n.asn !== undefined).length;
  return { nodes: nodes.length, crawled, failed, withAsn: withAs };
}

/** A node with the AS its address is announced from, when the table knows it (pure). */
export function withAsn(node: NodeDoc, table: AsnTable | undefined): NodeDoc {
  const found = table !== undefined && node.ip !== undefined ? table.lookup(node.ip) : undefined;
  return found === undefined ? node : { ...node, asn: found.asn, isp: found.name };
}
