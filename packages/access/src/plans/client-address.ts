import { isIP, isIPv6 } from 'node:net';

/**
 * The address the free plan counts. With `proxyHops` = 0 the socket address, and X-Forwarded-For
 * is ignored (anyone can write it). With n trusted proxies each appending the address it saw, the
 * client is the n-th entry from the right of `X-Forwarded-For, socket`; a shorter list means
 * the request bypassed a proxy, and its leftmost entry is used.
 */
export function clientAddress(socketAddress: string, forwardedFor: string, proxyHops: number): string {
  if (proxyHops === 0 || forwardedFor === '') return normalizeAddress(socketAddress);
  const chain = [
    ...forwardedFor
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
    socketAddress,
  ];
  const chosen = chain[Math.max(0, chain.length - 1 - proxyHops)] ?? socketAddress;
  // Whatever is not an address (a forged entry) counts as the socket's address, never as a fresh client.
  return normalizeAddress(isIP(chosen.split('%')[0] ?? chosen) === 0 ? socketAddress : chosen);
}

/**
 * IPv4-mapped IPv6 becomes plain IPv4; other IPv6 addresses count by their /64, because one
 * subscriber line usually holds a whole /64 and could otherwise mint fresh quotas at will.
 */
export function normalizeAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1] !== undefined) return mapped[1];
  const bare = address.split('%')[0] ?? address; // zone index, e.g. fe80::1%eth0
  if (!isIPv6(bare)) return address;
  return `${expandIPv6(bare).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, lower-case hex without leading zeros. */
function expandIPv6(address: string): string[] {
  // An embedded IPv4 tail (64:ff9b::192.0.2.1) is two groups.
  const hex = address.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_: string, a: string, b: string, c: string, d: string) =>
    [((+a << 8) | +b).toString(16), ((+c << 8) | +d).toString(16)].join(':'),
  );
  const [head = '', tail] = hex.split('::');
  const groups = (part: string): string[] => (part === '' ? [] : part.split(':'));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const middle = Array.from({ length: 8 - left.length - right.length }, () => '0');
  return [...left, ...middle, ...right].map((group) => parseInt(group, 16).toString(16));
}
