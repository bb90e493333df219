#!/usr/bin/env node
import { exitWith } from '@xle/core';
import { runImportCommand } from '../records/import-command.js';
import { importWalletKyc } from './import.js';
import { readKycRecords, validateKycRecords } from './wallet-kyc.js';

exitWith(
  runImportCommand(process.argv.slice(2), {
    kind: 'kyc',
    usage: `usage: kyc import <file.json|file.csv> [--source NAME]
  Imports wallet KYC status: a JSON array of {account, kycApproved} or a CSV with those columns.
  Every record is validated first; nothing is written unless all are valid. The source (default:
  the file name) is replaced as a whole by each import.`,
    read: readKycRecords,
    validate: validateKycRecords,
    write: importWalletKyc,
  }),
);
