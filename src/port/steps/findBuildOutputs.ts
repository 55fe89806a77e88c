import { hashFileConfined, isConfinedPathError, walkConfined } from '../../fs/index.ts';
import { hasObjectMagic, MAX_HASHED_OBJECT_BYTES, type ShippedObjects, shippedAs } from './shippedObjects.ts';

/** The objects of one build tree: the ones the build made, and the ones the source shipped. */
export interface BuildOutputs {
  /** Paths under the root, sorted. */
  built: string[];
  /** Objects whose content is a file of the original source (`from`), wherever they are now. */
  shipped: { path: string; from: string }[];
}

/**
 * Files under `root` that look like objects (ELF or `ar` magic; never judged by name) and that the
 * build made or changed: not the content of an object the original source shipped, at any path.
 * (Content, not times or names: the build copy gets new timestamps, and a shipped object copied to
 * a new name or into DESTDIR is still not the build's output.)
 * The build wrote the tree, so it is walked without following a link (`dest -> /` would make the
 * host walk its own root) and every file is read inside it; `onRefused` hears why a root was not
 * walked at all (it is a link, say).
 */
export async function findBuildOutputs(
  root: string,
  shipped: ShippedObjects | null,
  onRefused: (reason: string) => void = () => {},
): Promise<BuildOutputs> {
  let entries: ReturnType<typeof walkConfined>['entries'];
  try {
    entries = walkConfined(root, { head: 8, skipDir: (name) => name === '.git' }).entries;
  } catch (error) {
    if (!(isConfinedPathError(error) && error.code === 'not-found')) onRefused((error as Error).message);
    return { built: [], shipped: [] };
  }
  const outputs: BuildOutputs = { built: [], shipped: [] };
  for (const entry of entries) {
    if (entry.type !== 'file' || entry.size < 4) continue;
    if (!entry.head || !hasObjectMagic(entry.head)) continue;
    const from = shipped
      ? shippedAs(shipped, entry.size, () => {
          try {
            return hashFileConfined(root, entry.path, { maxBytes: MAX_HASHED_OBJECT_BYTES }).sha256;
          } catch {
            return null;
          }
        })
      : null;
    if (from === null) outputs.built.push(entry.path);
    else outputs.shipped.push({ path: entry.path, from });
  }
  outputs.built.sort();
  return outputs;
}
