#!/usr/bin/env node
import { runCli } from '@xle/core';
import { channelsCommand } from './commands/channels.js';
import { keysCreateCommand } from './commands/keys-create.js';
import { keysListCommand } from './commands/keys-list.js';
import { keysRevokeCommand } from './commands/keys-revoke.js';
import { usagePruneCommand } from './commands/usage-prune.js';

// Keys, counters and channels belong to the network of the configuration (XLE_NETWORK): a mainnet
// key is not a testnet key.
runCli('pnpm admin', [keysCreateCommand, keysListCommand, keysRevokeCommand, channelsCommand, usagePruneCommand]);
