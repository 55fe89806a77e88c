import { randomBytes } from 'node:crypto';
import { closeSync, constants, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join, posix } from 'node:path';
import { Zip, ZipDeflate } from 'fflate';
import { COPY_CHUNK, isConfinedPathError, openConfined } from '../../fs/index.ts';
import type { PortState } from '../state/PortState.ts';

/** Compression level of the package's entries. */
const PACKAGE_LEVEL = 6;
/** The zip format without its 64-bit extension, which the streaming writer does not write. */
export const MAX_PACKAGE_BYTES = 0xffff_ffff;

/**
 * NAME-riscv64.zip (`--package`): the port's files, the delivered artifacts and a manifest,
 * streamed chunk by chunk from the files into the zip on disk, so memory stays one chunk and the
 * compressor's window whatever the artifacts weigh. The artifacts are the copies finish made
 * (plain files), read inside artifacts/ so no path can pull in another file. Written beside the
 * final name and renamed: the zip is the old one or the whole new one.
 */
export function writePackageZip(state: PortState, outDir: string, written: readonly string[]): string {
  const file = join(outDir, `${state.source.name}-riscv64.zip`);
  const temp = `${file}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  const out = openSync(
    temp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o644,
  );
  let size = 0;
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) {
      failure ??= error;
      return;
    }
    size += chunk.length;
    if (size > MAX_PACKAGE_BYTES) failure ??= new Error(`the package passes ${MAX_PACKAGE_BYTES} bytes`);
    if (failure) return;
    for (let done = 0; done < chunk.length; ) done += writeSync(out, chunk, done, chunk.length - done);
  });
  const check = () => {
    if (failure) throw failure;
  };
  try {
    const buffer = Buffer.alloc(COPY_CHUNK);
    const addFd = (name: string, fd: number) => {
      const entry = new ZipDeflate(name, { level: PACKAGE_LEVEL });
      zip.add(entry);
      for (;;) {
        const read = readSync(fd, buffer, 0, COPY_CHUNK, null);
        if (read === 0) break;
        // the compressor may keep a reference until the next push: give it its own bytes
        entry.push(Uint8Array.prototype.slice.call(buffer, 0, read), false);
        check();
      }
      entry.push(new Uint8Array(0), true);
      check();
    };
    for (const name of written) {
      // rvport's own files in OUT/NAME, read inside it all the same
      const handle = openConfined(outDir, name);
      try {
        addFd(name, handle.fd);
      } finally {
        closeSync(handle.fd);
      }
    }
    for (const path of deliveredArtifacts(state)) {
      let handle: ReturnType<typeof openConfined>;
      try {
        handle = openConfined(join(outDir, 'artifacts'), posix.normalize(path));
      } catch (error) {
        if (isConfinedPathError(error)) continue; // not copied (an object, or refused): not packaged
        throw error;
      }
      try {
        addFd(posix.join('artifacts', posix.normalize(path)), handle.fd);
      } finally {
        closeSync(handle.fd);
      }
    }
    const manifest = {
      package: state.source.name,
      source: state.source,
      verification: state.verification,
      artifacts: state.artifacts.filter((a) => a.role !== 'object' && a.role !== 'other'),
      ...(state.delivery ? { delivery: state.delivery } : {}),
      files: written,
    };
    const entry = new ZipDeflate('manifest.json', { level: PACKAGE_LEVEL });
    zip.add(entry);
    entry.push(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), true);
    zip.end();
    check();
    closeSync(out);
    renameSync(temp, file);
    return file;
  } catch (error) {
    try {
      closeSync(out);
    } catch {
      // closed already
    }
    rmSync(temp, { force: true });
    throw error;
  }
}

/** What finish delivered (older states: every artifact, those never copied are not found). */
function deliveredArtifacts(state: PortState): string[] {
  return state.delivery ? state.delivery.delivered : state.artifacts.map((a) => a.path);
}
