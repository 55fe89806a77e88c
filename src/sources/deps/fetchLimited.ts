import { SourceError } from '../SourceError.ts';

export const FETCH_TIMEOUT_MS = 5 * 60 * 1000;

/** A module proxy or registry URL rvport accepts: http or https, no credentials in it. */
export function checkServiceUrl(raw: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SourceError('invalid', `${what} is not a URL: ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new SourceError('invalid', `${what} must be an http or https URL: ${raw}`);
  if (url.username || url.password) throw new SourceError('invalid', `${what} must not carry credentials`);
  return url;
}

/**
 * GET `url` into memory, at most `maxBytes` (the body is read as it comes and dropped past the
 * limit: a hostile server cannot fill the host's memory), with a time limit. Redirects are
 * followed only to http(s). Null for a 404/410 (the proxy protocol's "not here").
 */
export async function fetchLimited(
  url: string,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<Buffer | null> {
  const timeout = AbortSignal.timeout(FETCH_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(url, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  } catch (error) {
    throw new SourceError('acquire', `cannot fetch ${url}: ${(error as Error).message}`);
  }
  if (!/^https?:/.test(response.url || url))
    throw new SourceError('acquire', `${url} redirected to ${response.url}`);
  if (response.status === 404 || response.status === 410) {
    await response.body?.cancel();
    return null;
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new SourceError('acquire', `cannot fetch ${url}: HTTP ${response.status}`);
  }
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new SourceError('archive-too-large', `${url} is larger than ${maxBytes} bytes; refusing it`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  if (response.body) {
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (size > maxBytes)
        throw new SourceError('archive-too-large', `${url} is larger than ${maxBytes} bytes; refusing it`);
      chunks.push(Buffer.from(chunk));
    }
  }
  return Buffer.concat(chunks);
}
