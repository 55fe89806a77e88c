import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { publicAddresses, urlHost } from './publicAddress.ts';
import { SourceError } from './SourceError.ts';

/** Redirects a download follows; each hop is judged like the first URL. */
export const MAX_REDIRECTS = 5;

export interface ConfinedGetOptions {
  /** `--allow-private-addresses`: no address check. */
  allowPrivateAddresses: boolean;
  signal: AbortSignal;
}

/**
 * GETs an http(s) URL the way a download of a SOURCE may: every hop's host is resolved and
 * judged (`publicAddresses`) before it is connected to, and the connection is made to exactly
 * the judged addresses (a lookup that answers them), so a name cannot resolve to a public
 * address for the check and to loopback for the connection. Redirects are followed up to
 * MAX_REDIRECTS, each judged the same way. Answers the response (status 2xx) and its final URL.
 */
export async function confinedGet(
  url: string,
  options: ConfinedGetOptions,
): Promise<{ response: IncomingMessage; url: string }> {
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const response = await getOnce(current, options);
    const location = response.headers.location;
    const status = response.statusCode ?? 0;
    if (status < 300 || status >= 400 || location === undefined) {
      if (status >= 200 && status < 300) return { response, url: current };
      response.resume();
      throw new SourceError('acquire', `cannot download ${url}: HTTP ${status}`);
    }
    response.resume();
    current = redirectTarget(current, location, url);
  }
  throw new SourceError('acquire', `cannot download ${url}: more than ${MAX_REDIRECTS} redirects`);
}

function redirectTarget(from: string, location: string, url: string): string {
  const target = new URL(location, from);
  if (target.protocol !== 'https:' && target.protocol !== 'http:')
    throw new SourceError(
      'acquire',
      `cannot download ${url}: redirected to ${target.protocol}// (not http or https)`,
    );
  return target.href;
}

async function getOnce(url: string, options: ConfinedGetOptions): Promise<IncomingMessage> {
  const host = urlHost(url);
  const judged = options.allowPrivateAddresses ? null : await publicAddresses(host, url);
  // a literal address is connected to as it is (node asks no lookup for one)
  const pinned = judged && !isIP(host) ? { lookup: answering(judged) } : {};
  const send = new URL(url).protocol === 'https:' ? httpsRequest : httpRequest;
  const requestOptions: RequestOptions = { signal: options.signal, ...pinned };
  return new Promise((resolve, reject) => {
    const req = send(url, requestOptions, resolve);
    req.on('error', (error) =>
      reject(new SourceError('acquire', `cannot download ${url}: ${error.message}`)),
    );
    req.end();
  });
}

/** A lookup that answers exactly `addresses` (judged already), in either form node asks for. */
function answering(addresses: readonly string[]): LookupFunction {
  const all = addresses.map((address) => ({ address, family: isIP(address) }));
  return (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, all);
    else callback(null, all[0]?.address ?? '', all[0]?.family ?? 4);
  };
}
