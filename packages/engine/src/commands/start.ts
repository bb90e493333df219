import { defineCommand, integerOption, loadConfig } from '@xle/core';
import { startCluster } from '../lifecycle.js';
import { localCluster } from './local.js';

export const startCommand = defineCommand({
  usage: 'start [--nodes N]',
  summary:
    'start the local engine in the background and wait until it is ready: one node, or a real cluster of N\n' +
    'nodes on consecutive ports (default ENGINE_NODES, 1); nothing when ES_URL is set',
  options: { nodes: { type: 'string' } },
  run: async ({ values }) => {
    const nodes = integerOption(values.nodes, 'nodes', { min: 1, max: 9, default: loadConfig().engine.nodes });
    const cluster = localCluster('using that cluster, the local engine is not started.', nodes);
    if (cluster !== undefined) await startCluster(cluster, { log: (line) => console.log(line) });
    return 0;
  },
});
