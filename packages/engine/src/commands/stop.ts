import { defineCommand } from '@xle/core';
import { stopCluster } from '../lifecycle.js';
import { localCluster } from './local.js';

export const stopCommand = defineCommand({
  usage: 'stop',
  summary: 'stop every node cleanly (SIGTERM, SIGKILL after 30 s)',
  run: async () => {
    const cluster = localCluster('there is no local engine to stop.');
    if (cluster !== undefined) console.log((await stopCluster(cluster)) ? 'engine stopped' : 'engine was not running');
    return 0;
  },
});
