import { defineCommand, engineUrl, loadConfig, usesExternalEngine } from '@xle/core';
import { instanceFromConfig } from '../instance.js';
import { engineStatus } from '../lifecycle.js';

export const statusCommand = defineCommand({
  usage: 'status',
  summary: 'is it running, and its cluster health (exit 3 when not running)',
  run: async () => {
    const config = loadConfig();
    const external = usesExternalEngine(config);
    const status = await engineStatus(instanceFromConfig(config));
    console.log(
      external
        ? `external cluster ${engineUrl(config)} (local engine not used)`
        : status.running
          ? `running, pid ${status.pid}, ${status.url}, health ${status.health ?? 'not answering'}`
          : `not running (${status.url})`,
    );
    return status.running || external ? 0 : 3;
  },
});
