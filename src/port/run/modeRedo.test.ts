import { describe, expect, it } from 'vitest';
import { makeError } from '../graph/nodes/recordError.ts';
import { frontEndMissing } from '../steps/frontEndMissing.ts';
import { portState } from '../testing/portStateFixture.ts';
import { askedMode, modeRedo } from './modeRedo.ts';

/** What gcc printed in an accelerated instance for an Objective-C file (the x86_64 cross gcc). */
const CC1OBJ = [
  'x86_64-linux-gnu-gcc -DHAVE_CONFIG_H -I. -g -O2 -c -o main.o main.m',
  "gcc: fatal error: cannot execute 'cc1obj': execvp: No such file or directory",
  'compilation terminated.',
  'make: *** [Makefile:12: main.o] Error 1',
].join('\n');

const failedWith = (output: string) =>
  portState({
    buildStatus: 'ESCALATED',
    errors: [{ ...makeError({ node: 'build', output }), category: 'COMPILATION' }],
  });

describe('modeRedo', () => {
  it('redoes an auto-mode accelerated build in emulated mode when gcc lacked a front end', () => {
    expect(frontEndMissing(failedWith(CC1OBJ).errors[0] as never)).toEqual({
      frontEnd: 'cc1obj',
      language: 'Objective-C',
      package: 'gobjc',
    });
    const redo = modeRedo(failedWith(CC1OBJ), { mode: 'accelerated', perBuild: false, asked: 'auto' });
    expect(redo).toEqual({
      mode: 'emulated',
      reason:
        'the build needs the Objective-C compiler (cc1obj), which the accelerated cross gcc lacks; redone in emulated mode with gobjc',
      compilers: ['gobjc'],
    });
  });

  it('reads the front end in the typographic quotes of a UTF-8 locale (captured from a port)', () => {
    const captured = 'cc: fatal error: cannot execute ‘cc1obj’: posix_spawnp: No such file or directory';
    expect(
      modeRedo(failedWith(captured), { mode: 'accelerated', perBuild: false, asked: 'auto' })?.mode,
    ).toBe('emulated');
  });

  it('goes straight to emulated from a per-build native-userland build that lacked one', () => {
    const ada = failedWith("gcc: error trying to exec 'gnat1': execvp: No such file or directory");
    expect(modeRedo(ada, { mode: 'native-userland', perBuild: true, asked: 'auto' })?.mode).toBe('emulated');
  });

  it('redoes other failed per-build builds in accelerated mode, as before', () => {
    const redo = modeRedo(failedWith('a.c:1:1: error: x'), {
      mode: 'native-userland',
      perBuild: true,
      asked: 'auto',
    });
    expect(redo?.mode).toBe('accelerated');
    expect(redo?.reason).toMatch(/^native-userland mode on the build's own evidence was refused/);
  });

  it('leaves a mode asked for by name, an emulated build, an SSH target and other failures alone', () => {
    const state = failedWith(CC1OBJ);
    expect(modeRedo(state, { mode: 'accelerated', perBuild: false, asked: 'accelerated' })).toBeUndefined();
    expect(modeRedo(state, { mode: 'emulated', perBuild: false, asked: 'auto' })).toBeUndefined();
    expect(modeRedo(state, { mode: 'native', perBuild: false, asked: 'auto' })).toBeUndefined();
    const other = failedWith('a.c:1:1: error: unknown type name x');
    expect(modeRedo(other, { mode: 'accelerated', perBuild: false, asked: 'auto' })).toBeUndefined();
  });

  it("keeps the user's mode through a redo", () => {
    expect(askedMode({ mode: 'accelerated' })).toBe('accelerated');
    expect(
      askedMode({ mode: 'accelerated', redoOf: { mode: 'accelerated', reason: 'r', asked: 'auto' } }),
    ).toBe('auto');
  });
});
