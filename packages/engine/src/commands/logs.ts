import { defineCommand, integerOption, loadConfig } from '@xle/core';
import { instanceFromConfig, logFile } from '../instance.js';
import { tailLog } from '../lifecycle.js';

export const logsCommand = defineCommand({
  usage: 'logs [N]',
  summary: 'print the last N lines of its log (default 50)',
  positionals: { min: 0, max: 1 },
  run: async ({ positionals: [lines] }) => {
    const instance = instanceFromConfig(loadConfig());
    console.log(`== ${logFile(instance)}`);
    console.log(tailLog(instance, integerOption(lines, 'lines', { min: 1, default: 50 })));
    return 0;
  },
});
