import { createReadStream, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { createInterface } from 'node:readline';
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

/** `.json` files (one ledger each) and `.ndjson` files (one ledger per line), a folder recursively. */
export function listLedgerFiles(path: string): string[] {
  const stat = statSync(path);
  if (stat.isFile()) return [path];
  const found: string[] = [];
  for (const entry of readdirSync(path).sort()) {
    const child = join(path, entry);
    if (statSync(child).isDirectory()) found.push(...listLedgerFiles(child));
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
