import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findBuildOutputs } from './findBuildOutputs.ts';
import { indexShippedObjects } from './shippedObjects.ts';

const elf = (tag: string) =>
  Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]), Buffer.from(tag)]);
let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('findBuildOutputs', () => {
  it('finds objects the build made or changed, not objects shipped in the source, whatever their times', () => {
    dir = mkdtempSync(join(tmpdir(), 'rvport-outputs-'));
    const original = join(dir, 'original');
    const build = join(dir, 'build');
    for (const root of [original, build]) mkdirSync(join(root, 'asm', 'i386'), { recursive: true });
    writeFileSync(join(original, 'asm', 'i386', 'shipped.o'), elf('prebuilt'));
    writeFileSync(join(original, 'old.a'), Buffer.from('!<arch>\nold'));
    copyFileSync(join(original, 'asm', 'i386', 'shipped.o'), join(build, 'asm', 'i386', 'shipped.o'));
    utimesSync(join(build, 'asm', 'i386', 'shipped.o'), new Date(0), new Date(0)); // a new time, same bytes
    writeFileSync(join(build, 'old.a'), Buffer.from('!<arch>\nnew'));
    writeFileSync(join(build, 'prog'), elf('riscv64'));
    writeFileSync(join(build, 'notes.txt'), 'not an object');
    mkdirSync(join(build, '.git'));
    writeFileSync(join(build, '.git', 'pack.o'), elf('git'));
    return findBuildOutputs(build, indexShippedObjects(original)).then((found) =>
      expect(found).toEqual({
        built: ['old.a', 'prog'],
        shipped: [{ path: 'asm/i386/shipped.o', from: 'asm/i386/shipped.o' }],
      }),
    );
  });

  it('counts a shipped object copied to another name or into DESTDIR as shipped, not built', async () => {
    dir = mkdtempSync(join(tmpdir(), 'rvport-outputs-'));
    const original = join(dir, 'original');
    const build = join(dir, 'build');
    const dest = join(dir, 'dest');
    mkdirSync(join(original, 'prebuilt'), { recursive: true });
    mkdirSync(join(build, 'prebuilt'), { recursive: true });
    mkdirSync(join(dest, 'usr', 'lib'), { recursive: true });
    writeFileSync(join(original, 'prebuilt', 'libfast.so'), elf('prebuilt riscv64'));
    copyFileSync(join(original, 'prebuilt', 'libfast.so'), join(build, 'prebuilt', 'libfast.so'));
    copyFileSync(join(original, 'prebuilt', 'libfast.so'), join(build, 'libfast.so.1'));
    copyFileSync(join(original, 'prebuilt', 'libfast.so'), join(dest, 'usr', 'lib', 'libfast.so.1'));
    // same size, other bytes: built
    writeFileSync(join(build, 'libother.so'), elf('prebuilt RISCV64'));
    const shipped = indexShippedObjects(original);
    expect(await findBuildOutputs(build, shipped)).toEqual({
      built: ['libother.so'],
      shipped: [
        { path: 'libfast.so.1', from: 'prebuilt/libfast.so' },
        { path: 'prebuilt/libfast.so', from: 'prebuilt/libfast.so' },
      ],
    });
    expect(await findBuildOutputs(dest, shipped)).toEqual({
      built: [],
      shipped: [{ path: 'usr/lib/libfast.so.1', from: 'prebuilt/libfast.so' }],
    });
  });

  it('indexes no object through a link the source planted', () => {
    dir = mkdtempSync(join(tmpdir(), 'rvport-outputs-'));
    const original = join(dir, 'original');
    mkdirSync(join(dir, 'host'));
    mkdirSync(original);
    writeFileSync(join(dir, 'host', 'secret.o'), elf('host'));
    symlinkSync(join(dir, 'host', 'secret.o'), join(original, 'linked.o'));
    symlinkSync('../host', join(original, 'hostdir'));
    expect(indexShippedObjects(original).bySize.size).toBe(0);
    const refused: string[] = [];
    symlinkSync('/', join(dir, 'rootlink'));
    expect(indexShippedObjects(join(dir, 'rootlink'), (r) => refused.push(r)).bySize.size).toBe(0);
    expect(refused).toEqual([`${join(dir, 'rootlink')} is a symbolic link; it is not followed`]);
  });

  it('walks no link the build planted: not dest -> /, not a link to a host object', async () => {
    dir = mkdtempSync(join(tmpdir(), 'rvport-outputs-'));
    const build = join(dir, 'build');
    mkdirSync(join(dir, 'host'));
    writeFileSync(join(dir, 'host', 'secret.o'), elf('host'));
    mkdirSync(build);
    writeFileSync(join(build, 'prog'), elf('riscv64'));
    symlinkSync(join(dir, 'host', 'secret.o'), join(build, 'linked.o'));
    symlinkSync('../host', join(build, 'hostdir'));
    symlinkSync('/', join(dir, 'dest'));
    expect((await findBuildOutputs(build, null)).built).toEqual(['prog']);
    const refused: string[] = [];
    expect((await findBuildOutputs(join(dir, 'dest'), null, (r) => refused.push(r))).built).toEqual([]);
    expect(refused).toEqual([`${join(dir, 'dest')} is a symbolic link; it is not followed`]);
    expect((await findBuildOutputs(join(dir, 'missing'), null, (r) => refused.push(r))).built).toEqual([]);
    expect(refused).toHaveLength(1);
  });
});
