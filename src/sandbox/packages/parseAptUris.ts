import { debianMirror } from '../../debian/debianMirror.ts';

/** One package apt would fetch, as `apt-get --print-uris` names it. */
export interface AptDownload {
  uri: string;
  /** The file name apt expects in /var/cache/apt/archives. */
  fileName: string;
  size: number;
  /** The hash apt names (it prints one of the lists' hashes; apt checks the strongest itself). */
  hash: { algorithm: 'md5' | 'sha1' | 'sha256' | 'sha512'; hex: string };
}

const ALGORITHMS = { MD5Sum: 'md5', SHA1: 'sha1', SHA256: 'sha256', SHA512: 'sha512' } as const;

const LINE = /^'([^'\s]+)' (\S+) (\d+) (MD5Sum|SHA1|SHA256|SHA512):([0-9a-f]{32,128})$/;
const DEB_FILE = /^[A-Za-z0-9][A-Za-z0-9+.~_%-]*\.deb$/;

/**
 * The downloads in `apt-get install --print-uris` output. The text comes from inside the
 * sandbox, so every line must have exactly the expected form: a URI under one of the allowed
 * archive prefixes (its pool), a plain .deb file name, a size and a hash. Anything else in a
 * quoted-URI line is refused, not skipped.
 */
export function parseAptUris(output: string, allowedPrefixes: readonly string[]): AptDownload[] {
  const downloads: AptDownload[] = [];
  for (const raw of output.split('\n')) {
    const line = raw.trim();
    if (!line.startsWith("'")) continue;
    const match = LINE.exec(line);
    if (!match) throw new Error(`unexpected line in apt's download list: ${line.slice(0, 200)}`);
    const [, uri = '', fileName = '', size = '0', name = '', hex = ''] = match;
    const algorithm = ALGORITHMS[name as keyof typeof ALGORITHMS];
    if (!DEB_FILE.test(fileName)) throw new Error(`not a package file name: ${fileName}`);
    if (!isAllowedUri(uri, allowedPrefixes)) throw new Error(`not from the sandbox's Debian archive: ${uri}`);
    downloads.push({ uri, fileName, size: Number(size), hash: { algorithm, hex } });
  }
  return downloads;
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
