import { defineCommand } from '@xle/core';
import { stopEngine } from '../lifecycle.js';
import { localEngine } from './local.js';

export const stopCommand = defineCommand({
  usage: 'stop',
  summary: 'stop it cleanly (SIGTERM, SIGKILL after 30 s)',
  run: async () => {
    const instance = localEngine('there is no local engine to stop.');
    if (instance !== undefined) console.log((await stopEngine(instance)) ? 'engine stopped' : 'engine was not running');
    return 0;
  },
});
