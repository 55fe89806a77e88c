import { debianMirror } from '../../debian/debianMirror.ts';

/** One package file the host fetches: where from, its name in apt's archives folder, size, hash. */
export interface AptDownload {
  uri: string;
  /** The file name apt expects in /var/cache/apt/archives. */
  fileName: string;
  size: number;
  /** The hash the host's index gives (apt checks the file against its signed lists again). */
  hash: { algorithm: 'md5' | 'sha1' | 'sha256' | 'sha512'; hex: string };
}

/** A URI in the pool of one of the archives (http or https, no `..`, no query, no credentials). */
export function isAllowedUri(uri: string, allowedPrefixes: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.username || url.password || url.search || url.hash) return false;
  if (url.pathname.split('/').some((part) => part === '..' || part === '.')) return false;
  if (!url.pathname.endsWith('.deb')) return false;
  return allowedPrefixes.some((prefix) => {
    const base = prefix.replace(/\/+$/, '');
    return url.href.startsWith(`${base}/pool/`);
  });
}

/**
 * The archives a sandbox may download packages from: the mirror its images were made from, and
 * the one the host's apt uses.
 */
export function archivePrefixes(mirror: string | undefined): string[] {
  return [mirror, debianMirror() ?? undefined].filter((m): m is string => Boolean(m));
}

/**
 * The archive the host fetches a sandbox's packages from: `RVPORT_DEBIAN_MIRROR` when set, else
 * the mirror the image (and so its lists) came from, else the host apt's own.
 */
export function downloadMirror(
  imageMirror: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  if (env.RVPORT_DEBIAN_MIRROR) return env.RVPORT_DEBIAN_MIRROR;
  return imageMirror ?? debianMirror(env) ?? undefined;
}
