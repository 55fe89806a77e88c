import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SourceError } from '../SourceError.ts';
import { escapeModulePath, escapeModuleVersion } from './escapeModulePath.ts';
import type { FetchedDependencies, FetchedDependency } from './FetchedDependency.ts';
import { fetchLimited } from './fetchLimited.ts';
import { goDirHash, goModHash } from './goDirHash.ts';
import type { GoSumEntry } from './parseGoSum.ts';
import { MAX_GO_MOD_BYTES, MAX_MODULE_ZIP_BYTES, readGoModuleZip } from './readGoModuleZip.ts';
import { writeAtomically } from './writeAtomically.ts';

/** The .info of a version: small JSON; anything larger is not one. */
const MAX_INFO_BYTES = 64 * 1024;

export interface FetchGoOptions {
  /** The module proxy (GOPROXY protocol), e.g. `http://127.0.0.1:PORT`. */
  proxy: URL;
  /** The store root, `RVPORT_HOME/deps/go`: files land in `cache/download/` (GOMODCACHE layout). */
  store: string;
  signal?: AbortSignal;
  log?: (line: string) => void;
}

function mismatch(what: string, expected: string, got: string): SourceError {
  return new SourceError(
    'hash-mismatch',
    `${what} does not match go.sum: go.sum says ${expected}, the download hashes to ${got}; refusing it`,
  );
}

/** A stored file, or null when absent; the caller checks it again (the store is not trusted blindly). */
async function stored(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch {
    return null;
  }
}

/**
 * Every module go.sum lists, from the proxy into the store, each file checked against go.sum
 * before it is written: a version's go.mod against its `/go.mod h1:` line, its zip against its
 * `h1:` line (Go's dirhash of the zip's files). go.sum lists the main module's whole build list
 * (and the go.mod files of the graph), so no version resolution is needed. What is already in
 * the store is checked again and reused. A mismatch refuses the whole port: nothing of it
 * reaches the sandbox.
 */
export async function fetchGoModules(
  entries: readonly GoSumEntry[],
  options: FetchGoOptions,
): Promise<FetchedDependencies> {
  const base = options.proxy.href.replace(/\/+$/, '');
  const items: FetchedDependency[] = [];
  const paths: string[] = [];
  for (const entry of entries) {
    const dir = `cache/download/${escapeModulePath(entry.module)}/@v`;
    const version = escapeModuleVersion(entry.version);
    const url = (ext: string) => `${base}/${escapeModulePath(entry.module)}/@v/${version}.${ext}`;
    const label = `${entry.module}@${entry.version}`;
    let downloaded = false;
    const get = async (ext: string, max: number) => {
      const data = await fetchLimited(url(ext), max, options.signal);
      if (!data) throw new SourceError('acquire', `the module proxy has no ${label} (${ext})`);
      downloaded = true;
      return data;
    };
    if (entry.modHash) {
      const path = `${dir}/${version}.mod`;
      const have = await stored(join(options.store, path));
      if (!have || goModHash(have) !== entry.modHash) {
        const data = await get('mod', MAX_GO_MOD_BYTES);
        const hash = goModHash(data);
        if (hash !== entry.modHash) throw mismatch(`${label}'s go.mod`, entry.modHash, hash);
        await writeAtomically(join(options.store, path), data);
      }
      paths.push(path);
    }
    if (entry.zipHash) {
      const path = `${dir}/${version}.zip`;
      const have = await stored(join(options.store, path));
      const hashOf = (zip: Uint8Array) => goDirHash(readGoModuleZip(zip, entry.module, entry.version));
      // a damaged stored zip is fetched again, as a missing one is
      const storedHash = have
        ? (() => {
            try {
              return hashOf(have);
            } catch {
              return null;
            }
          })()
        : null;
      if (storedHash !== entry.zipHash) {
        const data = await get('zip', MAX_MODULE_ZIP_BYTES);
        const hash = hashOf(data);
        if (hash !== entry.zipHash) throw mismatch(`${label}'s zip`, entry.zipHash, hash);
        await writeAtomically(join(options.store, `${dir}/${version}.ziphash`), entry.zipHash);
        await writeAtomically(join(options.store, path), data);
      }
      paths.push(path, `${dir}/${version}.ziphash`);
    }
    // .info is not covered by go.sum: only its version is taken, the rest is rvport's own
    const infoPath = `${dir}/${version}.info`;
    if (!(await stored(join(options.store, infoPath)))) {
      await writeAtomically(
        join(options.store, infoPath),
        `${JSON.stringify({ Version: entry.version, Time: await infoTime(url('info'), entry, options) })}\n`,
      );
    }
    paths.push(infoPath);
    items.push({
      kind: 'go-module',
      name: entry.module,
      version: entry.version,
      hash: entry.zipHash ?? entry.modHash ?? '',
      ...(entry.zipHash ? {} : { modOnly: true }),
      suppliedBy: downloaded ? 'proxy' : 'store',
      from: base,
    });
    options.log?.(
      `${label}: ${downloaded ? 'fetched from the module proxy' : 'from the store'}, ${entry.zipHash ? 'zip and go.mod' : 'go.mod'} checked against go.sum`,
    );
  }
  return { kind: 'go', from: base, paths, items };
}

/** The version's time from the proxy's .info (only a well-formed RFC 3339 time is taken). */
async function infoTime(url: string, entry: GoSumEntry, options: FetchGoOptions): Promise<string> {
  const fallback = '1970-01-01T00:00:00Z';
  const data = await fetchLimited(url, MAX_INFO_BYTES, options.signal).catch(() => null);
  if (!data) return fallback;
  try {
    const info = JSON.parse(data.toString('utf8')) as { Version?: unknown; Time?: unknown };
    if (info.Version !== entry.version) return fallback;
    return typeof info.Time === 'string' && /^\d{4}-\d\d-\d\dT[0-9:.]+(Z|[+-]\d\d:\d\d)$/.test(info.Time)
      ? info.Time
      : fallback;
  } catch {
    return fallback;
  }
}
