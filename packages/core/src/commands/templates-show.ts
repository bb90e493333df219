import { defineCommand } from '../cli/command.js';
import { loadConfig } from '../config.js';
import { composeTemplates, loadTemplateSet } from '../engine/templates.js';
import { namingOf } from '../index-names.js';

export const templatesShowCommand = defineCommand({
  usage: 'templates show',
  summary: 'print the composed template bodies without sending them',
  run: async () => {
    console.log(JSON.stringify(composeTemplates(loadTemplateSet(), namingOf(loadConfig())), null, 2));
    return 0;
  },
});
