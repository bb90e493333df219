/**
 * A streaming Smile encoder: Jackson's binary JSON format, written against the Smile format
 * specification 1.0.7 (https://github.com/FasterXML/smile-format-specification, file
 * `smile-specification.md`; "§" below names its sections). Where the text leaves room, the
 * choices follow Jackson's `SmileGenerator` (jackson-dataformats-binary), the reference codec, so
 * that Jackson and other Jackson-compatible decoders read back exactly what was written.
 *
 * `SmileWriter` returns each token (or whole value) as its own chunk, so a caller can stream a
 * document of any size: the back-reference tables live in the writer, and chunks written in order
 * form one valid document.
 *
 * ```ts
 * const w = new SmileWriter();
 * w.header();         // 3a 29 0a 01     ":)\n", version 0, shared property names on
 * w.startArray();     // f8
 * w.value({ a: 1 });  // fa 80 61 c2 fb  object, short ASCII name "a", small int 1 (zigzag 2)
 * w.value({ a: 2 });  // fa 40 c4 fb     the name is now back reference #0
 * w.endArray();       // f9
 * ```
 *
 * Choices worth knowing:
 * - numbers: safe integers are written as small int (-16..15), 32-bit int or 64-bit long, the
 *   shortest that holds them; every other number, including -0 (to keep its sign), NaN and
 *   ±Infinity, as a 64-bit double: Jackson writes NaN and Infinity as doubles too, since the
 *   format can carry them (JSON text cannot).
 * - bigint: as int or long when it fits in 64 bits, else as BigInteger (two's complement).
 * - strings: UTF-8, which cannot carry a lone surrogate: it becomes U+FFFD, as Node encodes it.
 * - objects: their own enumerable string keys (`Object.keys`); `undefined`, functions and
 *   symbols are rejected with a TypeError rather than dropped. After any error the writer refuses
 *   further use, since its tables may hold names the reader never received.
 */

export interface SmileOptions {
  /** Write repeated property names as back references (header bit 0). Default true, as in Jackson. */
  sharedPropertyNames?: boolean;
  /** Write repeated short string values as back references (header bit 1). Default false, as in Jackson. */
  sharedStringValues?: boolean;
}

export type SmileValue =
  null | boolean | number | bigint | string | readonly SmileValue[] | { readonly [k: string]: SmileValue };

// §"High-level format": ':' ')' '\n', then version (4 MSB, 0) and flags.
const HEADER_PREFIX = [0x3a, 0x29, 0x0a] as const;
const HEADER_SHARED_NAMES = 0x01;
const HEADER_SHARED_VALUES = 0x02;

// §"Tokens: value mode".
const TOKEN_EMPTY_STRING = 0x20;
const TOKEN_NULL = 0x21;
const TOKEN_FALSE = 0x22;
const TOKEN_TRUE = 0x23;
const TOKEN_INT32 = 0x24;
const TOKEN_INT64 = 0x25;
const TOKEN_BIG_INTEGER = 0x26;
const TOKEN_FLOAT64 = 0x29;
const PREFIX_TINY_ASCII = 0x40; // 1-32 bytes, 5 LSB = length - 1
const PREFIX_SHORT_ASCII = 0x60; // 33-64 bytes, 5 LSB = length - 33
const PREFIX_TINY_UNICODE = 0x80; // 2-33 bytes, 5 LSB = length - 2
const PREFIX_SHORT_UNICODE = 0xa0; // 34-65 bytes, 5 LSB = length - 34
const PREFIX_SMALL_INT = 0xc0; // 5 LSB = zigzag(-16..15)
const TOKEN_LONG_ASCII = 0xe0;
const TOKEN_LONG_UNICODE = 0xe4;
const PREFIX_SHARED_VALUE_LONG = 0xec; // 2 LSB = index bits 9-8, next byte = bits 7-0
const TOKEN_START_ARRAY = 0xf8;
const TOKEN_END_ARRAY = 0xf9;
const TOKEN_START_OBJECT = 0xfa;
const TOKEN_END_OBJECT = 0xfb; // only valid in key mode
const END_OF_STRING = 0xfc;

// §"Tokens: key mode".
const KEY_EMPTY_STRING = 0x20;
const PREFIX_KEY_SHARED_LONG = 0x30; // 2 LSB = index bits 9-8, next byte = bits 7-0
const KEY_LONG_NAME = 0x34;
const PREFIX_KEY_SHARED_SHORT = 0x40; // index 0-63
const PREFIX_KEY_ASCII = 0x80; // 1-64 bytes, 6 LSB = length - 1
const PREFIX_KEY_UNICODE = 0xc0; // 2-57 bytes, 6 LSB = length - 2

/** Strings of up to this many UTF-8 bytes have a length-prefixed form (and values can be shared). */
const MAX_SHORT_BYTES = 64;
/**
 * Non-ASCII names longer than this are written as long names. The key-mode table allows up to 57
 * bytes (0xF7), and says 56-57 may go either way; 56 is Jackson's `MAX_SHORT_NAME_UNICODE_BYTES`.
 */
const MAX_SHORT_UNICODE_NAME_BYTES = 56;
/** §"Shared value Strings": references are 10 bits, so each table holds 1024 entries. */
const MAX_SHARED_ENTRIES = 1024;

const INT32_MIN = -0x80000000;
const INT32_MAX = 0x7fffffff;
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

const INITIAL_CAPACITY = 4096;
/** A chunk larger than this is not kept as the next call's scratch space. */
const MAX_RETAINED_CAPACITY = 1 << 20;

/**
 * One back-reference table (property names or string values), kept as §"Resolved Shared String
 * references" describes: entries are numbered in the order written, and when 1024 are in use the
 * table is emptied before the next one is added (a tumbling window, not a sliding one). Decoders
 * number every eligible string they read, so this table must number exactly the same strings.
 *
 * §"Avoiding references 0x??FE and 0x??FF": a long reference's second byte must not be 0xFE or
 * 0xFF, so entries at such indexes (254, 255, 510, 511, ...) are numbered but never looked up; a
 * later repeat of that string is written out in full and numbered again, as Jackson does.
 */
class SharedStrings {
  private readonly indexes = new Map<string, number>();
  private count = 0;

  find(text: string): number | undefined {
    return this.indexes.get(text);
  }

  add(text: string): void {
    if (this.count === MAX_SHARED_ENTRIES) {
      this.indexes.clear();
      this.count = 0;
    }
    if ((this.count & 0xff) < 0xfe) this.indexes.set(text, this.count);
    this.count += 1;
  }
}

/** What the innermost open structure expects next. */
type Frame = 'array-item' | 'object-key' | 'object-value';

const float64 = new DataView(new ArrayBuffer(8));

/** A stateful Smile writer: each method returns the bytes of what it wrote. */
export class SmileWriter {
  private readonly names: SharedStrings | undefined;
  private readonly values: SharedStrings | undefined;
  private readonly headerByte: number;
  private readonly frames: Frame[] = [];
  private buffer = Buffer.allocUnsafe(INITIAL_CAPACITY);
  private position = 0;
  private started = false;
  private failed = false;

  constructor(options: SmileOptions = {}) {
    const sharedNames = options.sharedPropertyNames ?? true;
    const sharedValues = options.sharedStringValues ?? false;
    this.names = sharedNames ? new SharedStrings() : undefined;
    this.values = sharedValues ? new SharedStrings() : undefined;
    this.headerByte = (sharedNames ? HEADER_SHARED_NAMES : 0) | (sharedValues ? HEADER_SHARED_VALUES : 0);
  }

  /** The 4-byte header; once, before any token. */
  header(): Buffer {
    this.checkUsable();
    if (this.started) throw new Error('Smile header must come first and only once');
    this.started = true;
    return Buffer.from([...HEADER_PREFIX, this.headerByte]);
  }

  /** One complete value: at the root, as an array item, or after `key`. */
  value(value: SmileValue): Buffer {
    return this.write(() => {
      this.beforeValue();
      this.writeValue(value);
    });
  }

  startObject(): Buffer {
    return this.open('object-key', TOKEN_START_OBJECT);
  }

  key(name: string): Buffer {
    return this.write(() => {
      if (this.frames.at(-1) !== 'object-key') throw new Error('Smile key written outside an object or twice');
      this.frames[this.frames.length - 1] = 'object-value';
      this.writeKey(name);
    });
  }

  endObject(): Buffer {
    return this.close('object-key', TOKEN_END_OBJECT, 'Smile object ended outside an object or after a key');
  }

  startArray(): Buffer {
    return this.open('array-item', TOKEN_START_ARRAY);
  }

  endArray(): Buffer {
    return this.close('array-item', TOKEN_END_ARRAY, 'Smile array ended outside an array');
  }

  /** Starts an object or array where a value may stand. */
  private open(frame: 'object-key' | 'array-item', token: number): Buffer {
    return this.write(() => {
      this.beforeValue();
      this.frames.push(frame);
      this.writeByte(token);
    });
  }

  /** Ends the innermost object or array; `misplaced` is the error when it is not the one open. */
  private close(frame: 'object-key' | 'array-item', token: number, misplaced: string): Buffer {
    return this.write(() => {
      if (this.frames.at(-1) !== frame) throw new Error(misplaced);
      this.frames.pop();
      this.writeByte(token);
    });
  }

  private checkUsable(): void {
    if (this.failed) throw new Error('SmileWriter is unusable after an earlier error');
  }

  /** Runs one public operation and hands back its bytes; any error poisons the writer. */
  private write(operation: () => void): Buffer {
    this.checkUsable();
    if (!this.started) {
      // Without a header a decoder assumes shared values are off (§"High-level format"), so
      // value back references would be misread.
      if (this.values !== undefined) throw new Error('Smile header is required when string values are shared');
      this.started = true;
    }
    try {
      operation();
    } catch (error) {
      this.failed = true;
      this.position = 0;
      throw error;
    }
    return this.take();
  }

  private beforeValue(): void {
    const frame = this.frames.at(-1);
    if (frame === 'object-key') throw new Error('Smile value written where an object expects a key');
    if (frame === 'object-value') this.frames[this.frames.length - 1] = 'object-key';
  }

  private take(): Buffer {
    const chunk = Buffer.allocUnsafe(this.position);
    this.buffer.copy(chunk, 0, 0, this.position);
    this.position = 0;
    if (this.buffer.length > MAX_RETAINED_CAPACITY) this.buffer = Buffer.allocUnsafe(INITIAL_CAPACITY);
    return chunk;
  }

  private reserve(bytes: number): void {
    const needed = this.position + bytes;
    if (needed <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(needed, this.buffer.length * 2));
    this.buffer.copy(grown, 0, 0, this.position);
    this.buffer = grown;
  }

  private writeByte(byte: number): void {
    this.reserve(1);
    this.buffer[this.position++] = byte;
  }

  private writeValue(value: unknown): void {
    switch (typeof value) {
      case 'string':
        this.writeString(value);
        return;
      case 'number':
        this.writeNumber(value);
        return;
      case 'boolean':
        this.writeByte(value ? TOKEN_TRUE : TOKEN_FALSE);
        return;
      case 'bigint':
        this.writeBigInt(value);
        return;
      case 'object':
        if (value === null) {
          this.writeByte(TOKEN_NULL);
        } else if (Array.isArray(value)) {
          this.writeByte(TOKEN_START_ARRAY);
          for (const item of value as readonly unknown[]) this.writeValue(item);
          this.writeByte(TOKEN_END_ARRAY);
        } else {
          const record = value as Readonly<Record<string, unknown>>;
          this.writeByte(TOKEN_START_OBJECT);
          for (const name of Object.keys(record)) {
            this.writeKey(name);
            this.writeValue(record[name]);
          }
          this.writeByte(TOKEN_END_OBJECT);
        }
        return;
      default:
        throw new TypeError(`Smile cannot encode a value of type ${typeof value}`);
    }
  }

  /**
   * §"Tokens: key mode". Names of 1-64 ASCII bytes or 2-56 other UTF-8 bytes carry their length
   * in the token; longer ones are 0x34, the bytes, 0xFC. Every non-empty name, long ones
   * included, takes a table entry: the key table calls 0x34 a "not-yet-shared" name, and Jackson
   * numbers long names when writing and reading alike.
   */
  private writeKey(name: string): void {
    if (this.writeEmptyOrShared(name, KEY_EMPTY_STRING, this.names, (index) => this.writeSharedKey(index))) return;
    const { start, length, ascii } = this.writeUtf8(name);
    if (ascii && length <= MAX_SHORT_BYTES) {
      this.buffer[start] = PREFIX_KEY_ASCII + length - 1;
      this.position = start + 1 + length;
    } else if (!ascii && length <= MAX_SHORT_UNICODE_NAME_BYTES) {
      this.buffer[start] = PREFIX_KEY_UNICODE + length - 2;
      this.position = start + 1 + length;
    } else {
      this.buffer[start] = KEY_LONG_NAME;
      this.buffer[start + 1 + length] = END_OF_STRING;
      this.position = start + 2 + length;
    }
    this.names?.add(name);
  }

  /**
   * The empty string is a token of its own; a string already in the shared table is written as
   * its reference. True when one of them was written.
   */
  private writeEmptyOrShared(
    text: string,
    emptyToken: number,
    table: { find(text: string): number | undefined } | undefined,
    writeReference: (index: number) => void,
  ): boolean {
    if (text.length === 0) {
      this.writeByte(emptyToken);
      return true;
    }
    const index = table?.find(text);
    if (index === undefined) return false;
    writeReference(index);
    return true;
  }

  /** `text` as UTF-8 after one byte left for its token (and room for an end marker). */
  private writeUtf8(text: string): { start: number; length: number; ascii: boolean } {
    this.reserve(2 + text.length * 3);
    const start = this.position;
    const length = this.buffer.write(text, start + 1, 'utf8');
    return { start, length, ascii: length === text.length };
  }

  /** Indexes 0-63 fit in one byte (0x40-0x7F); the rest take 0x30-0x33 plus the low byte. */
  private writeSharedKey(index: number): void {
    if (index < 64) {
      this.writeByte(PREFIX_KEY_SHARED_SHORT + index);
    } else {
      this.reserve(2);
      this.buffer[this.position++] = PREFIX_KEY_SHARED_LONG | (index >> 8);
      this.buffer[this.position++] = index & 0xff;
    }
  }

  /**
   * §"Token classes: Tiny/Short ASCII/Unicode" and 0xE0/0xE4 long text. Short Unicode could
   * carry 65 bytes, but only strings of up to 64 bytes may be shared (§"Shared value Strings")
   * and Jackson's reader numbers every length-prefixed string it reads: a 65-byte one is written
   * as long text, as Jackson does, so that every reader numbers the same strings.
   */
  private writeString(text: string): void {
    // UTF-8 never takes fewer bytes than UTF-16 code units, so longer strings cannot be shared.
    const shared = text.length <= MAX_SHORT_BYTES ? this.values : undefined;
    if (this.writeEmptyOrShared(text, TOKEN_EMPTY_STRING, shared, (index) => this.writeSharedValue(index))) return;
    const { start, length, ascii } = this.writeUtf8(text);
    if (length <= MAX_SHORT_BYTES) {
      this.buffer[start] = ascii
        ? length <= 32
          ? PREFIX_TINY_ASCII + length - 1
          : PREFIX_SHORT_ASCII + length - 33
        : length <= 33
          ? PREFIX_TINY_UNICODE + length - 2
          : PREFIX_SHORT_UNICODE + length - 34;
      this.position = start + 1 + length;
      this.values?.add(text);
    } else {
      // Long text is never shared (§0xE0/0xE4), and UTF-8 never contains 0xFC, the end marker.
      this.buffer[start] = ascii ? TOKEN_LONG_ASCII : TOKEN_LONG_UNICODE;
      this.buffer[start + 1 + length] = END_OF_STRING;
      this.position = start + 2 + length;
    }
  }

  /** Indexes 0-30 are 0x01-0x1F (0x00 is reserved); the rest take 0xEC-0xEF plus the low byte. */
  private writeSharedValue(index: number): void {
    if (index < 31) {
      this.writeByte(index + 1);
    } else {
      this.reserve(2);
      this.buffer[this.position++] = PREFIX_SHARED_VALUE_LONG | (index >> 8);
      this.buffer[this.position++] = index & 0xff;
    }
  }

  private writeNumber(value: number): void {
    if (Number.isSafeInteger(value) && !Object.is(value, -0)) this.writeSafeInteger(value);
    else this.writeFloat64(value);
  }

  /** Small int when zigzag fits 5 bits, else 0x24 (fits 32 bits) or 0x25, then the zigzag VInt. */
  private writeSafeInteger(value: number): void {
    if (value >= -16 && value <= 15) {
      this.writeByte(PREFIX_SMALL_INT + (value >= 0 ? value * 2 : -value * 2 - 1));
      return;
    }
    this.writeByte(value >= INT32_MIN && value <= INT32_MAX ? TOKEN_INT32 : TOKEN_INT64);
    // zigzag(v) = 2v for v >= 0, -2v - 1 below: up to 2^54 - 1, past exact doubles, so it is
    // computed already split as (zigzag >> 6, zigzag & 63), both exact.
    const magnitude = Math.abs(value);
    const rest = magnitude % 32;
    if (value >= 0) this.writeVInt(Math.floor(magnitude / 32), rest * 2);
    else if (rest === 0) this.writeVInt(magnitude / 32 - 1, 63);
    else this.writeVInt(Math.floor(magnitude / 32), rest * 2 - 1);
  }

  /**
   * §"Tokens: general" and Appendix A: an unsigned VInt is big-endian 7-bit groups with the MSB
   * clear, then a last byte with the MSB set and only 6 data bits (so it is never 0xC0-0xFF).
   * The value is `high * 64 + low6`; `high` must be a safe integer.
   */
  private writeVInt(high: number, low6: number): void {
    let groups = 0;
    for (let rest = high; rest > 0; rest = Math.floor(rest / 128)) groups += 1;
    this.reserve(groups + 1);
    let at = this.position + groups;
    this.buffer[at] = 0x80 | low6;
    for (let rest = high; rest > 0; rest = Math.floor(rest / 128)) this.buffer[--at] = rest % 128;
    this.position += groups + 1;
  }

  private writeBigInt(value: bigint): void {
    if (value >= Number.MIN_SAFE_INTEGER && value <= Number.MAX_SAFE_INTEGER) {
      this.writeSafeInteger(Number(value));
    } else if (value >= INT64_MIN && value <= INT64_MAX) {
      this.writeByte(TOKEN_INT64);
      let zigzag = value >= 0n ? value << 1n : (-value << 1n) - 1n;
      const bytes = [0x80 | Number(zigzag & 63n)];
      for (zigzag >>= 6n; zigzag > 0n; zigzag >>= 7n) bytes.push(Number(zigzag & 127n));
      this.writeBytes(bytes.reverse());
    } else {
      this.writeBigInteger(value);
    }
  }

  /**
   * 0x26 BigInteger: VInt byte count, then the bytes in 7-bit form. The bytes are the minimal
   * big-endian two's complement, what Jackson writes (Java's `BigInteger.toByteArray()`) and
   * reads, and what smile-js reads too; the spec's word "magnitude" would lose the sign.
   */
  private writeBigInteger(value: bigint): void {
    const negative = value < 0n;
    // A negative number's bytes are the inverted bytes of -value - 1.
    let hex = (negative ? -value - 1n : value).toString(16);
    if (hex.length % 2 === 1) hex = `0${hex}`;
    if (hex.charAt(0) >= '8') hex = `00${hex}`; // keep the sign bit clear before inverting
    const bytes = Buffer.from(hex, 'hex');
    if (negative) for (let i = 0; i < bytes.length; i++) bytes[i] = ~(bytes[i] ?? 0) & 0xff;
    this.writeByte(TOKEN_BIG_INTEGER);
    this.writeVInt(Math.floor(bytes.length / 64), bytes.length % 64);
    this.writeSevenBit(bytes);
  }

  /**
   * §"Tokens: general", "safe" binary: the bits MSB first in 7-bit groups, each in a byte with the
   * MSB clear; a last group of fewer than 7 bits sits in the low bits of its byte (spec 1.0.5).
   */
  private writeSevenBit(bytes: Uint8Array): void {
    this.reserve(Math.ceil((bytes.length * 8) / 7));
    let bits = 0;
    let pending = 0;
    for (const byte of bytes) {
      pending = (pending << 8) | byte;
      bits += 8;
      while (bits >= 7) {
        bits -= 7;
        this.buffer[this.position++] = (pending >> bits) & 0x7f;
      }
      pending &= (1 << bits) - 1;
    }
    if (bits > 0) this.buffer[this.position++] = pending;
  }

  /**
   * 0x29 double: the 64 IEEE bits, big-endian, right-aligned in ten 7-bit groups (1 + 9 * 7), so
   * no byte has its MSB set (§"Tokens: general", with the spec's -29.9510 example).
   */
  private writeFloat64(value: number): void {
    float64.setFloat64(0, value);
    const high = float64.getUint32(0);
    const low = float64.getUint32(4);
    this.reserve(11);
    const out = this.buffer;
    let at = this.position;
    out[at++] = TOKEN_FLOAT64;
    out[at++] = high >>> 31;
    out[at++] = (high >>> 24) & 0x7f;
    out[at++] = (high >>> 17) & 0x7f;
    out[at++] = (high >>> 10) & 0x7f;
    out[at++] = (high >>> 3) & 0x7f;
    out[at++] = ((high << 4) | (low >>> 28)) & 0x7f; // the group that straddles the two halves
    out[at++] = (low >>> 21) & 0x7f;
    out[at++] = (low >>> 14) & 0x7f;
    out[at++] = (low >>> 7) & 0x7f;
    out[at++] = low & 0x7f;
    this.position = at;
  }

  private writeBytes(bytes: readonly number[]): void {
    this.reserve(bytes.length);
    for (const byte of bytes) this.buffer[this.position++] = byte;
  }
}

/** A whole document: header, then `value`. */
export function encodeSmile(value: SmileValue, options?: SmileOptions): Buffer {
  const writer = new SmileWriter(options);
  return Buffer.concat([writer.header(), writer.value(value)]);
}
