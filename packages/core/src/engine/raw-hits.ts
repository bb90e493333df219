/**
 * Reading a search answer's hits without parsing their documents: the bytes of each hit's
 * `_source` are found by scanning the answer (JSON structure only: braces, brackets and strings
 * with their escapes), so a document goes to an export exactly as the engine stored it, without
 * a parse and a serialisation per document. Pure.
 *
 * Expects the answer of a search with `filter_path=RAW_HITS_FILTER`:
 * `{"pit_id":"…","_shards":{"failed":0},"hits":{"hits":[{"_source":{…},"sort":[…]},…]}}` (keys
 * in any order, any whitespace).
 */

/** The `filter_path` of a search whose answer readRawHits reads. */
export const RAW_HITS_FILTER = 'pit_id,timed_out,_shards.failed,hits.hits._source,hits.hits.sort';

export interface RawHit {
  /** The `_source` object's bytes, braces included. */
  source: Buffer;
  /** The hit's sort values. */
  sort: unknown[];
}

export interface RawHits {
  pitId: string | undefined;
  /** Shards that failed to answer (`_shards.failed`). */
  failedShards: number;
  /** Whether a shard ran out of the search's time (`timed_out`): its hits may be missing. */
  timedOut: boolean;
  hits: RawHit[];
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

class RawJsonError extends Error {
  constructor(message: string, at: number) {
    super(`not the search answer expected: ${message} at byte ${at}`);
    this.name = 'RawJsonError';
  }
}

const isSpace = (byte: number | undefined): boolean => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

function skipSpace(buf: Buffer, at: number): number {
  while (isSpace(buf[at])) at += 1;
  return at;
}

/** Index after the string that starts at `at` (a quote). */
function skipString(buf: Buffer, at: number): number {
  for (let i = at + 1; i < buf.length; i += 1) {
    const byte = buf[i];
    if (byte === BACKSLASH) i += 1;
    else if (byte === QUOTE) return i + 1;
  }
  throw new RawJsonError('unterminated string', at);
}

/** Index after the JSON value that starts at `at`. */
function skipValue(buf: Buffer, at: number): number {
  const first = buf[at];
  if (first === QUOTE) return skipString(buf, at);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    // A number, true, false or null: up to the next delimiter.
    let i = at;
    while (i < buf.length && buf[i] !== COMMA && buf[i] !== CLOSE_BRACE && buf[i] !== CLOSE_BRACKET && !isSpace(buf[i]))
      i += 1;
    if (i === at) throw new RawJsonError('a value expected', at);
    return i;
  }
  let depth = 0;
  for (let i = at; i < buf.length; i += 1) {
    const byte = buf[i];
    if (byte === QUOTE) i = skipString(buf, i) - 1;
    else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth += 1;
    else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  throw new RawJsonError('unterminated object or array', at);
}

/** Calls `onMember(key, valueStart)` for each member of the object at `at`; returns the index after it. */
function members(buf: Buffer, at: number, onMember: (key: string, value: number) => number): number {
  let i = skipSpace(buf, at);
  if (buf[i] !== OPEN_BRACE) throw new RawJsonError('an object expected', i);
  i = skipSpace(buf, i + 1);
  if (buf[i] === CLOSE_BRACE) return i + 1;
  for (;;) {
    if (buf[i] !== QUOTE) throw new RawJsonError('a key expected', i);
    const keyEnd = skipString(buf, i);
    const key = buf.toString('utf8', i + 1, keyEnd - 1);
    i = skipSpace(buf, keyEnd);
    if (buf[i] !== COLON) throw new RawJsonError('a colon expected', i);
    i = skipSpace(buf, onMember(key, skipSpace(buf, i + 1)));
    if (buf[i] === COMMA) i = skipSpace(buf, i + 1);
    else if (buf[i] === CLOSE_BRACE) return i + 1;
    else throw new RawJsonError('a comma or a closing brace expected', i);
  }
}

/** Calls `onItem(start)` for each item of the array at `at`; returns the index after it. */
function items(buf: Buffer, at: number, onItem: (start: number) => number): number {
  let i = skipSpace(buf, at);
  if (buf[i] !== OPEN_BRACKET) throw new RawJsonError('an array expected', i);
  i = skipSpace(buf, i + 1);
  if (buf[i] === CLOSE_BRACKET) return i + 1;
  for (;;) {
    i = skipSpace(buf, onItem(i));
    if (buf[i] === COMMA) i = skipSpace(buf, i + 1);
    else if (buf[i] === CLOSE_BRACKET) return i + 1;
    else throw new RawJsonError('a comma or a closing bracket expected', i);
  }
}

/** The point in time and the hits of a filtered search answer, each `_source` as its own bytes. */
export function readRawHits(buf: Buffer): RawHits {
  const result: RawHits = { pitId: undefined, failedShards: 0, timedOut: false, hits: [] };
  members(buf, 0, (key, value) => {
    if (key === 'pit_id' || key === '_shards' || key === 'timed_out') {
      const end = skipValue(buf, value);
      const parsed = JSON.parse(buf.toString('utf8', value, end)) as unknown;
      if (key === 'pit_id') result.pitId = parsed as string;
      else if (key === 'timed_out') result.timedOut = parsed === true;
      else result.failedShards = Number((parsed as { failed?: number }).failed ?? 0);
      return end;
    }
    if (key !== 'hits') return skipValue(buf, value);
    return members(buf, value, (inner, list) => {
      if (inner !== 'hits') return skipValue(buf, list);
      return items(buf, list, (start) => {
        let source: Buffer | undefined;
        let sort: unknown[] = [];
        const end = members(buf, start, (field, at) => {
          const after = skipValue(buf, at);
          if (field === '_source') source = buf.subarray(at, after);
          else if (field === 'sort') sort = JSON.parse(buf.toString('utf8', at, after)) as unknown[];
          return after;
        });
        if (source === undefined) throw new RawJsonError('a hit without _source', start);
        result.hits.push({ source, sort });
        return end;
      });
    });
  });
  return result;
}

/** A document's bytes with one more member appended (`value` already JSON), as one NDJSON line. */
export function lineWithMember(source: Buffer, key: string, value: string): Buffer {
  if (source[0] !== OPEN_BRACE) throw new RawJsonError('a document that is not an object', 0);
  // The source is an object: its closing brace is its last byte (the engine writes no trailing space).
  let close = source.length - 1;
  while (close > 0 && source[close] !== CLOSE_BRACE) close -= 1;
  let open = close - 1;
  while (open > 0 && isSpace(source[open])) open -= 1;
  const empty = source[open] === OPEN_BRACE;
  const tail = `${empty ? '' : ','}${JSON.stringify(key)}:${value}}\n`;
  return Buffer.concat([source.subarray(0, close), Buffer.from(tail)]);
}
