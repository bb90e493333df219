/** Seconds between the Unix epoch and the XRPL ("Ripple") epoch, 2000-01-01T00:00:00Z. */
export const RIPPLE_EPOCH_OFFSET = 946684800;

export function rippleTimeToIso(seconds: number): string {
  return new Date((seconds + RIPPLE_EPOCH_OFFSET) * 1000).toISOString();
}

export function isoToRippleTime(iso: string): number {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new RangeError(`not a date: ${iso}`);
  return Math.round(ms / 1000) - RIPPLE_EPOCH_OFFSET;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number): string => String(n).padStart(2, '0');

/** rippled's time text (`close_time_human`: "2016-Jun-21 06:26:32[.000000000 UTC]") in Unix seconds. */
export function parseRippledTimeText(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const m = /^(\d{4})-([A-Za-z]{3})-(\d{2}) (\d{2}):(\d{2}):(\d{2})/.exec(text);
  if (m === null) return undefined;
  const month = MONTHS.indexOf(m[2] ?? '');
  if (month < 0) return undefined;
  return Date.UTC(Number(m[1]), month, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])) / 1000;
}

/** rippled's time text of an XRPL-epoch time, as amm_info prints an expiration: `2023-Jan-26 00:28:40.000000000 UTC`. */
export function rippledTimeText(rippleSeconds: number): string {
  const d = new Date((rippleSeconds + RIPPLE_EPOCH_OFFSET) * 1000);
  return (
    `${d.getUTCFullYear()}-${MONTHS[d.getUTCMonth()]}-${two(d.getUTCDate())} ` +
    `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}.000000000 UTC`
  );
}
