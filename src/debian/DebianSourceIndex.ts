import { existsSync, readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeJsonAtomic } from '../fs/index.ts';
import { runProcess } from '../process/runProcess.ts';
import { projectKey } from './projectKey.ts';

/** One source package of the archive's Sources index, with what a port can use of it. */
export interface DebianSourceEntry {
  name: string;
  version: string;
  homepage?: string;
  vcs?: string[];
  /** The binary packages it builds (its `Binary:` field), in the archive's order. */
  binaries?: string[];
  /** The Build-Depends and Build-Depends-Arch fields, as a control stanza (parseBuildDepends reads it). */
  buildDepends: string;
  /** Its Architecture field as written (`any`, `all`, `amd64 riscv64`), when it has one. */
  architecture?: string;
  /** A Go package's import path (its `Go-Import-Path`, the first of several), which dh-golang builds under. */
  goImportPath?: string;
}

const CACHE_VERSION = 4;
/** apt's own tools decompress its lists (lz4, xz, gz: whatever the archive served). */
const APT_HELPER = '/usr/lib/apt/apt-helper';
const READ_TIMEOUT_MS = 5 * 60 * 1000;

interface CacheFile {
  version: number;
  lists: string;
  entries: DebianSourceEntry[];
}

/**
 * The archive's source packages (the Sources index rvport's private apt downloaded for
 * `debian:` sources), looked up by name or by the project URL their Homepage and Vcs fields
 * give. Built once per download of the lists and cached beside them.
 */
export class DebianSourceIndex {
  private readonly byKey = new Map<string, DebianSourceEntry[]>();
  private readonly byName = new Map<string, DebianSourceEntry>();

  constructor(readonly entries: readonly DebianSourceEntry[]) {
    for (const entry of entries) {
      this.byName.set(entry.name, entry);
      for (const url of [entry.homepage, ...(entry.vcs ?? [])]) {
        const key = url ? projectKey(url) : null;
        if (!key) continue;
        const list = this.byKey.get(key) ?? [];
        if (!list.includes(entry)) list.push(entry);
        this.byKey.set(key, list);
      }
    }
  }

  named(name: string): DebianSourceEntry | undefined {
    return this.byName.get(name);
  }

  /** The source packages whose Homepage or Vcs field is this project (`github.com/libuv/libuv`). */
  forProject(url: string): DebianSourceEntry[] {
    const key = projectKey(url);
    return key ? (this.byKey.get(key) ?? []) : [];
  }

  /**
   * The index of the Sources lists in `listsDir` (apt's `state/lists`), from the cache when the
   * lists have not changed since; null when there are no lists.
   */
  static async load(listsDir: string, signal?: AbortSignal): Promise<DebianSourceIndex | null> {
    const lists = sourcesLists(listsDir);
    if (lists.length === 0) return null;
    const stamp = lists.map((f) => `${f}:${statSync(join(listsDir, f)).mtimeMs}`).join(',');
    const cachePath = join(listsDir, '..', `source-index-v${CACHE_VERSION}.json`);
    if (existsSync(cachePath)) {
      const cached = JSON.parse(await readFile(cachePath, 'utf8')) as CacheFile;
      if (cached.version === CACHE_VERSION && cached.lists === stamp)
        return new DebianSourceIndex(cached.entries);
    }
    const entries: DebianSourceEntry[] = [];
    for (const file of lists) {
      const result = await runProcess({
        command: [APT_HELPER, 'cat-file', join(listsDir, file)],
        env: { LC_ALL: 'C' },
        timeoutMs: READ_TIMEOUT_MS,
        captureBytes: 512 * 1024 * 1024,
        ...(signal ? { signal } : {}),
      });
      if (result.exitCode !== 0 || result.truncated) continue;
      entries.push(...parseSources(result.stdout));
    }
    await writeJsonAtomic(cachePath, { version: CACHE_VERSION, lists: stamp, entries } satisfies CacheFile);
    return new DebianSourceIndex(entries);
  }
}

function sourcesLists(listsDir: string): string[] {
  try {
    return readdirSync(listsDir)
      .filter((f) => /_source_Sources(\.[a-z0-9]+)?$/.test(f))
      .sort();
  } catch {
    return [];
  }
}

/** The stanzas of a Sources file: the fields a port uses, continuation lines kept. */
export function parseSources(text: string): DebianSourceEntry[] {
  const entries: DebianSourceEntry[] = [];
  for (const stanza of text.split(/\n\s*\n/)) {
    const fields = new Map<string, string>();
    let current: string | null = null;
    for (const line of stanza.split('\n')) {
      if (/^[ \t]/.test(line)) {
        if (current) fields.set(current, `${fields.get(current)}\n${line}`);
        continue;
      }
      const colon = line.indexOf(':');
      if (colon <= 0) {
        current = null;
        continue;
      }
      current = line.slice(0, colon).toLowerCase();
      if (!KEPT.has(current)) {
        current = null;
        continue;
      }
      fields.set(current, line.slice(colon + 1).trim());
    }
    const name = fields.get('package');
    if (!name) continue;
    const build = ['build-depends', 'build-depends-arch']
      .filter((f) => fields.has(f))
      .map((f) => `${f === 'build-depends' ? 'Build-Depends' : 'Build-Depends-Arch'}: ${fields.get(f)}`);
    const vcs = ['vcs-git', 'vcs-browser']
      .map((f) => fields.get(f)?.split(/\s+/)[0])
      .filter((u): u is string => !!u);
    const homepage = fields.get('homepage');
    const binaries = (fields.get('binary') ?? '').split(/[\s,]+/).filter(Boolean);
    const goImportPath = firstImportPath(fields.get('go-import-path'));
    const architecture = fields.get('architecture');
    entries.push({
      name,
      version: fields.get('version') ?? '',
      ...(homepage ? { homepage } : {}),
      ...(vcs.length ? { vcs } : {}),
      ...(binaries.length ? { binaries } : {}),
      ...(goImportPath ? { goImportPath } : {}),
      ...(architecture ? { architecture } : {}),
      buildDepends: [`Source: ${name}`, ...build].join('\n'),
    });
  }
  return entries;
}

/** The first import path of a `Go-Import-Path` field (`a, b`), when it reads as one. */
export function firstImportPath(field: string | undefined): string | undefined {
  const first = field?.split(/[\s,]+/).find(Boolean);
  return first && /^[A-Za-z0-9][A-Za-z0-9._~-]*(\/[A-Za-z0-9._~-]+)+$/.test(first) ? first : undefined;
}

const KEPT = new Set([
  'architecture',
  'go-import-path',
  'package',
  'binary',
  'version',
  'homepage',
  'vcs-git',
  'vcs-browser',
  'build-depends',
  'build-depends-arch',
]);
