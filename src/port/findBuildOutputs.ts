import { open, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

const ELF_MAGIC = Buffer.from([0x7f, 0x45, 0x4c, 0x46]);
const AR_MAGIC = Buffer.from('!<arch>\n');
const THIN_AR_MAGIC = Buffer.from('!<thin>\n');

/**
 * Files under `root` that look like objects (ELF or `ar` magic; never judged by name) and that the
 * build made or changed: not in `original` with the same content. (Content, not times: the build
 * copy gets new timestamps, and objects shipped in the source are not the build's outputs.)
 */
export async function findBuildOutputs(root: string, original: string | null): Promise<string[]> {
  const found: string[] = [];
  await walk(root, '', async (rel, size) => {
    if (!(await hasObjectMagic(join(root, rel)))) return;
    if (original && (await sameContent(join(original, rel), join(root, rel), size))) return;
    found.push(rel);
  });
  return found.sort();
}

async function sameContent(before: string, after: string, size: number): Promise<boolean> {
  const st = await stat(before).catch(() => null);
  if (!st?.isFile() || st.size !== size) return false;
  const [a, b] = await Promise.all([readFile(before), readFile(after)]);
  return a.equals(b);
}

async function walk(
  root: string,
  rel: string,
  onFile: (rel: string, size: number) => Promise<void>,
): Promise<void> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(join(root, rel), { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (entry.name === '.git') continue;
      await walk(root, path, onFile);
    } else if (entry.isFile()) {
      const st = await stat(join(root, path));
      if (st.size >= 4) await onFile(path, st.size);
    }
  }
}

async function hasObjectMagic(file: string): Promise<boolean> {
  const handle = await open(file, 'r').catch(() => null);
  if (!handle) return false;
  try {
    const buf = Buffer.alloc(8);
    const { bytesRead } = await handle.read(buf, 0, 8, 0);
    if (bytesRead >= 4 && buf.subarray(0, 4).equals(ELF_MAGIC)) return true;
    return bytesRead === 8 && (buf.equals(AR_MAGIC) || buf.equals(THIN_AR_MAGIC));
  } finally {
    await handle.close();
  }
}
