import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decideVerdict } from './decideVerdict.ts';
import { inspectFile } from './inspectFile.ts';

/** riscv64 objects cross-compiled by fixtures/make-fixtures.sh. */
const fx = (name: string) => join(import.meta.dirname, 'fixtures', name);

let base: string;
let tree: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'rvport-thin-'));
  tree = join(base, 'tree');
  mkdirSync(join(tree, 'obj'), { recursive: true });
  mkdirSync(join(tree, 'build', 'lib'), { recursive: true });
  copyFileSync(fx('riscv64-norvc.o'), join(tree, 'obj', 'add.o'));
  copyFileSync(fx('riscv64-softfloat.o'), join(tree, 'obj', 'soft.o'));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** A thin archive made by the host's GNU ar, as meson and some Makefiles make them. */
function thinArchive(archive: string, members: string[]): string {
  execFileSync('ar', ['rcT', archive, ...members], { cwd: tree });
  return join(tree, archive);
}

/** An x86_64 object from the host compiler. */
function hostObject(path: string): void {
  const source = join(base, 'host.c');
  writeFileSync(source, 'int host(void) { return 1; }\n');
  execFileSync('cc', ['-c', source, '-o', path]);
}

describe('thin archives', () => {
  it('reads each member from the file it names and verifies an all-riscv64 archive', async () => {
    const archive = thinArchive('build/lib/libadd.a', ['obj/add.o', 'obj/soft.o']);
    const facts = await inspectFile(archive, { root: tree });
    expect(facts.kind).toBe('archive');
    expect(facts.machine).toBe('riscv64');
    expect(facts.members?.map((m) => [m.path, m.kind, m.machine])).toEqual([
      [`${archive}(../../obj/add.o)`, 'elf', 'riscv64'],
      [`${archive}(../../obj/soft.o)`, 'elf', 'riscv64'],
    ]);
    expect(decideVerdict([facts])).toMatchObject({ verdict: 'verified', foreign: [] });
  });

  it('finds a member of another machine', async () => {
    hostObject(join(tree, 'obj', 'host.o'));
    const archive = thinArchive('build/lib/libmixed.a', ['obj/add.o', 'obj/host.o']);
    const verdict = decideVerdict([await inspectFile(archive, { root: tree })]);
    expect(verdict.verdict).toBe('not_verified');
    expect(verdict.foreign).toEqual([`${archive}(../../obj/host.o)`]);
    expect(verdict.reason).toMatch(/host\.o\) is x86_64 64-bit, not riscv64/);
  });

  it('reports a member whose file is gone as unreadable, and judges by the others', async () => {
    const archive = thinArchive('build/lib/libadd.a', ['obj/add.o', 'obj/soft.o']);
    unlinkSync(join(tree, 'obj', 'soft.o'));
    const facts = await inspectFile(archive, { root: tree });
    expect(facts.members?.[1]).toMatchObject({ kind: 'unreadable', machine: null });
    expect(facts.members?.[1]?.error).toMatch(/no such file/);
    const verdict = decideVerdict([facts]);
    expect(verdict).toMatchObject({ verdict: 'verified', foreign: [] });
    expect(verdict.reason).toMatch(/1 archive member could not be read/);
  });

  it('says so when no member can be read', async () => {
    const archive = thinArchive('build/lib/libadd.a', ['obj/add.o']);
    unlinkSync(join(tree, 'obj', 'add.o'));
    const verdict = decideVerdict([await inspectFile(archive, { root: tree })]);
    expect(verdict.verdict).toBe('not_verified');
    expect(verdict.reason).toMatch(/none of its 1 members could be read/);
  });

  it('does not follow a member path out of the tree, nor a symbolic link out of it', async () => {
    const outside = join(base, 'outside');
    mkdirSync(outside);
    hostObject(join(outside, 'x86.o'));
    copyFileSync(fx('riscv64-norvc.o'), join(tree, 'obj', 'link.o'));
    const archive = thinArchive('build/lib/libescape.a', ['obj/add.o', '../outside/x86.o', 'obj/link.o']);
    // ar resolves links when it archives; the build (or a hostile tree) can swap one in later.
    unlinkSync(join(tree, 'obj', 'link.o'));
    symlinkSync(join(outside, 'x86.o'), join(tree, 'obj', 'link.o'));
    const facts = await inspectFile(archive, { root: tree });
    expect(facts.members?.map((m) => m.kind)).toEqual(['elf', 'unreadable', 'unreadable']);
    expect(facts.members?.[1]?.error).toMatch(/outside the tree \(not followed\)/);
    expect(facts.members?.[2]?.error).toMatch(/symbolic link out of the tree/);
    // Files outside the tree are never evidence of another machine.
    expect(decideVerdict([facts])).toMatchObject({ verdict: 'verified', foreign: [] });
  });

  it('does not hang on a FIFO planted as a member', async () => {
    const archive = thinArchive('build/lib/libadd.a', ['obj/add.o', 'obj/soft.o']);
    unlinkSync(join(tree, 'obj', 'soft.o'));
    execFileSync('mkfifo', [join(tree, 'obj', 'soft.o')]);
    const facts = await inspectFile(archive, { root: tree });
    expect(facts.members?.[1]).toMatchObject({
      kind: 'unreadable',
      error: expect.stringMatching(/regular file/),
    });
  });

  it('reads absolute member paths through the path the tree had where it was built', async () => {
    const archive = thinArchive('build/lib/libabs.a', [join(tree, 'obj', 'add.o'), '/etc/hostname']);
    // As if the tree had been at /build/src in the sandbox: only paths under it are read.
    const moved = join(base, 'moved');
    execFileSync('mv', [tree, moved]);
    const facts = await inspectFile(join(moved, 'build/lib/libabs.a'), { root: moved, builtAt: tree });
    expect(archive).toContain(tree);
    expect(facts.members?.map((m) => m.kind)).toEqual(['elf', 'unreadable']);
    expect(facts.members?.[1]?.error).toMatch(/absolute path outside the tree/);
  });
});
