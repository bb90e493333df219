import { defineCommand } from '@xle/core';
import { startEngine } from '../lifecycle.js';
import { localEngine } from './local.js';

export const startCommand = defineCommand({
  usage: 'start',
  summary: 'start the local node in the background and wait until it is ready (nothing when ES_URL is set)',
  run: async () => {
    const instance = localEngine('using that cluster, the local engine is not started.');
    if (instance !== undefined) await startEngine(instance, { log: (line) => console.log(line) });
    return 0;
  },
});
