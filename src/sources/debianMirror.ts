import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const DEFAULT_DEBIAN_SUITE = 'trixie';
export const DEBIAN_KEYRING = '/usr/share/keyrings/debian-archive-keyring.gpg';

/**
 * The Debian archive this machine's apt already uses (deb822 `.sources` first, then one-line
 * `sources.list`), so no archive host is written into rvport. `RVPORT_DEBIAN_MIRROR` wins.
 */
export function debianMirror(env: NodeJS.ProcessEnv = process.env, aptEtc = '/etc/apt'): string | null {
  if (env.RVPORT_DEBIAN_MIRROR) return env.RVPORT_DEBIAN_MIRROR;
  const read = (path: string): string => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return '';
    }
  };
  const list = (dir: string, suffix: string): string[] => {
    try {
      return readdirSync(dir)
        .filter((f) => f.endsWith(suffix))
        .sort()
        .map((f) => join(dir, f));
    } catch {
      return [];
    }
  };
  const isArchive = (uri: string) => /^https?:\/\/.*\/debian\/?$/.test(uri);
  for (const file of list(join(aptEtc, 'sources.list.d'), '.sources')) {
    for (const line of read(file).split('\n')) {
      const uris = /^URIs:\s*(.*)$/i.exec(line)?.[1];
      const uri = uris?.split(/\s+/).find(isArchive);
      if (uri) return uri.replace(/\/$/, '');
    }
  }
  for (const file of [join(aptEtc, 'sources.list'), ...list(join(aptEtc, 'sources.list.d'), '.list')]) {
    for (const line of read(file).split('\n')) {
      const words = line
        .replace(/\[[^\]]*\]/, '')
        .trim()
        .split(/\s+/);
      if (words[0] !== 'deb' && words[0] !== 'deb-src') continue;
      const uri = words.slice(1).find(isArchive);
      if (uri) return uri.replace(/\/$/, '');
    }
  }
  return null;
}
