#!/usr/bin/env node
import { runCli } from '@xle/core';
import { importCommand } from '../records/import-command.js';
import { importWalletKyc } from './import.js';
import { readKycRecords, validateKycRecords } from './wallet-kyc.js';

runCli('pnpm kyc', [
  importCommand({
    kind: 'kyc',
    summary:
      'import wallet KYC status: a JSON array of {account, kycApproved} or a CSV with those columns. Every\n' +
      'record is validated first; nothing is written unless all are valid. The source (default: the file\n' +
      'name) is replaced as a whole by each import.',
    read: readKycRecords,
    validate: validateKycRecords,
    write: importWalletKyc,
  }),
]);
