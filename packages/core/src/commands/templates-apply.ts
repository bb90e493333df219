import { defineCommand } from '../cli/command.js';
import { engineUrl, loadConfig } from '../config.js';
import { withEngineClient } from '../engine/client.js';
import { probeEngine } from '../engine/probe.js';
import { applyTemplates, layoutOf } from '../engine/templates.js';
import { namingOf } from '../index-names.js';

export const templatesApplyCommand = defineCommand({
  usage: 'templates apply [--recreate-stale]',
  summary:
    'check the engine, apply component/index templates, create missing indices, and record the index\n' +
    'layout (ES_RANGE_LEDGERS, ES_SHARDS, ES_STATE_SHARDS, ES_REPLICAS) in the templates; a different\n' +
    'shape of new indices is recorded as a new layout generation, a different range size is refused\n' +
    '--recreate-stale: delete and recreate indices built from an older template',
  options: { 'recreate-stale': { type: 'boolean' } },
  run: async ({ values }) => {
    const config = loadConfig();
    await probeEngine(config);
    const { engine, layout, changes } = await withEngineClient(config, (client) =>
      applyTemplates(client, namingOf(config), {
        recreateStale: values['recreate-stale'] === true,
        layout: layoutOf(config),
        role: 'apply',
      }),
    );
    console.log(
      `engine ${engineUrl(config)}: Elasticsearch ${engine.version}, cluster ${engine.clusterName} (${engine.status})`,
    );
    console.log(
      `layout generation ${layout.generation}: ${layout.rangeLedgers} ledgers per range, ${layout.shards} shard(s) ` +
        `per range index, ${layout.stateShards} per state index, replicas ${layout.replicas}`,
    );
    for (const c of changes)
      console.log(`${c.action.padEnd(9)} ${c.type.padEnd(18)} ${c.name}${c.detail ? `  (${c.detail})` : ''}`);
    const changed = changes.filter((c) => c.action !== 'unchanged').length;
    console.log(`${changed} changed, ${changes.length - changed} unchanged`);
    return 0;
  },
});
