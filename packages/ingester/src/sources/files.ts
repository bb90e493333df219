import { createReadStream, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { CommandError } from '@xle/core';
import { normalizeLedger, verifyLedger, type LedgerInput, type LedgerVerification } from '@xle/documents';

export interface FileLedger {
  file: string;
  /** The line of an NDJSON file. */
  line?: number;
  ledger: LedgerInput;
  /** The ledger checked against its own hashes (documents' verifyLedger). */
  verification: LedgerVerification;
}

export interface FileError {
  file: string;
  line?: number;
  message: string;
}

/**
 * `.json` files (one ledger each) and `.ndjson` files (one ledger per line), a folder recursively.
 * A path that does not exist is a CommandError NOT_FOUND; an entry of a folder that cannot be read
 * (a dangling symlink, no permission) is reported through `onSkipped` and left out, so one broken
 * entry does not stop the run.
 */
export function listLedgerFiles(path: string, onSkipped: (file: string, reason: string) => void = () => {}): string[] {
  let stat;
  try {
    stat = statSync(path);
  } catch (error) {
    throw new CommandError(
      'NOT_FOUND',
      `${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or folder' : (error as Error).message}. Give a ledger JSON file, an NDJSON file or a folder of them.`,
    );
  }
  if (stat.isFile()) return [path];
  const found: string[] = [];
  for (const entry of readdirSync(path).sort()) {
    const child = join(path, entry);
    let kind;
    try {
      kind = statSync(child);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      onSkipped(child, code === 'ENOENT' ? 'a link to nothing (dangling symlink)' : (error as Error).message);
      continue;
    }
    if (kind.isDirectory()) found.push(...listLedgerFiles(child, onSkipped));
    else if (['.json', '.ndjson'].includes(extname(entry))) found.push(child);
  }
  return found;
}

/**
 * The file source: rippled `ledger` JSON in every shape normalizeLedger accepts, from one file,
 * a folder, or NDJSON, each ledger with what its hashes say about it (verified, refused, cannot be
 * checked); the caller decides what to index. A file that is not a ledger is reported through
 * `onError` and skipped; the caller decides whether that fails the run.
 */
export async function* readLedgerFiles(
  files: readonly string[],
  onError: (error: FileError) => void,
): AsyncGenerator<FileLedger> {
  for (const file of files) {
    if (extname(file) === '.ndjson') {
      const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
      let line = 0;
      for await (const text of lines) {
        line += 1;
        if (text.trim() === '') continue;
        let ledger: LedgerInput;
        try {
          ledger = normalizeLedger(JSON.parse(text));
        } catch (error) {
          onError({ file, line, message: (error as Error).message });
          continue;
        }
        yield { file, line, ledger, verification: verifyLedger(ledger) };
      }
      continue;
    }
    let ledger: LedgerInput;
    try {
      ledger = normalizeLedger(JSON.parse(readFileSync(file, 'utf8')));
    } catch (error) {
      onError({ file, message: (error as Error).message });
      continue;
    }
    yield { file, ledger, verification: verifyLedger(ledger) };
  }
}
