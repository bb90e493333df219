#!/usr/bin/env node
import { runCli } from './cli/command.js';
import { configCommand } from './commands/config.js';
import { templatesApplyCommand } from './commands/templates-apply.js';
import { templatesShowCommand } from './commands/templates-show.js';

runCli('pnpm', [configCommand, templatesApplyCommand, templatesShowCommand]);
