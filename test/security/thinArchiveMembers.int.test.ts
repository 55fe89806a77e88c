import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/rvportCli.ts';

const riscv64Object = fileURLToPath(new URL('../../src/verify/fixtures/riscv64-norvc.o', import.meta.url));

let base: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'rvport-sec-thin-'));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/**
 * A hostile build tree: a thin archive whose members name a host file outside the tree (an x86_64
 * object, the canary), a link out of the tree to it, and a FIFO. `rvport verify` must read none
 * of them, count none as another machine's, not hang, and judge the archive by its real member.
 */
describe('rvport verify on a thin archive that points out of its tree', () => {
  it('follows no member out of the tree and does not hang on a FIFO', async () => {
    const tree = join(base, 'tree');
    const hostDir = join(base, 'host');
    mkdirSync(join(tree, 'lib'), { recursive: true });
    mkdirSync(hostDir);
    const canary = join(hostDir, 'canary.o');
    writeFileSync(join(base, 'c.c'), 'int canary(void) { return 7; }\n');
    execFileSync('cc', ['-c', join(base, 'c.c'), '-o', canary]);
    const canaryBefore = readFileSync(canary);
    const canaryMtime = statSync(canary).mtimeMs;
    copyFileSync(riscv64Object, join(tree, 'lib', 'good.o'));
    copyFileSync(riscv64Object, join(tree, 'lib', 'link.o'));
    copyFileSync(riscv64Object, join(tree, 'lib', 'fifo.o'));
    execFileSync('ar', ['rcT', 'libhostile.a', 'good.o', '../../host/canary.o', 'link.o', 'fifo.o'], {
      cwd: join(tree, 'lib'),
    });
    unlinkSync(join(tree, 'lib', 'link.o'));
    symlinkSync(canary, join(tree, 'lib', 'link.o'));
    unlinkSync(join(tree, 'lib', 'fifo.o'));
    execFileSync('mkfifo', [join(tree, 'lib', 'fifo.o')]);

    const run = await runCli(['verify', '--json', join(tree, 'lib', 'libhostile.a')], { cwd: tree });
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const report = JSON.parse(run.stdout);
    const archive = report.files[0];
    expect(archive.members.map((m: { kind: string }) => m.kind)).toEqual([
      'elf',
      'unreadable',
      'unreadable',
      'unreadable',
    ]);
    expect(archive.members[1].error).toMatch(/outside the tree \(not followed\)/);
    expect(archive.members[2].error).toMatch(/symbolic link out of the tree/);
    expect(archive.members[3].error).toMatch(/not a regular file/);
    expect(report.foreign).toEqual([]);
    expect(report.verdict).toBe('verified');
    expect(report.reason).toMatch(/3 archive members could not be read/);
    expect(run.code).toBe(0);
    expect(readFileSync(canary)).toEqual(canaryBefore);
    expect(statSync(canary).mtimeMs).toBe(canaryMtime);
  });
});
