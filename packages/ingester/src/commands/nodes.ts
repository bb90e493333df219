import { defineCommand, integerOption, UsageError } from '@xle/core';
import { crawlNodes } from '../jobs/nodes.js';
import { withIngestEngine } from './context.js';

export const nodesCommand = defineCommand({
  usage: 'nodes --seed URL [--seed URL]... [--depth N] [--max-servers N]',
  summary:
    'crawl peer nodes from rippled /crawl answers (https://host:51235/crawl), following peers N levels deep (default 1)',
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
    return withIngestEngine(async ({ engine, logger }) => {
      const result = await crawlNodes(engine, seeds, { depth, maxServers, timeoutMs: 5000, concurrency: 16, logger });
      console.log(
        `nodes: ${result.nodes} nodes from ${result.crawled} /crawl answers (${result.failed} servers did not answer)`,
      );
      return 0;
    });
  },
});
