import { CommandError, defineCommand, engineUrl, loadConfig, probeEngine, usesExternalEngine } from '@xle/core';
import { recordedCluster } from '../instance.js';
import { clusterStatus } from '../lifecycle.js';

export const statusCommand = defineCommand({
  usage: 'status',
  summary:
    'is it running: each node, and the cluster health (exit 3 when no node runs); with ES_URL set, whether\n' +
    'that cluster answers (exit 3 when it does not)',
  run: async () => {
    const config = loadConfig();
    if (usesExternalEngine(config)) {
      try {
        await probeEngine(config);
      } catch (error) {
        if (!(error instanceof CommandError)) throw error;
        console.log(`external cluster ${engineUrl(config)}: not answering. ${error.message}`);
        return 3;
      }
      console.log(`external cluster ${engineUrl(config)}: answering (local engine not used)`);
      return 0;
    }
    const cluster = recordedCluster(config);
    const status = await clusterStatus(cluster);
    if (cluster.nodes.length === 1) {
      const node = status.nodes[0];
      console.log(
        node?.running === true
          ? `running, pid ${node.pid}, ${node.url}, health ${status.health ?? 'not answering'}`
          : `not running (${node?.url})`,
      );
    } else {
      console.log(
        status.running
          ? `cluster of ${cluster.nodes.length} nodes, ${status.joined ?? 0} joined, health ${status.health ?? 'not answering'}`
          : `cluster of ${cluster.nodes.length} nodes: not running`,
      );
      cluster.nodes.forEach((node, i) => {
        const s = status.nodes[i];
        console.log(`  ${node.nodeName}: ${s?.running === true ? `running, pid ${s.pid}` : 'not running'}, ${s?.url}`);
      });
    }
    return status.running ? 0 : 3;
  },
});
