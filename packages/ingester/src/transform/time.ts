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
