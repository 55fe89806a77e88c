import { describe, expect, it } from 'vitest';
import type { Sandbox, SandboxRunResult } from '../../sandbox/Sandbox.ts';
import type { ArtifactRecord } from '../state/PortState.ts';
import { smokeRunPrograms } from './smokeRunPrograms.ts';

const result = (exitCode: number, stdout = ''): SandboxRunResult => ({
  exitCode,
  stdout,
  stderr: exitCode === 127 ? 'cannot run' : '',
  truncated: false,
  stdoutBytes: stdout.length,
  stderrBytes: 0,
  durationMs: 1,
  timedOut: false,
  aborted: false,
  commandNotFound: false,
});

/** A tree holding only /build/src/here (it prints its version) and /build/src/broken (exit 127). */
function sandbox(calls: string[][]): Sandbox {
  return {
    run: async (command: readonly string[]) => {
      calls.push([...command]);
      if (command[0] === 'test')
        return result(['/build/src/here', '/build/src/broken'].includes(command[2] ?? '') ? 0 : 1);
      if (command[0] === '/build/src/here') return result(0, 'here 1.0');
      // a program in a folder the tree lacks: the sandbox cannot even enter its working folder
      if (command[0]?.startsWith('/build/src/obj/')) return result(1);
      return result(127);
    },
  } as unknown as Sandbox;
}

const program = (path: string): ArtifactRecord =>
  ({ path, role: 'program', machine: 'riscv64' }) as ArtifactRecord;

describe('smokeRunPrograms', () => {
  it('records a program the tree does not hold as absent, and one that cannot start as a failure', async () => {
    const calls: string[][] = [];
    const runs = await smokeRunPrograms(sandbox(calls), [
      program('here'),
      program('gone'),
      program('obj/conf_1a/gone'),
      program('broken'),
    ]);
    expect(runs).toEqual([
      { program: 'here', command: 'here --version', exitCode: 0, output: 'here 1.0' },
      { program: 'gone', command: 'gone --version', exitCode: 127, output: '', absent: true },
      {
        program: 'obj/conf_1a/gone',
        command: 'obj/conf_1a/gone --version',
        exitCode: 127,
        output: '',
        absent: true,
      },
      { program: 'broken', command: 'broken --version', exitCode: 127, output: 'cannot run' },
      { program: 'broken', command: 'broken --help', exitCode: 127, output: 'cannot run' },
    ]);
    // the absent program is not tried a second time
    expect(calls.filter((c) => c[0] === '/build/src/gone')).toHaveLength(1);
  });

  it('runs a byte-identical copy once, and does not ask a program that never answered for --help', async () => {
    const calls: string[][] = [];
    const box = {
      run: async (command: readonly string[]) => {
        calls.push([...command]);
        if (command[0] === '/build/src/build/gui') return { ...result(137), timedOut: true };
        return result(0, 'tool 2.0');
      },
    } as unknown as Sandbox;
    const hashed = (path: string, sha256: string) => ({ ...program(path), sha256 });
    const runs = await smokeRunPrograms(box, [
      hashed('build/gui', 'a'.repeat(64)),
      hashed('DESTDIR/usr/bin/gui', 'a'.repeat(64)),
      hashed('build/tool', 'b'.repeat(64)),
    ]);
    expect(runs).toEqual([
      { program: 'build/gui', command: 'build/gui --version', exitCode: 137, output: '', timedOut: true },
      {
        program: 'DESTDIR/usr/bin/gui',
        command: 'DESTDIR/usr/bin/gui --version',
        exitCode: 137,
        output: '',
        timedOut: true,
        sameAs: 'build/gui',
      },
      { program: 'build/tool', command: 'build/tool --version', exitCode: 0, output: 'tool 2.0' },
    ]);
    expect(calls.map((c) => c[0])).toEqual(['/build/src/build/gui', '/build/src/build/tool']);
  });
});
