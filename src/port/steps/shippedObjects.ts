import { hashFileConfined, isConfinedPathError, walkConfined } from '../../fs/index.ts';

const ELF_MAGIC = Buffer.from([0x7f, 0x45, 0x4c, 0x46]);
const AR_MAGIC = Buffer.from('!<arch>\n');
const THIN_AR_MAGIC = Buffer.from('!<thin>\n');
/** Objects are hashed in chunks up to this size; none we verify is larger. */
export const MAX_HASHED_OBJECT_BYTES = 1024 * 1024 * 1024;

/**
 * The objects (ELF and `ar` files, by their magic) a source tree ships, by content: a build that
 * copies one of them to another name, or into DESTDIR, has not built it. Sizes first, so the
 * outputs of a source that ships no object of their size are never hashed.
 */
export interface ShippedObjects {
  /** size → SHA-256 → the path in the source. */
  bySize: ReadonlyMap<number, ReadonlyMap<string, string>>;
}

export const NO_SHIPPED_OBJECTS: ShippedObjects = { bySize: new Map() };

/** True for the first bytes of an ELF file or an `ar` archive (thin or not). */
export function hasObjectMagic(head: Buffer): boolean {
  if (head.length >= 4 && head.subarray(0, 4).equals(ELF_MAGIC)) return true;
  return (
    head.length >= 8 && (head.subarray(0, 8).equals(AR_MAGIC) || head.subarray(0, 8).equals(THIN_AR_MAGIC))
  );
}

/**
 * Every object of the original source (the tree the port started from), hashed through the
 * confined readers: the source is hostile, so the walk follows no link and every read stays
 * inside it. A source that cannot be walked ships nothing we know of (`onRefused` hears why).
 */
export function indexShippedObjects(
  sourceDir: string | null,
  onRefused: (reason: string) => void = () => {},
): ShippedObjects {
  if (!sourceDir) return NO_SHIPPED_OBJECTS;
  let entries: ReturnType<typeof walkConfined>['entries'];
  try {
    entries = walkConfined(sourceDir, { head: 8, skipDir: (name) => name === '.git' }).entries;
  } catch (error) {
    if (!(isConfinedPathError(error) && error.code === 'not-found')) onRefused((error as Error).message);
    return NO_SHIPPED_OBJECTS;
  }
  const bySize = new Map<number, Map<string, string>>();
  for (const entry of entries) {
    if (entry.type !== 'file' || entry.size < 4 || !entry.head || !hasObjectMagic(entry.head)) continue;
    try {
      const digest = hashFileConfined(sourceDir, entry.path, { maxBytes: MAX_HASHED_OBJECT_BYTES });
      const known = bySize.get(digest.size) ?? new Map<string, string>();
      if (!known.has(digest.sha256)) known.set(digest.sha256, entry.path);
      bySize.set(digest.size, known);
    } catch {
      // gone, swapped or too large: nothing to hold an output against
    }
  }
  return { bySize };
}

/** The path in the source of an object with this content, or null (the build made it). */
export function shippedAs(shipped: ShippedObjects, size: number, digest: () => string | null): string | null {
  const known = shipped.bySize.get(size);
  if (!known) return null;
  const sha256 = digest();
  return sha256 === null ? null : (known.get(sha256) ?? null);
}
