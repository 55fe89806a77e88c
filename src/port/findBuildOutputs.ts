import { isConfinedPathError, readFileConfined, statConfined, walkConfined } from '../fs/index.ts';

const ELF_MAGIC = Buffer.from([0x7f, 0x45, 0x4c, 0x46]);
const AR_MAGIC = Buffer.from('!<arch>\n');
const THIN_AR_MAGIC = Buffer.from('!<thin>\n');
/** Objects compared with the source's copy are read whole; none we verify is larger. */
const MAX_COMPARED_BYTES = 1024 * 1024 * 1024;

/**
 * Files under `root` that look like objects (ELF or `ar` magic; never judged by name) and that the
 * build made or changed: not in `original` with the same content. (Content, not times: the build
 * copy gets new timestamps, and objects shipped in the source are not the build's outputs.)
 * The build wrote the tree, so it is walked without following a link (`dest -> /` would make the
 * host walk its own root) and every file is read inside it; `onRefused` hears why a root was not
 * walked at all (it is a link, say).
 */
export async function findBuildOutputs(
  root: string,
  original: string | null,
  onRefused: (reason: string) => void = () => {},
): Promise<string[]> {
  let entries: ReturnType<typeof walkConfined>['entries'];
  try {
    entries = walkConfined(root, { head: 8, skipDir: (name) => name === '.git' }).entries;
  } catch (error) {
    if (!(isConfinedPathError(error) && error.code === 'not-found')) onRefused((error as Error).message);
    return [];
  }
  const found: string[] = [];
  for (const entry of entries) {
    if (entry.type !== 'file' || entry.size < 4) continue;
    if (!entry.head || !hasObjectMagic(entry.head)) continue;
    if (original && sameContent(original, root, entry.path, entry.size)) continue;
    found.push(entry.path);
  }
  return found.sort();
}

function sameContent(original: string, root: string, rel: string, size: number): boolean {
  try {
    const before = statConfined(original, rel).stats;
    if (!before.isFile() || before.size !== size) return false;
    const a = readFileConfined(original, rel, { maxBytes: MAX_COMPARED_BYTES });
    const b = readFileConfined(root, rel, { maxBytes: MAX_COMPARED_BYTES });
    return a.equals(b);
  } catch {
    return false;
  }
}

function hasObjectMagic(head: Buffer): boolean {
  if (head.length >= 4 && head.subarray(0, 4).equals(ELF_MAGIC)) return true;
  return head.length === 8 && (head.equals(AR_MAGIC) || head.equals(THIN_AR_MAGIC));
}
