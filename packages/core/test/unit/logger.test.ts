import { PassThrough } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import t from 'tap';
import { createLogger, type LogFormat } from '../../src/index.js';

/** What one info line looks like in a format, written to a stream that is a terminal or not. */
function lineOf(format: LogFormat, terminal: boolean): string {
  const out = new PassThrough();
  if (terminal) Object.assign(out, { isTTY: true });
  let text = '';
  out.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  createLogger('ingester', 'info', out, format).info({ ledger: 94084608 }, 'indexed');
  return text;
}

t.test('JSON for machines, readable lines for people', async (t) => {
  t.match(JSON.parse(lineOf('json', true)), { level: 'info', name: 'ingester', ledger: 94084608, msg: 'indexed' });
  t.match(JSON.parse(lineOf('auto', false)), { msg: 'indexed' }, 'auto, not a terminal: JSON');
  for (const [format, terminal] of [
    ['auto', true],
    ['pretty', false],
  ] as const) {
    // Colours on a terminal: the text between them is what is checked.
    const line = stripVTControlCharacters(lineOf(format, terminal));
    t.throws(() => JSON.parse(line), `${format} on ${terminal ? 'a terminal' : 'a pipe'}: not JSON`);
    t.match(line, /INFO.*\(ingester\).*indexed/);
    t.match(line, /ledger: 94084608/);
  }
  const plain = lineOf('pretty', false);
  t.equal(stripVTControlCharacters(plain), plain, 'no colours where no terminal reads them');
  const coloured = lineOf('auto', true);
  t.not(stripVTControlCharacters(coloured), coloured, 'colours on a terminal');
});
