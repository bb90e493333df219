#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { applyTemplates, createEngineClient, isAppError, loadConfig, namingOf } from '@xle/core';
import { importWalletKyc } from './import.js';
import { readKycRecords, validateKycRecords } from './wallet-kyc.js';

const USAGE = `usage: kyc import <file.json|file.csv> [--source NAME]
  Imports wallet KYC status: a JSON array of {account, kycApproved} or a CSV with those columns.
  Every record is validated first; nothing is written unless all are valid. The source (default:
  the file name) is replaced as a whole by each import.`;

async function main([command, file, ...rest]: string[]): Promise<number> {
  if (command !== 'import' || file === undefined) {
    console.error(USAGE);
    return 64;
  }
  const at = rest.indexOf('--source');
  const source = at >= 0 ? (rest[at + 1] ?? '') : basename(file);
  let raw: unknown[];
  try {
    raw = readKycRecords(file, readFileSync(file, 'utf8'));
  } catch (error) {
    console.error(`error: cannot read ${file}: ${(error as Error).message}`);
    return 1;
  }
  const { records, problems } = validateKycRecords(raw);
  if (problems.length > 0) {
    for (const p of problems.slice(0, 50))
      console.error(`record ${p.record}${p.field === '' ? '' : ` ${p.field}`}: ${p.message}`);
    console.error(`${problems.length} problems; nothing imported.`);
    return 1;
  }
  const config = loadConfig();
  const client = createEngineClient(config);
  try {
    const naming = namingOf(config);
    await applyTemplates(client, naming);
    const result = await importWalletKyc(client, naming, source, records);
    console.log(
      `kyc: source ${result.source}, version ${result.version}: ${result.written} written, ${result.removed} removed`,
    );
    return 0;
  } finally {
    await client.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(isAppError(error) ? `error ${error.code}: ${error.message}` : `error: ${(error as Error).message}`);
    process.exit(1);
  },
);
