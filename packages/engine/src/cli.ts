#!/usr/bin/env node
import { runCli } from '@xle/core';
import { fetchCommand } from './commands/fetch.js';
import { logsCommand } from './commands/logs.js';
import { startCommand } from './commands/start.js';
import { statusCommand } from './commands/status.js';
import { stopCommand } from './commands/stop.js';

// Configured by ENGINE_PORT, ENGINE_HEAP, ENGINE_DATA_DIR, ... (see `pnpm run config`).
runCli('pnpm engine', [fetchCommand, startCommand, stopCommand, statusCommand, logsCommand]);
