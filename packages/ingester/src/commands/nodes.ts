import { defineCommand, integerOption, UsageError } from '@xle/core';
import { loadAsnTable } from '../jobs/asn.js';
import { crawlNodes } from '../jobs/nodes.js';
import { withIngestEngine } from './context.js';

export const nodesCommand = defineCommand({
  usage: 'nodes --seed URL [--seed URL]... [--depth N] [--max-servers N]',
  summary:
    'crawl peer nodes from rippled /crawl answers (https://host:51235/crawl), following peers N levels deep (default 1);\n' +
    'with NODES_ASN_FILE (an iptoasn.com table) each node gets the AS its address is announced from',
  options: {
    seed: { type: 'string', multiple: true },
    depth: { type: 'string' },
    'max-servers': { type: 'string' },
  },
  run: async ({ values }) => {
    const seeds = values.seed ?? [];
    if (seeds.length === 0 || seeds.some((u) => !/^https?:\/\//.test(u)))
      throw new UsageError('nodes needs at least one --seed http(s)://host:port/crawl');
    const depth = integerOption(values.depth, 'depth', { min: 0, default: 1 });
    const maxServers = integerOption(values['max-servers'], 'max-servers', { min: 1, default: 500 });
    return withIngestEngine(async ({ engine, config, logger }) => {
      const asnFile = config.xrpl.asnFile;
      const asn = asnFile === undefined ? undefined : loadAsnTable(asnFile);
      const result = await crawlNodes(engine, seeds, {
        depth,
        maxServers,
        timeoutMs: 5000,
        concurrency: 16,
        logger,
        ...(asn === undefined ? {} : { asn }),
      });
      const located =
        asn === undefined
          ? 'no AS numbers: NODES_ASN_FILE is not set'
          : `${result.withAsn} with their AS from ${asnFile} (${asn.size.v4} IPv4 and ${asn.size.v6} IPv6 ranges)`;
      console.log(
        `nodes: ${result.nodes} nodes from ${result.crawled} /crawl answers (${result.failed} servers did not answer); ${located}`,
      );
      return 0;
    });
  },
});
