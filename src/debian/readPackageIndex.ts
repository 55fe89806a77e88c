import { constants } from 'node:fs';
import { lstat, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { boundedLines } from './boundedLines.ts';

/** One binary package of a Packages index, the fields the host needs to fetch and check it. */
export interface IndexedPackage {
  name: string;
  version: string;
  architecture: string;
  /** Its path in the archive, relative to the archive's root. */
  filename: string;
  size: number;
  sha256: string;
  /** Pre-Depends and Depends, as written. */
  depends: string;
  /** The names it provides (without versions). */
  provides: string[];
}

/** The packages of a set of Packages files, by `indexKey` and by name. */
export interface PackageIndex {
  byKey: ReadonlyMap<string, IndexedPackage>;
  byName: ReadonlyMap<string, readonly IndexedPackage[]>;
  /** Virtual name → the names of the packages providing it. */
  providers: ReadonlyMap<string, readonly string[]>;
}

/** A line of a Packages file longer than this refuses the file (real ones stay under a few KiB). */
export const MAX_INDEX_LINE_BYTES = 1024 * 1024;
/** A Packages file larger than this is refused (a whole suite's main is some 60 MB). */
export const MAX_INDEX_FILE_BYTES = 1024 ** 3;

export const indexKey = (name: string, version: string, architecture: string) =>
  `${name} ${version} ${architecture}`;

/**
 * The index of every `*_Packages` file in `listsDirs` (an apt lists folder per image layer, the
 * top layer first: a file name found in a higher layer hides the lower one's, as in the overlay).
 * Nothing is followed: each lists folder and each file must be what it says (lstat, then
 * O_NOFOLLOW), and the files are read line by line with a bounded line length.
 */
export async function readPackageIndex(listsDirs: readonly string[]): Promise<PackageIndex> {
  const index = { byKey: new Map(), byName: new Map(), providers: new Map() };
  for (const path of await packagesFiles(listsDirs)) await readPackagesFile(path, index);
  return index;
}

/**
 * The apt lists folder of an image tree, each folder on the way checked without following a link;
 * undefined when there is none.
 */
export async function treeListsDir(tree: string): Promise<string | undefined> {
  let path = tree;
  for (const part of ['var', 'lib', 'apt', 'lists']) {
    path = join(path, part);
    const info = await lstat(path).catch(() => undefined);
    if (!info?.isDirectory()) return undefined;
  }
  return path;
}

/** The `*_Packages` files of the lists folders, one per file name, the first folder winning. */
export async function packagesFiles(listsDirs: readonly string[]): Promise<string[]> {
  const byName = new Map<string, string>();
  for (const dir of listsDirs) {
    const info = await lstat(dir).catch(() => undefined);
    if (!info?.isDirectory()) continue;
    for (const name of (await readdir(dir)).sort()) {
      if (name.endsWith('_Packages') && !byName.has(name)) byName.set(name, join(dir, name));
    }
  }
  return [...byName.values()];
}

type MutableIndex = {
  byKey: Map<string, IndexedPackage>;
  byName: Map<string, IndexedPackage[]>;
  providers: Map<string, string[]>;
};

async function readPackagesFile(path: string, index: MutableIndex): Promise<void> {
  const file = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW).catch((error) => {
    throw new Error(`${path}: cannot be read as a package list (${(error as NodeJS.ErrnoException).code})`);
  });
  try {
    const info = await file.stat();
    if (!info.isFile()) throw new Error(`${path}: not a regular file`);
    if (info.size > MAX_INDEX_FILE_BYTES)
      throw new Error(`${path}: larger than ${MAX_INDEX_FILE_BYTES} bytes`);
    let fields = new Map<string, string>();
    for await (const line of boundedLines(file, MAX_INDEX_LINE_BYTES)) {
      if (line.trim() === '') {
        addStanza(fields, index);
        fields = new Map();
      } else {
        const m = /^([\w-]+):\s*(.*)$/.exec(line);
        if (m?.[1]) fields.set(m[1].toLowerCase(), (m[2] ?? '').trim());
      }
    }
    addStanza(fields, index);
  } catch (error) {
    throw new Error(`${path}: ${(error as Error).message.replace(`${path}: `, '')}`);
  } finally {
    await file.close();
  }
}

/** Adds one stanza's package; a stanza without a name, version, file, size or SHA-256 is left out. */
function addStanza(fields: ReadonlyMap<string, string>, index: MutableIndex): void {
  const entry = stanzaPackage(fields);
  if (!entry) return;
  index.byKey.set(indexKey(entry.name, entry.version, entry.architecture), entry);
  const same = index.byName.get(entry.name);
  if (same) same.push(entry);
  else index.byName.set(entry.name, [entry]);
  for (const virtual of entry.provides) {
    const names = index.providers.get(virtual);
    if (names) names.push(entry.name);
    else index.providers.set(virtual, [entry.name]);
  }
}

export function stanzaPackage(fields: ReadonlyMap<string, string>): IndexedPackage | undefined {
  const name = fields.get('package');
  const version = fields.get('version');
  const architecture = fields.get('architecture');
  const filename = fields.get('filename');
  const size = fields.get('size') ?? '';
  const sha256 = fields.get('sha256')?.toLowerCase() ?? '';
  if (!name || !version || !architecture || !filename) return undefined;
  if (!/^\d{1,15}$/.test(size) || !/^[0-9a-f]{64}$/.test(sha256)) return undefined;
  return {
    name,
    version,
    architecture,
    filename,
    size: Number(size),
    sha256,
    depends: [fields.get('pre-depends'), fields.get('depends')].filter(Boolean).join(', '),
    provides: (fields.get('provides') ?? '')
      .split(',')
      .map((item) => item.trim().split(/[\s(]/)[0] ?? '')
      .filter(Boolean),
  };
}
