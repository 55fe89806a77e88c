import { isIP } from 'node:net';
import { type Lookup, publicAddresses, urlHost } from './publicAddress.ts';

/** How host git may fetch web URLs of one source. */
export interface FetchPolicy {
  /** `--allow-private-addresses`: no address check (a user porting from their own LAN server). */
  allowPrivateAddresses: boolean;
  /** False for URLs nobody on the command line chose: a redirect could lead anywhere. */
  followRedirects: boolean;
}

/**
 * The `-c` settings for a host git that fetches `urls` (http and https only): each host's
 * addresses are checked (`publicAddresses`, which throws for a private one) and pinned with
 * `http.curloptResolve`, so the connection goes to exactly the addresses judged, whatever the
 * name resolves to a moment later (DNS rebinding). git passes `-c` settings on to the git
 * processes it starts (submodule clones), and `http.followRedirects=false` also stops dumb-http
 * alternates on other hosts.
 */
export async function pinnedFetchConfig(
  urls: readonly string[],
  policy: FetchPolicy,
  lookup?: Lookup,
): Promise<string[]> {
  const settings = policy.followRedirects ? [] : ['http.followRedirects=false'];
  if (policy.allowPrivateAddresses) return settings;
  const pins = new Set<string>();
  for (const url of urls) {
    const host = urlHost(url);
    const addresses = await publicAddresses(host, url, lookup);
    if (!isIP(host))
      pins.add(`http.curloptResolve=${host}:${portOf(url)}:${addresses.map(bracketed).join(',')}`);
  }
  return [...settings, ...pins];
}

function portOf(url: string): string {
  const parsed = new URL(url);
  return parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
}

function bracketed(address: string): string {
  return isIP(address) === 6 ? `[${address}]` : address;
}
