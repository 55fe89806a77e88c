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
    return findBuildOutputs(build, original).then((found) => expect(found).toEqual(['old.a', 'prog']));
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
    expect(await findBuildOutputs(build, null)).toEqual(['prog']);
    const refused: string[] = [];
    expect(await findBuildOutputs(join(dir, 'dest'), null, (r) => refused.push(r))).toEqual([]);
    expect(refused).toEqual([`${join(dir, 'dest')} is a symbolic link; it is not followed`]);
    expect(await findBuildOutputs(join(dir, 'missing'), null, (r) => refused.push(r))).toEqual([]);
    expect(refused).toHaveLength(1);
  });
});
