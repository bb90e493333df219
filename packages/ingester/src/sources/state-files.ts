import { readFile } from 'node:fs/promises';
import { LedgerShapeError, parseStatePage, type StatePage } from '@xle/documents';
import { listLedgerFiles } from './files.js';

/** State pages from files: one file or every JSON file of a folder (recursive, by name). */
export async function* readStateFiles(path: string): AsyncGenerator<StatePage> {
  for (const file of listLedgerFiles(path)) {
    let raw: unknown;
    try {
      raw = JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      throw new LedgerShapeError(`${file}: not JSON (${(error as Error).message})`);
    }
    yield parseStatePage(raw, file);
  }
}
