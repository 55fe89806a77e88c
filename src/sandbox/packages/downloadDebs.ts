import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isRvportErrorNamed, RvportError, type RvportErrorOptions } from '../../errors/index.ts';
import type { AptDownload } from './parseAptUris.ts';

/**
 * Why a download failed; `missing` (a 404) usually means the image's package lists are stale;
 * `refused` means the host would not fetch what the sandbox named (nothing was fetched).
 */
export class DebDownloadError extends RvportError {
  override name = 'DebDownloadError';
  declare readonly code: 'missing' | 'mismatch' | 'network' | 'refused';
  constructor(
    code: 'missing' | 'mismatch' | 'network' | 'refused',
    message: string,
    options?: RvportErrorOptions,
  ) {
    super(code, message, options);
  }
}

export function isDebDownloadError(error: unknown): error is DebDownloadError {
  return isRvportErrorNamed(error, ['DebDownloadError']);
}

const DOWNLOAD_TIMEOUT_MS = 10 * 60_000;

/**
 * Fetches each package into `cacheDir` (kept there: the next install of the same version is
 * free), checking size and hash against what apt's lists say (apt inside checks each file again
 * against its signed lists before installing); a cached file is used only when its hash matches. Files appear under their names only when complete and checked.
 * Returns the paths, in order.
 */
export async function downloadDebs(
  downloads: readonly AptDownload[],
  cacheDir: string,
  options: { signal?: AbortSignal; fetchImpl?: typeof fetch } = {},
): Promise<string[]> {
  await mkdir(cacheDir, { recursive: true });
  const paths: string[] = [];
  for (const d of downloads) {
    const target = join(cacheDir, d.fileName);
    if (!(await matches(target, d))) await fetchOne(d, target, options);
    paths.push(target);
  }
  return paths;
}

async function matches(path: string, d: AptDownload): Promise<boolean> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile() || info.size !== d.size) return false;
  return (await hashFile(path, d.hash.algorithm)) === d.hash.hex;
}

async function fetchOne(
  d: AptDownload,
  target: string,
  options: { signal?: AbortSignal; fetchImpl?: typeof fetch },
): Promise<void> {
  const signal = options.signal
    ? AbortSignal.any([options.signal, AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS)])
    : AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS);
  let response: Response;
  try {
    response = await (options.fetchImpl ?? fetch)(d.uri, { signal, redirect: 'error' });
  } catch (error) {
    throw new DebDownloadError('network', `could not download ${d.uri}: ${(error as Error).message}`);
  }
  if (response.status === 404 || response.status === 410)
    throw new DebDownloadError('missing', `${d.uri} is not on the archive (HTTP ${response.status})`);
  if (!response.ok || !response.body)
    throw new DebDownloadError('network', `could not download ${d.uri}: HTTP ${response.status}`);
  const temp = `${target}.${randomBytes(4).toString('hex')}.partial`;
  const file = await open(temp, 'wx', 0o644);
  const hash = createHash(d.hash.algorithm);
  let size = 0;
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (size > d.size)
        throw new DebDownloadError('mismatch', `${d.uri} is larger than the ${d.size} bytes listed`);
      hash.update(chunk);
      await file.write(chunk);
    }
    await file.sync();
  } catch (error) {
    await file.close();
    await rm(temp, { force: true });
    if (isDebDownloadError(error)) throw error;
    throw new DebDownloadError('network', `could not download ${d.uri}: ${(error as Error).message}`);
  }
  await file.close();
  const digest = hash.digest('hex');
  if (size !== d.size || digest !== d.hash.hex) {
    await rm(temp, { force: true });
    throw new DebDownloadError(
      'mismatch',
      `${d.uri}: size or ${d.hash.algorithm} hash differs from the package lists`,
    );
  }
  await rename(temp, target);
}

function hashFile(path: string, algorithm: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash(algorithm);
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}
