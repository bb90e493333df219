import { defineCommand } from '../cli/command.js';
import { engineUrl, loadConfig } from '../config.js';
import { withEngineClient } from '../engine/client.js';
import { applyTemplates } from '../engine/templates.js';
import { namingOf } from '../index-names.js';

export const templatesApplyCommand = defineCommand({
  usage: 'templates apply [--recreate-stale]',
  summary:
    'check the engine, apply component/index templates, create missing indices\n' +
    '--recreate-stale: delete and recreate indices built from an older template',
  options: { 'recreate-stale': { type: 'boolean' } },
  run: async ({ values }) => {
    const config = loadConfig();
    const { engine, changes } = await withEngineClient(config, (client) =>
      applyTemplates(client, namingOf(config), { recreateStale: values['recreate-stale'] === true }),
    );
    console.log(
      `engine ${engineUrl(config)}: Elasticsearch ${engine.version}, cluster ${engine.clusterName} (${engine.status})`,
    );
    for (const c of changes)
      console.log(`${c.action.padEnd(9)} ${c.type.padEnd(18)} ${c.name}${c.detail ? `  (${c.detail})` : ''}`);
    const changed = changes.filter((c) => c.action !== 'unchanged').length;
    console.log(`${changed} changed, ${changes.length - changed} unchanged`);
    return 0;
  },
});
