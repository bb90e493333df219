import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Address4, Address6 } from 'ip-address';

/** The autonomous system an address is announced from. */
export interface AsnInfo {
  /** `AS` and the number, e.g. `AS24940`. */
  asn: string;
  /** The AS's registered name, e.g. `HETZNER-AS`. */
  name: string;
  /** ISO 3166 code of the AS's registration country; absent when the table says `None`. */
  country_code?: string;
}

interface Range {
  start: bigint;
  end: bigint;
  info: AsnInfo;
}

/**
 * An IP-to-AS table in the format iptoasn.com publishes (public domain, refreshed hourly):
 * `range_start range_end AS_number country_code AS_description`, tab-separated, one range a line,
 * IPv4 and IPv6 (`ip2asn-v4.tsv`, `ip2asn-v6.tsv` or `ip2asn-combined.tsv`, gzipped or not). Ranges
 * with AS 0 are "not routed" and answer nothing.
 */
export class AsnTable {
  private readonly v4: Range[];
  private readonly v6: Range[];

  constructor(ranges: readonly { start: string; end: string; info: AsnInfo }[]) {
    const v4: Range[] = [];
    const v6: Range[] = [];
    for (const { start, end, info } of ranges) {
      const from = addressValue(start);
      const to = addressValue(end);
      if (from === undefined || to === undefined || from.family !== to.family || from.value > to.value) continue;
      (from.family === 4 ? v4 : v6).push({ start: from.value, end: to.value, info });
    }
    const byStart = (a: Range, b: Range): number => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0);
    this.v4 = v4.sort(byStart);
    this.v6 = v6.sort(byStart);
  }

  /** Ranges the table holds, by family. */
  get size(): { v4: number; v6: number } {
    return { v4: this.v4.length, v6: this.v6.length };
  }

  /** The AS of an address; undefined when it is not an address or no routed range holds it. */
  lookup(ip: string): AsnInfo | undefined {
    const address = addressValue(ip);
    if (address === undefined) return undefined;
    const ranges = address.family === 4 ? this.v4 : this.v6;
    // The last range starting at or below the address (binary search), if it reaches the address.
    let low = 0;
    let high = ranges.length - 1;
    let found: Range | undefined;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const range = ranges[middle]!;
      if (range.start <= address.value) {
        found = range;
        low = middle + 1;
      } else high = middle - 1;
    }
    return found !== undefined && address.value <= found.end ? found.info : undefined;
  }
}

/** An address as a number in its family's space (IPv4-mapped IPv6 addresses as IPv4). */
function addressValue(text: string): { family: 4 | 6; value: bigint } | undefined {
  const trimmed = text.trim();
  if (Address4.isValid(trimmed)) return { family: 4, value: new Address4(trimmed).bigInt() };
  if (!Address6.isValid(trimmed)) return undefined;
  const address = new Address6(trimmed);
  if (address.isMapped4()) return { family: 4, value: address.to4().bigInt() };
  return { family: 6, value: address.bigInt() };
}

/** Parses an iptoasn.com table (see AsnTable); a line that is not a range is skipped. */
export function parseAsnTable(text: string): AsnTable {
  const ranges: { start: string; end: string; info: AsnInfo }[] = [];
  for (const line of text.split('\n')) {
    const [start, end, number, country, ...name] = line.replace(/\r$/, '').split('\t');
    const asn = Number(number);
    if (start === undefined || end === undefined || !Number.isInteger(asn) || asn <= 0) continue;
    const info: AsnInfo = { asn: `AS${asn}`, name: name.join('\t').trim() };
    if (country !== undefined && /^[A-Z]{2}$/.test(country)) info.country_code = country;
    ranges.push({ start, end, info });
  }
  return new AsnTable(ranges);
}

/** Reads an iptoasn.com table file, gunzipped when it is gzipped. */
export function loadAsnTable(path: string): AsnTable {
  const bytes = readFileSync(path);
  const gzipped = bytes[0] === 0x1f && bytes[1] === 0x8b;
  return parseAsnTable((gzipped ? gunzipSync(bytes) : bytes).toString('utf8'));
}
