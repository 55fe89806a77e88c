import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { SourceError } from './SourceError.ts';

/**
 * Addresses a fetch named by a repository (or a queue job, or a resumed state) must not reach:
 * this machine, its LAN and every range that is not a public unicast address. IPv4-mapped IPv6
 * (`::ffff:127.0.0.1`, `::ffff:7f00:1`) is checked against the IPv4 rules by BlockList itself.
 */
const NOT_PUBLIC_V4: readonly [string, number][] = [
  ['0.0.0.0', 8], // this network
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services)
  ['172.16.0.0', 12], // RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // RFC 1918
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

const NOT_PUBLIC_V6: readonly [string, number][] = [
  ['::', 96], // unspecified, loopback, IPv4-compatible (deprecated)
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo, ORCHID, …)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: carries any IPv4 address, deprecated (RFC 7526)
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

const NOT_PUBLIC = new BlockList();
for (const [net, prefix] of NOT_PUBLIC_V4) NOT_PUBLIC.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of NOT_PUBLIC_V6) NOT_PUBLIC.addSubnet(net, prefix, 'ipv6');

/** The well-known NAT64 prefix (RFC 6052): the IPv4 address it carries is what is reached. */
const NAT64 = new BlockList();
NAT64.addSubnet('64:ff9b::', 96, 'ipv6');

/** Whether `address` (a literal IPv4 or IPv6 address) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (NOT_PUBLIC.check(address, type)) return false;
  if (type === 'ipv6' && NAT64.check(address, 'ipv6')) return isPublicAddress(embeddedIPv4(address));
  return true;
}

/** The last 32 bits of an IPv6 address, as a dotted quad. */
function embeddedIPv4(address: string): string {
  const groups = expandIPv6(address);
  const high = Number.parseInt(groups[6] ?? '0', 16);
  const low = Number.parseInt(groups[7] ?? '0', 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted quad becomes two groups). */
function expandIPv6(address: string): string[] {
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const hex = quad ? address.slice(0, quad.index) + quadGroups(quad.slice(1).map(Number)) : address;
  const [head = '', tail] = hex.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = Array<string>(8 - left.length - right.length).fill('0');
  return tail === undefined ? left : [...left, ...zeros, ...right];
}

/** A dotted quad's four numbers as two hexadecimal groups. */
function quadGroups([a = 0, b = 0, c = 0, d = 0]: number[]): string {
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

export type Lookup = (host: string) => Promise<{ address: string; family: number }[]>;

const systemLookup: Lookup = (host) => dnsLookup(host, { all: true, verbatim: true });

/** The host of a URL as curl and node see it: lowercase, IPv6 without brackets. */
export function urlHost(url: string): string {
  return new URL(url).hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
}

/**
 * Resolves `host` and answers its addresses when every one is public; a literal address is
 * judged as it is. Throws `SourceError` (`private-address`) naming `what` (the URL) and the
 * address, when any address is not public (a name with one private address among public ones
 * could be made to reach it), or `acquire` when the name does not resolve.
 */
export async function publicAddresses(
  host: string,
  what: string,
  lookup: Lookup = systemLookup,
): Promise<string[]> {
  const addresses = isIP(host) ? [host] : await resolveAll(host, what, lookup);
  const refused = addresses.find((a) => !isPublicAddress(a));
  if (refused !== undefined) {
    throw new SourceError(
      'private-address',
      `${what} reaches ${refused}, which is not a public address (loopback, private, link-local or reserved); rvport fetches from such addresses only with --allow-private-addresses`,
    );
  }
  return addresses;
}

async function resolveAll(host: string, what: string, lookup: Lookup): Promise<string[]> {
  try {
    const found = (await lookup(host)).map((a) => a.address);
    if (found.length === 0) throw new Error('no address');
    return found;
  } catch (error) {
    throw new SourceError('acquire', `cannot resolve the host of ${what}: ${(error as Error).message}`);
  }
}
