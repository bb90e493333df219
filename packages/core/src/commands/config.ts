import { defineCommand } from '../cli/command.js';
import { configTableMarkdown, engineUrl, loadConfig, redactConfig, usesExternalEngine } from '../config.js';

export const configCommand = defineCommand({
  usage: 'config [--markdown]',
  summary: 'print the effective configuration (secrets redacted); --markdown: the table of docs/configuration.md',
  options: { markdown: { type: 'boolean' } },
  run: async ({ values }) => {
    if (values.markdown === true) {
      console.log(configTableMarkdown());
      return 0;
    }
    const config = loadConfig();
    const resolved = { engineUrl: engineUrl(config), externalEngine: usesExternalEngine(config) };
    console.log(JSON.stringify({ ...redactConfig(config), resolved }, null, 2));
    return 0;
  },
});
