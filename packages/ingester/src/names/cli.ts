#!/usr/bin/env node
import { runCli } from '@xle/core';
import { importCommand } from '../records/import-command.js';
import { importNames } from './import.js';
import { readNameRecords, validateNameRecords } from './well-known.js';

runCli('pnpm names', [
  importCommand({
    kind: 'names',
    summary:
      'import labels of well-known accounts (account, name, desc, domain, twitter, verified), or the historical\n' +
      'gateways list. Every record is validated first; nothing is written unless all are valid. The source\n' +
      '(default: the file name) is replaced as a whole by each import.',
    read: readNameRecords,
    validate: validateNameRecords,
    write: importNames,
  }),
]);
