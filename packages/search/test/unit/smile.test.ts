import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { parse } from 'smile-js';
import t from 'tap';
import { encodeSmile, SmileWriter, type SmileOptions, type SmileValue } from '../../src/formats/smile.js';

// The specification is https://github.com/FasterXML/smile-format-specification (1.0.7),
// `smile-specification.md`; "§" names its sections. Its only worked byte example is the
// -29.9510 double; the other expected bytes are read off its token tables by hand. When this
// file was written, jackson-dataformat-smile 2.18.2 decoded every document these tests build
// (and 3,000 generated ones) to the same values, and wrote the same bytes from the same data,
// except that it writes an ASCII string too long for its buffer as long Unicode (0xE4).
//
// smile-js 0.7.0 (a decoder only) is the independent check. Its quirks, found while writing these
// tests, and how they are worked around:
// - Its back-reference tables test membership with `name in {}`, so names and shared values such
//   as "toString" or "constructor" find Object.prototype members and are never numbered, and
//   a "__proto__" key never becomes an own property of the decoded object. The generated round
//   trips leave such strings out; a bytes test shows the encoder treats them like other names.
// - For the same reason it never numbers a string twice, while the spec (and Jackson) number
//   every name and shareable value read. A repeat is written in full only when its earlier entry
//   sits at an index that must not be referenced (§"Avoiding references 0x??FE and 0x??FF"),
//   so that case is covered by bytes.
// - It does not number long (0x34) names, which Jackson's reader and writer do; covered by bytes.
// - It returns integers outside the safe range as bigint and bigints inside it as numbers.

/** Bytes as spaced lower-case hex, for readable diffs. */
function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');
}

/** Hex of a document's body, after its 4-byte header. */
function bodyHex(value: SmileValue, options?: SmileOptions): string {
  return hex(encodeSmile(value, options).subarray(4));
}

/** Hex of a string's UTF-8 bytes. */
function utf8Hex(text: string): string {
  return hex(Buffer.from(text, 'utf8'));
}

/** What smile-js returns for `value`: integers in the safe range come back as numbers. */
function decodedForm(value: SmileValue): unknown {
  if (typeof value === 'bigint')
    return value >= Number.MIN_SAFE_INTEGER && value <= Number.MAX_SAFE_INTEGER ? Number(value) : value;
  if (Array.isArray(value)) return value.map((item: SmileValue) => decodedForm(item));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decodedForm(v)]));
  return value;
}

/** Names `${prefix}${from}` .. `${prefix}${to - 1}`. */
function names(prefix: string, from: number, to: number): string[] {
  return Array.from({ length: to - from }, (_, i) => `${prefix}${from + i}`);
}

/** An object with the given names, the i-th set to `value(i)`. */
function objectOf(keys: readonly string[], value: (i: number) => SmileValue = () => null): SmileValue {
  return Object.fromEntries(keys.map((k, i) => [k, value(i)]));
}

/** No 0xFD-0xFF byte may appear outside raw binary, which this encoder never writes (§"Low-level Format"). */
function hasReservedByte(bytes: Uint8Array): boolean {
  return bytes.some((b) => b >= 0xfd);
}

/** A writer inside a top-level array, after `first` was written into it (its names now shared). */
function arrayWriterAfter(first: SmileValue): SmileWriter {
  const w = new SmileWriter();
  w.header();
  w.startArray();
  w.value(first);
  return w;
}

t.test('bytes read off the specification', async (t) => {
  t.test('header: ":)\\n", version 0, flags', async (t) => {
    t.equal(hex(new SmileWriter().header()), '3a 29 0a 01', 'shared names by default, as Jackson');
    t.equal(hex(new SmileWriter({ sharedStringValues: true }).header()), '3a 29 0a 03');
    t.equal(hex(new SmileWriter({ sharedPropertyNames: false }).header()), '3a 29 0a 00');
  });

  t.test('literals', async (t) => {
    t.equal(bodyHex(null), '21');
    t.equal(bodyHex(false), '22');
    t.equal(bodyHex(true), '23');
    t.equal(bodyHex(''), '20');
    t.equal(bodyHex([]), 'f8 f9');
    t.equal(bodyHex({}), 'fa fb');
  });

  t.test('small ints: 0xC0 + zigzag', async (t) => {
    t.equal(bodyHex(0), 'c0');
    t.equal(bodyHex(-1), 'c1');
    t.equal(bodyHex(1), 'c2');
    t.equal(bodyHex(15), 'de');
    t.equal(bodyHex(-16), 'df');
  });

  t.test('32-bit ints: 0x24 + zigzag VInt, last byte 0x80 | 6 bits', async (t) => {
    t.equal(bodyHex(16), '24 a0');
    t.equal(bodyHex(-17), '24 a1');
    t.equal(bodyHex(31), '24 be');
    t.equal(bodyHex(32), '24 01 80', 'zigzag 64 needs a second byte');
    t.equal(bodyHex(2 ** 31 - 1), '24 1f 7f 7f 7f be');
    t.equal(bodyHex(-(2 ** 31)), '24 1f 7f 7f 7f bf');
    t.equal(bodyHex(5n), 'ca', 'a small bigint is a small int');
  });

  t.test('64-bit longs: 0x25 + zigzag VInt', async (t) => {
    t.equal(bodyHex(2 ** 31), '25 20 00 00 00 80');
    t.equal(bodyHex(-(2 ** 31) - 1), '25 20 00 00 00 81');
    t.equal(bodyHex(Number.MAX_SAFE_INTEGER), '25 3f 7f 7f 7f 7f 7f 7f be');
    t.equal(bodyHex(Number.MIN_SAFE_INTEGER), '25 3f 7f 7f 7f 7f 7f 7f bd');
    t.equal(bodyHex(2n ** 63n - 1n), '25 03 7f 7f 7f 7f 7f 7f 7f 7f be', '10 bytes for a full long');
    t.equal(bodyHex(-(2n ** 63n)), '25 03 7f 7f 7f 7f 7f 7f 7f 7f bf');
  });

  t.test('BigInteger: 0x26, VInt byte count, two’s complement in 7-bit groups', async (t) => {
    // 2^63 = 00 80 00 00 00 00 00 00 00 (9 bytes, sign byte first); 72 bits make ten 7-bit
    // groups and a last group of 2 bits, right-aligned (spec 1.0.5).
    t.equal(bodyHex(2n ** 63n), '26 89 00 20 00 00 00 00 00 00 00 00 00');
    t.equal(bodyHex(-(2n ** 63n) - 1n), '26 89 7f 5f 7f 7f 7f 7f 7f 7f 7f 7f 03');
    t.equal(bodyHex(2n ** 64n), '26 89 00 40 00 00 00 00 00 00 00 00 00');
  });

  t.test('doubles: 0x29 + 64 bits in ten 7-bit groups', async (t) => {
    t.equal(bodyHex(-29.951), '29 01 40 1e 7c 6e 4b 63 29 7d 7a', 'the specification’s own example');
    t.equal(bodyHex(29.951), '29 00 40 1e 7c 6e 4b 63 29 7d 7a');
    t.equal(bodyHex(0.5), '29 00 3f 70 00 00 00 00 00 00 00');
    t.equal(bodyHex(-0), '29 01 00 00 00 00 00 00 00 00 00', '-0 keeps its sign');
    t.equal(bodyHex(2 ** 53), '29 00 43 20 00 00 00 00 00 00 00', 'past the safe range: a double');
    t.equal(bodyHex(Number.POSITIVE_INFINITY), '29 00 7f 78 00 00 00 00 00 00 00');
    t.equal(bodyHex(Number.NEGATIVE_INFINITY), '29 01 7f 78 00 00 00 00 00 00 00');
    t.equal(bodyHex(Number.NaN), '29 00 7f 7c 00 00 00 00 00 00 00');
  });

  t.test('ASCII strings: tiny 0x40, short 0x60, long 0xE0 … 0xFC', async (t) => {
    t.equal(bodyHex('a'), '40 61');
    t.equal(bodyHex('x'.repeat(32)), `5f ${utf8Hex('x'.repeat(32))}`);
    t.equal(bodyHex('x'.repeat(33)), `60 ${utf8Hex('x'.repeat(33))}`);
    t.equal(bodyHex('x'.repeat(64)), `7f ${utf8Hex('x'.repeat(64))}`);
    t.equal(bodyHex('x'.repeat(65)), `e0 ${utf8Hex('x'.repeat(65))} fc`);
  });

  t.test('Unicode strings: tiny 0x80 (2-33 bytes), short 0xA0 (34-64), long 0xE4 … 0xFC', async (t) => {
    t.equal(bodyHex('é'), '80 c3 a9');
    t.equal(bodyHex('€'), '81 e2 82 ac');
    t.equal(bodyHex('😀'), '82 f0 9f 98 80', 'a surrogate pair is one 4-byte character');
    const of = (bytes: number): string => 'é'.repeat(Math.floor(bytes / 2)) + 'x'.repeat(bytes % 2);
    t.equal(bodyHex(of(33)), `9f ${utf8Hex(of(33))}`);
    t.equal(bodyHex(of(34)), `a0 ${utf8Hex(of(34))}`);
    t.equal(bodyHex(of(64)), `be ${utf8Hex(of(64))}`);
    // 0xBF (65 bytes) is never written: Jackson's reader would number it as a shareable value,
    // while the spec (and smile-js) share only strings of up to 64 bytes.
    t.equal(bodyHex(of(65)), `e4 ${utf8Hex(of(65))} fc`);
    t.equal(bodyHex('\ud800'), '81 ef bf bd', 'a lone surrogate becomes U+FFFD');
  });

  t.test('property names: short ASCII 0x80, short Unicode 0xC0, long 0x34 … 0xFC, empty 0x20', async (t) => {
    t.equal(bodyHex({ a: 1 }), 'fa 80 61 c2 fb');
    t.equal(bodyHex({ '': null }), 'fa 20 21 fb', 'the empty name has its own key token');
    t.equal(bodyHex({ [''.padEnd(64, 'k')]: null }), `fa bf ${utf8Hex('k'.repeat(64))} 21 fb`);
    t.equal(bodyHex({ [''.padEnd(65, 'k')]: null }), `fa 34 ${utf8Hex('k'.repeat(65))} fc 21 fb`);
    t.equal(bodyHex({ é: null }), 'fa c0 c3 a9 21 fb');
    const name56 = 'é'.repeat(28);
    const name57 = `${name56}x`;
    t.equal(bodyHex({ [name56]: null }), `fa f6 ${utf8Hex(name56)} 21 fb`, 'Jackson’s 56-byte limit');
    t.equal(bodyHex({ [name57]: null }), `fa 34 ${utf8Hex(name57)} fc 21 fb`);
  });

  t.test('names that smile-js mistakes for Object.prototype members are ordinary names', async (t) => {
    const value = JSON.parse('[{"__proto__":1,"toString":2},{"__proto__":3,"toString":4}]') as SmileValue;
    t.equal(bodyHex(value), `f8 fa 88 ${utf8Hex('__proto__')} c2 87 ${utf8Hex('toString')} c4 fb fa 40 c6 41 c8 fb f9`);
  });
});

t.test('shared property names (back references)', async (t) => {
  t.test('short reference: 0x40 + index', async (t) => {
    t.equal(bodyHex([{ a: 1 }, { a: 2 }]), 'f8 fa 80 61 c2 fb fa 40 c4 fb f9');
  });

  t.test('not written when disabled', async (t) => {
    t.equal(
      hex(encodeSmile([{ a: 1 }, { a: 2 }], { sharedPropertyNames: false })),
      '3a 29 0a 00 f8 fa 80 61 c2 fb fa 80 61 c4 fb f9',
    );
  });

  t.test('long reference: 0x30 | index >> 8, then the low byte', async (t) => {
    const w = arrayWriterAfter(objectOf(names('n', 0, 65)));
    t.equal(hex(w.value({ n63: null })), 'fa 7f 21 fb', 'index 63 is the last short one');
    t.equal(hex(w.value({ n64: null })), 'fa 30 40 21 fb');
  });

  t.test('indexes whose low byte is 0xFE or 0xFF are never referenced', async (t) => {
    const w = arrayWriterAfter(objectOf(names('n', 0, 256)));
    t.equal(hex(w.value({ n253: null })), 'fa 30 fd 21 fb');
    // n254 sits at index 0xFE: written again in full, it takes index 256 (0x100).
    t.equal(hex(w.value({ n254: null })), `fa 83 ${utf8Hex('n254')} 21 fb`);
    t.equal(hex(w.value({ n255: null })), `fa 83 ${utf8Hex('n255')} 21 fb`, 'index 257 (0x101)');
    t.equal(hex(w.value({ n254: null })), 'fa 31 00 21 fb');
    t.equal(hex(w.value({ n255: null })), 'fa 31 01 21 fb');
  });

  t.test('the table empties when a 1025th name is added', async (t) => {
    const w = arrayWriterAfter(objectOf(names('n', 0, 1024)));
    t.equal(hex(w.value({ n1000: null })), 'fa 33 e8 21 fb', 'all 1024 entries are still there');
    t.equal(hex(w.value({ x: null })), `fa 80 ${utf8Hex('x')} 21 fb`, 'x empties the table, then takes index 0');
    t.equal(hex(w.value({ x: null })), 'fa 40 21 fb');
    t.equal(hex(w.value({ n0: null })), `fa 81 ${utf8Hex('n0')} 21 fb`, 'n0 is gone and written again');
    t.equal(hex(w.value({ n0: null })), 'fa 41 21 fb');
  });

  t.test('long names are numbered and referenced too, as Jackson does', async (t) => {
    const long = 'k'.repeat(65);
    t.equal(bodyHex([{ [long]: 1 }, { [long]: 2 }]), `f8 fa 34 ${utf8Hex(long)} fc c2 fb fa 40 c4 fb f9`);
  });
});

t.test('shared string values (back references)', async (t) => {
  const shared = { sharedStringValues: true };

  t.test('off by default', async (t) => {
    t.equal(bodyHex(['abc', 'abc']), 'f8 42 61 62 63 42 61 62 63 f9');
  });

  t.test('short reference: index + 1, since 0x00 is reserved', async (t) => {
    t.equal(hex(encodeSmile(['abc', 'abc'], shared)), '3a 29 0a 03 f8 42 61 62 63 01 f9');
    const w = new SmileWriter(shared);
    w.header();
    w.startArray();
    w.value(Array.from({ length: 40 }, (_, i) => `v${i}`));
    t.equal(hex(w.value('v30')), '1f', 'index 30 is the last short one');
    t.equal(hex(w.value('v31')), 'ec 1f', 'then 0xEC | index >> 8, and the low byte');
  });

  t.test('only strings of 1-64 bytes are shared', async (t) => {
    t.equal(bodyHex(['', ''], shared), 'f8 20 20 f9');
    const x64 = 'x'.repeat(64);
    t.equal(bodyHex([x64, x64], shared), `f8 7f ${utf8Hex(x64)} 01 f9`);
    const x65 = 'x'.repeat(65);
    t.equal(bodyHex([x65, x65], shared), `f8 e0 ${utf8Hex(x65)} fc e0 ${utf8Hex(x65)} fc f9`);
    const u64 = 'é'.repeat(32);
    t.equal(bodyHex([u64, u64], shared), `f8 be ${utf8Hex(u64)} 01 f9`);
  });

  t.test('names and values have separate tables', async (t) => {
    t.equal(bodyHex({ a: 'a', b: 'a' }, shared), 'fa 80 61 40 61 80 62 01 fb');
  });

  t.test('indexes whose low byte is 0xFE or 0xFF are never referenced', async (t) => {
    const w = new SmileWriter(shared);
    w.header();
    w.startArray();
    w.value(Array.from({ length: 256 }, (_, i) => `v${i}`));
    t.equal(hex(w.value('v253')), 'ec fd');
    t.equal(hex(w.value('v254')), `43 ${utf8Hex('v254')}`, 'written in full, now index 256');
    t.equal(hex(w.value('v254')), 'ed 00');
  });

  t.test('the table empties when a 1025th value is added', async (t) => {
    const w = new SmileWriter(shared);
    w.header();
    w.startArray();
    w.value(Array.from({ length: 1024 }, (_, i) => `v${i}`));
    t.equal(hex(w.value('x')), `40 ${utf8Hex('x')}`);
    t.equal(hex(w.value('x')), '01');
    t.equal(hex(w.value('v0')), `41 ${utf8Hex('v0')}`);
  });
});

t.test('round trip through smile-js', async (t) => {
  const unicode = 'aé€😀'; // 1-, 2-, 3- and 4-byte UTF-8
  const cases: [string, SmileValue][] = [
    ['empty object', {}],
    ['empty array', []],
    ['nested', { a: [1, { b: [[], {}, [null]] }], c: { d: { e: 'f' } } }],
    ['literals', [null, true, false, '']],
    ['unicode', [unicode, unicode.repeat(10), '😀'.repeat(17), { [unicode]: unicode }]],
    ['string lengths', [0, 1, 31, 32, 33, 34, 63, 64, 65, 1000].map((n) => 'x'.repeat(n))],
    ['unicode lengths', [1, 16, 17, 32, 33, 500].map((n) => 'é'.repeat(n))],
    ['a long string', '€'.repeat(100_000)],
    ['a string past the retained scratch size', 'y'.repeat(3 * 1024 * 1024)],
    [
      'integers at every boundary',
      [
        0,
        -16,
        15,
        -17,
        16,
        2 ** 31 - 1,
        -(2 ** 31),
        2 ** 31,
        -(2 ** 31) - 1,
        2 ** 32,
        2 ** 53 - 1,
        -(2 ** 53 - 1),
        2 ** 53,
        -(2 ** 53),
        2 ** 64,
        1e21,
      ],
    ],
    ['doubles', [0.1, -0.1, 1.5, 29.951, -29.951, 5e-324, Number.MAX_VALUE, -Number.MIN_VALUE, 1 / 3]],
    ['non-finite doubles', [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]],
    [
      'bigints',
      [
        0n,
        -1n,
        2n ** 31n,
        2n ** 53n,
        -(2n ** 53n),
        2n ** 63n - 1n,
        -(2n ** 63n),
        2n ** 63n,
        -(2n ** 63n) - 1n,
        2n ** 64n,
        -(2n ** 64n),
        10n ** 40n,
        -(10n ** 40n) + 7n,
        255n << 100n,
      ],
    ],
    ['empty names', { '': { '': [''] } }],
  ];
  for (const [name, value] of cases) {
    t.test(name, async (t) => {
      for (const options of [{}, { sharedStringValues: true }, { sharedPropertyNames: false }]) {
        const bytes = encodeSmile(value, options);
        t.strictSame(parse(bytes), decodedForm(value), JSON.stringify(options));
        t.notOk(hasReservedByte(bytes), 'no 0xFD-0xFF byte');
      }
    });
  }

  t.test('-0 keeps its sign', async (t) => {
    const decoded: unknown = parse(encodeSmile([-0, 0]));
    t.ok(Array.isArray(decoded) && Object.is(decoded[0], -0) && Object.is(decoded[1], 0));
  });

  t.test('more than 1024 distinct names, then repeats', async (t) => {
    // 1100 names empty the table once: n1024-n1099 then hold indexes 0-75, which the next rows
    // reference (short and long references); then n0-n99 are written anew (76-175) and referenced.
    const value = [
      objectOf(names('n', 0, 1100)),
      ...Array.from({ length: 50 }, (_, r) => objectOf(names('n', 1024, 1100), (i) => i + r)),
      ...Array.from({ length: 50 }, (_, r) => objectOf(names('n', 0, 100), (i) => `${i + r}`)),
    ];
    const bytes = encodeSmile(value);
    t.strictSame(parse(bytes), value);
    const unshared = encodeSmile(value, { sharedPropertyNames: false });
    t.ok(bytes.length < unshared.length - 20_000, `repeats became references (${bytes.length} < ${unshared.length})`);
  });

  t.test('many repeated names and values', async (t) => {
    const rows = Array.from({ length: 2000 }, (_, i) => ({
      id: i,
      kind: ['Payment', 'OfferCreate', 'TrustSet'][i % 3] ?? '',
      ...(objectOf(names('field', 0, 200), (f) => (f + i) % 7) as object),
    }));
    for (const options of [{}, { sharedStringValues: true }]) {
      t.strictSame(parse(encodeSmile(rows, options)), rows, JSON.stringify(options));
    }
  });

  t.test('a document streamed in chunks equals the one-shot encoding', async (t) => {
    const rows = Array.from({ length: 10_000 }, (_, i): SmileValue => [
      i,
      `account-${i % 200}`,
      i / 8,
      i % 2 === 0,
      null,
      BigInt(i) * 10n ** 20n,
      { id: i, [`k${i % 1500}`]: 'é'.repeat(i % 40), tags: ['a', `t${i % 3}`] },
    ]);
    // Under 254 distinct short values, so that none repeats from an unreferenceable index
    // (which smile-js would misread, see the top of the file); names cycle past 1024.
    for (const options of [{}, { sharedStringValues: true }]) {
      const w = new SmileWriter(options);
      const chunks = [w.header(), w.startObject(), w.key('rows'), w.startArray()];
      for (const row of rows) chunks.push(w.value(row));
      chunks.push(w.endArray(), w.endObject());
      const streamed = Buffer.concat(chunks);
      const whole = encodeSmile({ rows }, options);
      t.ok(streamed.equals(whole), `same bytes ${JSON.stringify(options)}`);
      t.strictSame(parse(streamed), parse(whole));
      t.strictSame(parse(streamed), decodedForm({ rows }));
    }
  });

  t.test('arbitrary JSON-like values', async (t) => {
    // Object.prototype names are left out: smile-js cannot decode them (see the top of the file).
    // Names stay under 65 bytes, as smile-js does not number long names.
    const text = fc
      .oneof(
        fc.string({ unit: 'grapheme-ascii', maxLength: 70 }),
        fc.string({ unit: 'binary', maxLength: 40 }),
        fc.string({ unit: 'grapheme', maxLength: 20 }),
      )
      .filter((s) => !(s in Object.prototype));
    const name = fc.string({ unit: 'binary', maxLength: 12 }).filter((s) => !(s in Object.prototype));
    const { value } = fc.letrec<{ value: SmileValue }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.constant(null),
        fc.boolean(),
        fc.integer(),
        fc.maxSafeInteger(),
        fc.double(),
        fc.bigInt(),
        text,
        fc.array(tie('value'), { maxLength: 8 }),
        fc
          .uniqueArray(fc.tuple(name, tie('value')), { selector: ([k]) => k, maxLength: 8 })
          .map((entries) => Object.fromEntries(entries)),
      ),
    }));
    const options = fc.record({ sharedPropertyNames: fc.boolean(), sharedStringValues: fc.boolean() });
    t.doesNotThrow(() =>
      fc.assert(
        fc.property(value, options, (v, o) => {
          const bytes = encodeSmile(v, o);
          return !hasReservedByte(bytes) && isDeepStrictEqual(parse(bytes), decodedForm(v));
        }),
        { numRuns: 1000 },
      ),
    );
  });
});

t.test('writer state', async (t) => {
  t.test('a chunk per call, in document order', async (t) => {
    const w = new SmileWriter();
    const parts = [w.header(), w.startObject(), w.key('a'), w.value([1, 'b']), w.endObject()].map(hex);
    t.same(parts, ['3a 29 0a 01', 'fa', '80 61', 'f8 c2 40 62 f9', 'fb']);
  });

  t.test('misuse is refused', async (t) => {
    const started = (): SmileWriter => {
      const w = new SmileWriter();
      w.header();
      return w;
    };
    t.throws(() => started().key('a'), /outside an object/);
    t.throws(() => started().endObject(), /outside an object/);
    t.throws(() => started().endArray(), /outside an array/);
    t.throws(() => {
      const w = started();
      w.startObject();
      w.value(1);
    }, /expects a key/);
    t.throws(() => {
      const w = started();
      w.startObject();
      w.key('a');
      w.endObject();
    }, /after a key/);
    t.throws(() => started().header(), /only once/);
  });

  t.test('the header may be left out only when values are not shared', async (t) => {
    // Decoders assume shared names on and shared values off when there is no header.
    t.equal(hex(new SmileWriter().value({ a: 1 })), 'fa 80 61 c2 fb');
    t.throws(() => new SmileWriter({ sharedStringValues: true }).value('a'), /header is required/);
    const w = new SmileWriter();
    w.value(1);
    t.throws(() => w.header(), /only once/);
  });

  t.test('values outside the JSON model are refused, and the writer with them', async (t) => {
    const w = new SmileWriter();
    w.header();
    w.startArray();
    t.throws(() => w.value({ a: undefined } as unknown as SmileValue), TypeError);
    t.throws(() => w.value(1), /unusable/, 'its name table may hold names never sent');
    t.throws(() => encodeSmile([Symbol('s')] as unknown as SmileValue), TypeError);
    t.throws(() => encodeSmile((() => 1) as unknown as SmileValue), TypeError);
  });
});
