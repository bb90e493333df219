import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { listFixtureLedgers, readFixture } from '@xle/test-helpers';
import { listLedgerFiles, readLedgerFiles, type FileError } from '../../src/index.js';

/**
 * Ledger files as an operator hands them over: NDJSON with a line far too long to be a ledger is
 * reported and skipped (never held whole), the ledgers around it still read; a folder's dangling
 * symlink is reported and skipped; a path that does not exist is a plain refusal.
 */
const dir = mkdtempSync(join(tmpdir(), 'ledger-files-'));
const oneLine = JSON.stringify(readFixture(listFixtureLedgers()[0] as string));
const ledgerText = oneLine;

t.test('an NDJSON line longer than any ledger is skipped and said; the others are read', async (t) => {
  const file = join(dir, 'ledgers.ndjson');
  const huge = `{"padding":"${'x'.repeat(oneLine.length * 3)}"}`;
  writeFileSync(file, `${oneLine}\n${huge}\r\n\n${oneLine}\n`);
  const errors: FileError[] = [];
  const read = [];
  for await (const item of readLedgerFiles([file], (e) => errors.push(e), oneLine.length + 10)) read.push(item);
  t.equal(read.length, 2, 'the two ledgers around it');
  t.same(
    read.map((r) => r.line),
    [1, 4],
  );
  t.equal(errors.length, 1);
  t.match(errors[0], { file, line: 2, message: /a line of \d+ bytes, more than any ledger/ });
  // The same file with room for every line: three entries, the padding one not a ledger.
  const roomy: FileError[] = [];
  let count = 0;
  for await (const _ of readLedgerFiles([file], (e) => roomy.push(e))) count += 1;
  t.equal(count, 2);
  t.equal(roomy.length, 1, 'the padding line is not a ledger');
});

t.test("a folder's dangling symlink is skipped and said; a missing path is refused in words", async (t) => {
  const folder = join(dir, 'folder');
  mkdtempSync(join(dir, 'x-'));
  writeFileSync(join(dir, 'solo.json'), ledgerText);
  const nested = mkdtempSync(join(dir, 'nested-'));
  writeFileSync(join(nested, 'a.json'), ledgerText);
  symlinkSync(join(dir, 'nothing-here.json'), join(nested, 'broken.json'));
  const skipped: string[] = [];
  const files = listLedgerFiles(nested, (file, reason) => skipped.push(`${file}: ${reason}`));
  t.same(files, [join(nested, 'a.json')]);
  t.match(skipped, [/broken\.json: a link to nothing/]);
  t.throws(() => listLedgerFiles(folder), { code: 'NOT_FOUND', message: /no such file or folder/ });
});
