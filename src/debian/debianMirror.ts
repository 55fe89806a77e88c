import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The Debian release of the sandbox and of `debian:` sources. */
export const DEFAULT_DEBIAN_SUITE = 'trixie';
/** Debian's archive keyring, which signs the Release files. */
export const DEBIAN_KEYRING = '/usr/share/keyrings/debian-archive-keyring.gpg';

/** A Debian archive URL: the path ends in `/debian` (security and ports archives do not). */
const DEBIAN_ARCHIVE = /^https?:\/\/\S+\/debian\/?$/;

/**
 * The first Debian archive URL named in apt source files' texts, deb822 (`.sources`) files
 * first, then one-line (`.list`) files. The machine's own apt configuration is the only place a
 * mirror comes from, so no archive host is written into rvport.
 */
export function findDebianMirror(files: ReadonlyArray<{ path: string; text: string }>): string | undefined {
  const ordered = [
    ...files.filter((f) => f.path.endsWith('.sources')),
    ...files.filter((f) => !f.path.endsWith('.sources')),
  ];
  for (const { path, text } of ordered) {
    const urls = path.endsWith('.sources') ? deb822Urls(text) : oneLineUrls(text);
    const found = urls.find((url) => DEBIAN_ARCHIVE.test(url));
    if (found) return found.replace(/\/$/, '');
  }
  return undefined;
}

function deb822Urls(text: string): string[] {
  const urls: string[] = [];
  for (const stanza of text.split(/\n\s*\n/)) {
    const fields = new Map<string, string>();
    let last: string | undefined;
    for (const line of stanza.split('\n')) {
      if (line.startsWith('#')) continue;
      const continuation = /^\s+\S/.test(line);
      if (continuation && last) {
        fields.set(last, `${fields.get(last)} ${line.trim()}`);
        continue;
      }
      const m = /^([\w-]+):\s*(.*)$/.exec(line);
      if (m?.[1]) {
        last = m[1].toLowerCase();
        fields.set(last, m[2] ?? '');
      }
    }
    const types = (fields.get('types') ?? '').split(/\s+/);
    if (!types.includes('deb')) continue;
    if ((fields.get('enabled') ?? 'yes').toLowerCase() === 'no') continue;
    urls.push(...(fields.get('uris') ?? '').split(/\s+/).filter(Boolean));
  }
  return urls;
}

function oneLineUrls(text: string): string[] {
  const urls: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    if (!line.startsWith('deb ')) continue;
    // deb [options] URI suite components…
    const rest = line.slice(4).replace(/^\[[^\]]*\]\s*/, '');
    const uri = rest.split(/\s+/)[0];
    if (uri) urls.push(uri);
  }
  return urls;
}

/**
 * The Debian archive this machine's apt already uses, read from its apt sources (`/etc/apt` by
 * default). `RVPORT_DEBIAN_MIRROR` wins. Null when none is configured.
 */
export function debianMirror(env: NodeJS.ProcessEnv = process.env, aptDir = '/etc/apt'): string | null {
  if (env.RVPORT_DEBIAN_MIRROR) return env.RVPORT_DEBIAN_MIRROR;
  const paths = [join(aptDir, 'sources.list')];
  const partsDir = join(aptDir, 'sources.list.d');
  try {
    for (const name of readdirSync(partsDir).sort()) {
      if (name.endsWith('.sources') || name.endsWith('.list')) paths.push(join(partsDir, name));
    }
  } catch {
    // no sources.list.d
  }
  const files: Array<{ path: string; text: string }> = [];
  for (const path of paths) {
    try {
      files.push({ path, text: readFileSync(path, 'utf8') });
    } catch {
      // unreadable or missing: skip
    }
  }
  return findDebianMirror(files) ?? null;
}
