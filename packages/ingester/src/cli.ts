#!/usr/bin/env node
import { runCli } from '@xle/core';
import { activityCommand } from './commands/activity.js';
import { backfillCommand } from './commands/backfill.js';
import { balanceChangesCommand } from './commands/balance-changes.js';
import { fileCommand } from './commands/file.js';
import { jobCommands } from './commands/jobs.js';
import { liveCommand } from './commands/live.js';
import { locatorsCommand } from './commands/locators.js';
import { networkCommand } from './commands/network.js';
import { nodesCommand } from './commands/nodes.js';
import { rangesCommand, rangesRebuildCommand } from './commands/ranges.js';
import { stateCommand } from './commands/state.js';
import { statusCommand } from './commands/status.js';
import { validationsCommand } from './commands/validations.js';
import { validatorsCommand } from './commands/validators.js';

// The source name (default: "files" for file, "rippled" otherwise) keys the checkpoint.
runCli('pnpm ingest', [
  fileCommand,
  backfillCommand,
  liveCommand,
  statusCommand,
  rangesCommand,
  rangesRebuildCommand,
  locatorsCommand,
  balanceChangesCommand,
  activityCommand,
  stateCommand,
  ...jobCommands,
  networkCommand,
  nodesCommand,
  validationsCommand,
  validatorsCommand,
]);
