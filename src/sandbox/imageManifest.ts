import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/index.ts';

/** The manifest's file in an image's folder, beside image.json (outside the tree). */
export const IMAGE_MANIFEST = 'manifest.txt';

/** What a walk of an image tree found: its lines (one per entry, sorted) and their hash. */
export interface ImageManifest {
  hash: string;
  entries: number;
  lines: string[];
}

/**
 * The manifest of an image tree: one line per entry, read without following a link, with what the
 * kernel says of its inode — type, mode, owner, size, inode number, change and modification times
 * (nanoseconds) and a link's target. A write, a rename, a chmod or a chown of any entry changes
 * its change time, which no process can set back, so two equal manifests mean that no entry was
 * touched in between; no file is read, so checking an image costs one walk of its metadata.
 * A folder the caller may not read (a 0700 folder of the image, rootless) counts as its own line.
 */
export function imageManifest(tree: string): ImageManifest {
  const lines: string[] = [];
  const visit = (rel: string) => {
    const path = rel === '' ? tree : join(tree, rel);
    const st = lstatSync(path, { bigint: true });
    const type = st.isDirectory()
      ? 'd'
      : st.isFile()
        ? 'f'
        : st.isSymbolicLink()
          ? 'l'
          : st.isCharacterDevice()
            ? 'c'
            : st.isBlockDevice()
              ? 'b'
              : st.isFIFO()
                ? 'p'
                : 's';
    const target = type === 'l' ? ` -> ${JSON.stringify(readlinkSync(path))}` : '';
    lines.push(
      `${JSON.stringify(rel)} ${type} ${st.mode.toString(8)} ${st.uid}:${st.gid} ${st.size} ${st.ino} ${st.ctimeNs} ${st.mtimeNs}${target}`,
    );
    if (type !== 'd') return;
    let names: string[];
    try {
      names = readdirSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EACCES') throw error;
      lines.push(`${JSON.stringify(`${rel}/*`)} unreadable`);
      return;
    }
    for (const name of names.sort()) visit(rel === '' ? name : `${rel}/${name}`);
  };
  visit('');
  const hash = createHash('sha256').update(lines.join('\n')).digest('hex');
  return { hash, entries: lines.length, lines };
}

/** Writes the manifest beside the tree (atomically); the record keeps its hash. */
export async function writeImageManifest(imageDir: string, manifest: ImageManifest): Promise<void> {
  await writeFileAtomic(join(imageDir, IMAGE_MANIFEST), `${manifest.lines.join('\n')}\n`);
}

/** The stored manifest's hash (of the same text imageManifest hashes), if there is one. */
export async function readStoredManifest(imageDir: string): Promise<{ hash: string } | undefined> {
  const text = await readFile(join(imageDir, IMAGE_MANIFEST), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  return { hash: createHash('sha256').update(text.replace(/\n$/, '')).digest('hex') };
}

/**
 * The entries that differ between the stored manifest and a fresh one (at most `limit`, for a
 * message): what was added, removed or changed, by path.
 */
export async function changedEntries(imageDir: string, fresh: ImageManifest, limit = 5): Promise<string[]> {
  const stored = await readFile(join(imageDir, IMAGE_MANIFEST), 'utf8').catch(() => '');
  const byPath = (lines: readonly string[]) => {
    const map = new Map<string, string>();
    for (const line of lines) if (line) map.set(line.slice(0, line.indexOf('" ') + 1), line);
    return map;
  };
  const before = byPath(stored.split('\n'));
  const after = byPath(fresh.lines);
  const changed: string[] = [];
  for (const [path, line] of after) {
    const old = before.get(path);
    if (old === undefined) changed.push(`added ${JSON.parse(path)}`);
    else if (old !== line) changed.push(`changed ${JSON.parse(path)}`);
    if (changed.length >= limit) return changed;
  }
  for (const path of before.keys()) {
    if (!after.has(path)) changed.push(`removed ${JSON.parse(path)}`);
    if (changed.length >= limit) break;
  }
  return changed;
}
