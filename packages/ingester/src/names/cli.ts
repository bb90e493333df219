#!/usr/bin/env node
import { exitWith } from '@xle/core';
import { runImportCommand } from '../records/import-command.js';
import { importNames } from './import.js';
import { readNameRecords, validateNameRecords } from './well-known.js';

exitWith(
  runImportCommand(process.argv.slice(2), {
    kind: 'names',
    usage: `usage: names import <file.json|file.csv> [--source NAME]
  Imports labels of well-known accounts (account, name, desc, domain, twitter, verified), or the
  historical gateways list. Every record is validated first; nothing is written unless all are
  valid. The source (default: the file name) is replaced as a whole by each import.`,
    read: readNameRecords,
    validate: validateNameRecords,
    write: importNames,
  }),
);
