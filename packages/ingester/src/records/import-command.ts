import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Client, IndexNaming } from '@xle/core';
import { applyTemplates, createEngineClient, loadConfig, namingOf } from '@xle/core';
import type { NamesImportResult } from '../names/import.js';
import type { RecordProblem } from './account-records.js';

/** One `<kind> import <file> [--source NAME]` command: how its files are read, checked and written. */
export interface ImportCommand<T> {
  kind: string;
  usage: string;
  read: (fileName: string, text: string) => unknown[];
  validate: (raw: readonly unknown[]) => { records: T[]; problems: RecordProblem[] };
  write: (client: Client, naming: IndexNaming, source: string, records: readonly T[]) => Promise<NamesImportResult>;
}

/**
 * Reads and validates the whole file first (nothing is written unless every record is valid),
 * then replaces the source (default: the file name) with its records. Returns the exit code.
 */
export async function runImportCommand<T>([command, file, ...rest]: string[], spec: ImportCommand<T>): Promise<number> {
  if (command !== 'import' || file === undefined) {
    console.error(spec.usage);
    return 64;
  }
  const at = rest.indexOf('--source');
  const source = at >= 0 ? (rest[at + 1] ?? '') : basename(file);
  let raw: unknown[];
  try {
    raw = spec.read(file, readFileSync(file, 'utf8'));
  } catch (error) {
    console.error(`error: cannot read ${file}: ${(error as Error).message}`);
    return 1;
  }
  const { records, problems } = spec.validate(raw);
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
    const result = await spec.write(client, naming, source, records);
    console.log(
      `${spec.kind}: source ${result.source}, version ${result.version}: ${result.written} written, ${result.removed} removed`,
    );
    return 0;
  } finally {
    await client.close();
  }
}
