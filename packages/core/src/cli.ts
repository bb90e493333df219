#!/usr/bin/env node
import { createEngineClient } from './client.js';
import { configTableMarkdown, engineUrl, loadConfig, redactConfig, usesExternalEngine } from './config.js';
import { isAppError } from './errors.js';
import { namingOf } from './index-names.js';
import { applyTemplates, composeTemplates, loadTemplateSet } from './templates.js';

const USAGE = `usage:
  config              print the effective configuration (secrets redacted)
  config --markdown   print the configuration table of the README
  templates apply     check the engine, apply component/index templates, create missing indices
                      [--recreate-stale: delete and recreate indices built from an older template]
  templates show      print the composed template bodies without sending them`;

async function main(argv: string[]): Promise<number> {
  const [command, sub] = argv;
  if (command === 'config') {
    if (sub === '--markdown') {
      console.log(configTableMarkdown());
      return 0;
    }
    const config = loadConfig();
    console.log(
      JSON.stringify(
        {
          ...redactConfig(config),
          resolved: { engineUrl: engineUrl(config), externalEngine: usesExternalEngine(config) },
        },
        null,
        2,
      ),
    );
    return 0;
  }
  if (command === 'templates' && (sub === 'apply' || sub === 'show')) {
    const config = loadConfig();
    const naming = namingOf(config);
    if (sub === 'show') {
      console.log(JSON.stringify(composeTemplates(loadTemplateSet(), naming), null, 2));
      return 0;
    }
    const client = createEngineClient(config);
    try {
      const { engine, changes } = await applyTemplates(client, naming, {
        recreateStale: argv.includes('--recreate-stale'),
      });
      console.log(
        `engine ${engineUrl(config)}: Elasticsearch ${engine.version}, cluster ${engine.clusterName} (${engine.status})`,
      );
      for (const c of changes)
        console.log(`${c.action.padEnd(9)} ${c.type.padEnd(18)} ${c.name}${c.detail ? `  (${c.detail})` : ''}`);
      const changed = changes.filter((c) => c.action !== 'unchanged').length;
      console.log(`${changed} changed, ${changes.length - changed} unchanged`);
      return 0;
    } finally {
      await client.close();
    }
  }
  console.error(USAGE);
  return 64;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (isAppError(error)) {
      console.error(`error ${error.code}: ${error.message}`);
      if (error.details !== undefined) console.error(JSON.stringify(error.details, null, 2));
    } else console.error(`error: ${(error as Error).message ?? String(error)}`);
    process.exit(1);
  },
);
