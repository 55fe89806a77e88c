import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Writes a file of the store by a rename from a temporary beside it: a crash or a concurrent
 * port never leaves a half-written file under the final name, and two ports writing the same
 * (checked, hence identical) file both succeed.
 */
export async function writeAtomically(path: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.tmp-${randomBytes(4).toString('hex')}`;
  try {
    await writeFile(temp, data, { flag: 'wx' });
    await rename(temp, path);
  } finally {
    await rm(temp, { force: true });
  }
}
