import { createReadStream, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
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
 * The largest ledger one file or one NDJSON line may hold: far above any mainnet ledger with all
 * its transactions (a few tens of MB), and below what a JavaScript string can hold, so a bigger
 * one is reported and skipped instead of failing the run.
 */
export const MAX_LEDGER_BYTES = 256 * 1024 * 1024;

/** An NDJSON file's lines, each as text or, past `maxBytes`, as its length only (never held whole). */
async function* boundedLines(
  file: string,
  maxBytes: number,
): AsyncGenerator<{ text: string; bytes: number } | { text: undefined; bytes: number }> {
  // The pieces of the current line, kept only while it is within the bound.
  let parts: Buffer[] = [];
  let bytes = 0;
  const take = (piece: Buffer): void => {
    bytes += piece.length;
    if (bytes <= maxBytes) parts.push(piece);
    else parts = [];
  };
  const line = (): { text: string; bytes: number } | { text: undefined; bytes: number } => {
    const done = bytes > maxBytes ? { text: undefined, bytes } : { text: Buffer.concat(parts).toString('utf8'), bytes };
    parts = [];
    bytes = 0;
    return done;
  };
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    let from = 0;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, from)) {
      take(chunk.subarray(from, at));
      yield line();
      from = at + 1;
    }
    take(chunk.subarray(from));
  }
  if (bytes > 0) yield line();
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
  maxBytes = MAX_LEDGER_BYTES,
): AsyncGenerator<FileLedger> {
  for (const file of files) {
    if (extname(file) === '.ndjson') {
      let line = 0;
      for await (const { text, bytes } of boundedLines(file, maxBytes)) {
        line += 1;
        if (text === undefined) {
          onError({
            file,
            line,
            message: `a line of ${bytes} bytes, more than any ledger (${MAX_LEDGER_BYTES} at most)`,
          });
          continue;
        }
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
    const size = statSync(file).size;
    if (size > maxBytes) {
      onError({ file, message: `a file of ${size} bytes, more than any ledger (${maxBytes} at most)` });
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
