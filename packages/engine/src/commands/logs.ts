import { defineCommand, integerOption, loadConfig, UsageError } from '@xle/core';
import { logFile, recordedCluster } from '../instance.js';
import { tailLog } from '../lifecycle.js';

export const logsCommand = defineCommand({
  usage: 'logs [N] [--node I]',
  summary: 'print the last N lines of its log (default 50), of node I (1-based) of a cluster',
  positionals: { min: 0, max: 1 },
  options: { node: { type: 'string' } },
  run: async ({ positionals: [lines], values }) => {
    const cluster = recordedCluster(loadConfig());
    const index = integerOption(values.node, 'node', { min: 1, default: 1 });
    const instance = cluster.nodes[index - 1];
    if (instance === undefined) throw new UsageError(`--node: the local engine has ${cluster.nodes.length} node(s)`);
    console.log(`== ${logFile(instance)}`);
    console.log(tailLog(instance, integerOption(lines, 'lines', { min: 1, default: 50 })));
    return 0;
  },
});
