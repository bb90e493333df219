import { stringify as stringifyCsv } from 'csv-stringify/sync';
import { Encoder } from 'cbor-x';
import { stringify as stringifyYaml } from 'yaml';
import type { Column } from '../sql/plan.js';
import { SmileWriter, type SmileValue } from './smile.js';

export const FORMATS = ['csv', 'json', 'tsv', 'txt', 'text', 'yaml', 'cbor', 'smile'] as const;
export type Format = (typeof FORMATS)[number];

/** Media types, as Elasticsearch SQL sends them. */
export const MEDIA_TYPES: Record<Format, string> = {
  csv: 'text/csv; charset=utf-8; header=present',
  tsv: 'text/tab-separated-values; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  text: 'text/plain; charset=utf-8',
  json: 'application/json; charset=utf-8',
  yaml: 'application/yaml',
  cbor: 'application/cbor',
  smile: 'application/smile',
};

/** `Accept` media type → format. */
const ACCEPTED: Record<string, Format> = {
  'text/csv': 'csv',
  'text/tab-separated-values': 'tsv',
  'text/plain': 'txt',
  'application/json': 'json',
  'application/yaml': 'yaml',
  'application/x-yaml': 'yaml',
  'text/yaml': 'yaml',
  'application/cbor': 'cbor',
  'application/smile': 'smile',
  'application/x-jackson-smile': 'smile',
};

/** The first format an `Accept` header lists that we serve, if any (pure). */
export function formatFromAccept(accept: string | undefined): Format | undefined {
  if (accept === undefined) return undefined;
  for (const part of accept.split(',')) {
    const type = (part.split(';')[0] ?? '').trim().toLowerCase();
    const format = ACCEPTED[type];
    if (format !== undefined) return format;
  }
  return undefined;
}

/**
 * Writes one result set as a stream: `start` once with the columns (and the first page, which
 * fixes txt column widths), `rows` per page, `end` with the cursor when more pages remain.
 * A continuation page (from a cursor) skips the header, as Elasticsearch SQL does.
 */
export interface ResultWriter {
  start(columns: readonly Column[], firstRows: readonly unknown[][]): Buffer;
  rows(rows: readonly unknown[][]): Buffer;
  end(cursor?: string): Buffer;
  /** What a continuation needs to render like the first page (txt widths). */
  carry(): unknown;
}

const utf8 = (text: string): Buffer => Buffer.from(text, 'utf8');

/** Text of a value in csv, tsv and txt: empty for null, JSON for arrays and objects. */
export function textOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

class DelimitedWriter implements ResultWriter {
  constructor(
    private readonly delimiter: string,
    private readonly continuation: boolean,
  ) {}
  private lines(rows: readonly unknown[][]): string {
    if (rows.length === 0) return '';
    return stringifyCsv(
      rows.map((r) => r.map(textOf)),
      { delimiter: this.delimiter, record_delimiter: 'windows' },
    );
  }
  start(columns: readonly Column[]): Buffer {
    return this.continuation ? utf8('') : utf8(this.lines([columns.map((c) => c.name)]));
  }
  rows(rows: readonly unknown[][]): Buffer {
    return utf8(this.lines(rows));
  }
  end(): Buffer {
    return utf8('');
  }
  carry(): unknown {
    return undefined;
  }
}

/** Elasticsearch SQL's text table: columns at least 15 wide, centred headers, `|` between cells. */
export const MIN_COLUMN_WIDTH = 15;

class TextWriter implements ResultWriter {
  private widths: number[];
  constructor(widths?: number[]) {
    this.widths = widths ?? [];
  }
  start(columns: readonly Column[], firstRows: readonly unknown[][]): Buffer {
    if (this.widths.length > 0) return utf8('');
    this.widths = columns.map((c, i) => {
      let width = Math.max(MIN_COLUMN_WIDTH, c.name.length);
      for (const row of firstRows) width = Math.max(width, row[i] === null ? 4 : textOf(row[i]).length);
      return width;
    });
    const header = columns
      .map((c, i) => {
        const width = this.widths[i] as number;
        const left = Math.floor((width - c.name.length) / 2);
        return ' '.repeat(left) + c.name + ' '.repeat(width - left - c.name.length);
      })
      .join('|');
    const rule = this.widths.map((w) => '-'.repeat(w)).join('+');
    return utf8(`${header}\n${rule}\n`);
  }
  rows(rows: readonly unknown[][]): Buffer {
    let out = '';
    for (const row of rows) {
      out += `${row
        .map((v, i) => {
          const width = this.widths[i] ?? MIN_COLUMN_WIDTH;
          // Elasticsearch SQL's table spells null out; csv and tsv leave the cell empty.
          const text = v === null || v === undefined ? 'null' : textOf(v);
          return text.length > width ? `${text.slice(0, width - 1)}~` : text.padEnd(width);
        })
        .join('|')}\n`;
    }
    return utf8(out);
  }
  end(): Buffer {
    return utf8('');
  }
  carry(): unknown {
    return this.widths;
  }
}

/** `{"columns": [...], "rows": [...], "cursor": "..."}`, written as it streams. */
class JsonWriter implements ResultWriter {
  private first = true;
  constructor(private readonly continuation: boolean) {}
  start(columns: readonly Column[]): Buffer {
    return utf8(this.continuation ? '{"rows":[' : `{"columns":${JSON.stringify(columns)},"rows":[`);
  }
  rows(rows: readonly unknown[][]): Buffer {
    let out = '';
    for (const row of rows) {
      out += (this.first ? '' : ',') + JSON.stringify(row);
      this.first = false;
    }
    return utf8(out);
  }
  end(cursor?: string): Buffer {
    return utf8(cursor === undefined ? ']}' : `],"cursor":${JSON.stringify(cursor)}}`);
  }
  carry(): unknown {
    return undefined;
  }
}

/** The same document in YAML: each row one flow-style sequence under `rows`. */
class YamlWriter implements ResultWriter {
  private any = false;
  constructor(private readonly continuation: boolean) {}
  start(columns: readonly Column[]): Buffer {
    return utf8(this.continuation ? 'rows:\n' : `${stringifyYaml({ columns: columns.map((c) => ({ ...c })) })}rows:\n`);
  }
  rows(rows: readonly unknown[][]): Buffer {
    let out = '';
    for (const row of rows) {
      out += `  - ${stringifyYaml(row, { collectionStyle: 'flow', lineWidth: 0 }).trimEnd()}\n`;
      this.any = true;
    }
    return utf8(out);
  }
  end(cursor?: string): Buffer {
    // An empty block sequence is not YAML: no rows is written as `rows: []` by re-keying.
    const empty = this.any ? '' : '  []\n';
    return utf8(empty + (cursor === undefined ? '' : stringifyYaml({ cursor })));
  }
  carry(): unknown {
    return undefined;
  }
}

/** CBOR: an indefinite-length map and rows array (RFC 8949 §3.2.2), so it can stream. */
class CborWriter implements ResultWriter {
  private readonly encoder = new Encoder({ useRecords: false, mapsAsObjects: true, pack: false });
  constructor(private readonly continuation: boolean) {}
  start(columns: readonly Column[]): Buffer {
    const parts: Buffer[] = [Buffer.from([0xbf])];
    if (!this.continuation)
      parts.push(this.encoder.encode('columns'), this.encoder.encode(columns.map((c) => ({ ...c }))));
    parts.push(this.encoder.encode('rows'), Buffer.from([0x9f]));
    return Buffer.concat(parts);
  }
  rows(rows: readonly unknown[][]): Buffer {
    return Buffer.concat(rows.map((r) => this.encoder.encode(r)));
  }
  end(cursor?: string): Buffer {
    const parts: Buffer[] = [Buffer.from([0xff])];
    if (cursor !== undefined) parts.push(this.encoder.encode('cursor'), this.encoder.encode(cursor));
    parts.push(Buffer.from([0xff]));
    return Buffer.concat(parts);
  }
  carry(): unknown {
    return undefined;
  }
}

class SmileResultWriter implements ResultWriter {
  private readonly writer = new SmileWriter();
  constructor(private readonly continuation: boolean) {}
  start(columns: readonly Column[]): Buffer {
    const parts = [this.writer.header(), this.writer.startObject()];
    if (!this.continuation)
      parts.push(this.writer.key('columns'), this.writer.value(columns.map((c) => ({ name: c.name, type: c.type }))));
    parts.push(this.writer.key('rows'), this.writer.startArray());
    return Buffer.concat(parts);
  }
  rows(rows: readonly unknown[][]): Buffer {
    return Buffer.concat(rows.map((r) => this.writer.value(r as SmileValue)));
  }
  end(cursor?: string): Buffer {
    const parts = [this.writer.endArray()];
    if (cursor !== undefined) parts.push(this.writer.key('cursor'), this.writer.value(cursor));
    parts.push(this.writer.endObject());
    return Buffer.concat(parts);
  }
  carry(): unknown {
    return undefined;
  }
}

/** A writer for one response; `carried` is what the previous page's writer carried (txt widths). */
export function createWriter(format: Format, continuation = false, carried?: unknown): ResultWriter {
  switch (format) {
    case 'csv':
      return new DelimitedWriter(',', continuation);
    case 'tsv':
      return new DelimitedWriter('\t', continuation);
    case 'txt':
    case 'text':
      return new TextWriter(Array.isArray(carried) ? (carried as number[]) : undefined);
    case 'json':
      return new JsonWriter(continuation);
    case 'yaml':
      return new YamlWriter(continuation);
    case 'cbor':
      return new CborWriter(continuation);
    case 'smile':
      return new SmileResultWriter(continuation);
  }
}
