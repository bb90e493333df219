import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { CommandError, defineCommand, type Command } from '@xle/core';
import { withIngestEngine } from '../commands/context.js';
import type { IngestEngine } from '../engine/ingest-engine.js';
import type { NamesImportResult, ReplaceGuard } from '../names/import.js';
import type { RecordProblem } from './account-records.js';

/** One `<kind> import <file> [--source NAME]` command: how its files are read, checked and written. */
export interface ImportSpec<T> {
  kind: string;
  summary: string;
  read: (fileName: string, text: string) => unknown[];
  validate: (raw: readonly unknown[]) => { records: T[]; problems: RecordProblem[] };
  write: (
    engine: IngestEngine,
    source: string,
    records: readonly T[],
    guard: ReplaceGuard,
  ) => Promise<NamesImportResult>;
}

/**
 * Reads and validates the whole file first (nothing is written unless every record is valid),
 * then replaces the source (default: the file name) with its records. An input without a record,
 * or one that would remove more than half of the source, is refused (exit 1, nothing written)
 * unless `--allow-empty` or `--replace` says it is meant.
 */
export function importCommand<T>(spec: ImportSpec<T>): Command {
  return defineCommand({
    usage: 'import <file.json|file.csv> [--source NAME] [--allow-empty] [--replace]',
    summary:
      spec.summary +
      '\n--allow-empty: an input without a record empties the source (refused otherwise).' +
      '\n--replace: the input may remove more than half of the source’s records (refused otherwise).',
    options: {
      source: { type: 'string' },
      'allow-empty': { type: 'boolean' },
      replace: { type: 'boolean' },
    },
    positionals: { min: 1, max: 1 },
    run: async ({ values, positionals: [file = ''] }) => {
      const source = values.source ?? basename(file);
      let raw: unknown[];
      try {
        raw = spec.read(file, readFileSync(file, 'utf8'));
      } catch (error) {
        throw new CommandError('UNREADABLE', `cannot read ${file}: ${(error as Error).message}`);
      }
      const { records, problems } = spec.validate(raw);
      if (problems.length > 0) {
        for (const p of problems.slice(0, 50))
          console.error(`record ${p.record}${p.field === '' ? '' : ` ${p.field}`}: ${p.message}`);
        console.error(`${problems.length} problems; nothing imported.`);
        return 1;
      }
      const guard: ReplaceGuard = {
        allowEmpty: values['allow-empty'] === true,
        replace: values.replace === true,
        onPlan: ({ write, remove, existing }) =>
          console.log(
            `${spec.kind}: source ${source} holds ${existing} records: ${write} to write, ${remove} to remove`,
          ),
      };
      const result = await withIngestEngine(({ engine }) => spec.write(engine, source, records, guard));
      console.log(
        `${spec.kind}: source ${result.source}, version ${result.version}: ${result.written} written, ${result.removed} removed`,
      );
      return 0;
    },
  });
}
