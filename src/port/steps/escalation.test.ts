import { describe, expect, it } from 'vitest';
import { anError, portState } from '../testing/portStateFixture.ts';
import { escalationReason, isErrorLoop } from './escalation.ts';
import { needsNewPlan } from './needsNewPlan.ts';
import { replanSignatureOf } from './replanSignatures.ts';

describe('escalationReason', () => {
  it('is null for a port that may go on', () => {
    expect(escalationReason(portState({ attemptCount: 2, errors: [anError('COMPILATION')] }))).toBeNull();
  });
  it("stops at a front end the mode's cross gcc cannot have, and only in a cross mode", () => {
    const cc1obj = anError('COMPILATION', "gcc: fatal error: cannot execute 'cc1obj': execvp: No such file");
    const accelerated = portState({ attemptCount: 1, errors: [cc1obj] });
    accelerated.options.mode = 'accelerated';
    expect(escalationReason(accelerated)).toMatch(
      /^the accelerated cross gcc has no Objective-C compiler \(cc1obj\).*--mode emulated/,
    );
    const emulated = portState({ attemptCount: 1, errors: [cc1obj] });
    emulated.options.mode = 'emulated';
    expect(escalationReason(emulated)).toBeNull();
  });
  it('names the attempt limit, a loop, permission, disk, blockers and cost', () => {
    expect(escalationReason(portState({ attemptCount: 5 }))).toMatch(/attempt limit \(5\)/);
    const loop = [1, 2, 3].map(() => anError('COMPILATION', 'x.c: error: boom'));
    expect(escalationReason(portState({ attemptCount: 3, errors: loop }))).toMatch(/same error 3 times/);
    expect(escalationReason(portState({ attemptCount: 1, errors: [anError('PERMISSION')] }))).toMatch(
      /permission/,
    );
    expect(escalationReason(portState({ attemptCount: 1, errors: [anError('DISK_SPACE')] }))).toMatch(
      /disk is full/,
    );
    expect(
      escalationReason(
        portState({
          attemptCount: 1,
          errors: [anError('ARCHITECTURE_IMPOSSIBLE', 'no riscv64 JIT backend')],
        }),
      ),
    ).toMatch(/fundamental blocker \(ARCHITECTURE_IMPOSSIBLE\): no riscv64 JIT backend/);
    const costly = portState();
    costly.llm.costUsd = 1.5;
    expect(escalationReason(costly)).toMatch(/\$1\.50 passed the cap of \$1\.00/);
  });
});

describe('isErrorLoop', () => {
  it('needs three attempts and three equal signatures at the end', () => {
    const e = anError('COMPILATION', 'x.c: error: boom');
    expect(isErrorLoop(portState({ attemptCount: 2, errors: [e, e] }))).toBe(false);
    expect(isErrorLoop(portState({ attemptCount: 4, errors: [anError('LINKING'), e, e, e] }))).toBe(true);
    expect(isErrorLoop(portState({ attemptCount: 4, errors: [e, e, e, anError('LINKING')] }))).toBe(false);
  });
});

describe('re-plan signatures', () => {
  it.each([
    ['E: Unable to locate package libfoo-dev', 'apt-unknown-package'],
    ['sh: 1: ./configure: not found', 'configure-missing'],
    ['/bin/sh: ./configure: No such file or directory', 'configure-missing'],
    ['make: *** No targets specified and no makefile found.  Stop.', 'makefile-missing'],
    [
      'CMake Error: The source directory "/src" does not appear to contain CMakeLists.txt.',
      'cmakelists-missing',
    ],
    [
      "ERROR: Neither source directory '..' nor build directory 'build' contain a build file meson.build.",
      'meson-build-missing',
    ],
    ['go: go.mod file not found in current directory or any parent directory', 'manifest-missing'],
    ['error: could not find `Cargo.toml` in `/src` or any parent directory', 'manifest-missing'],
  ])('%s → %s', (text, id) => {
    expect(replanSignatureOf(text)).toBe(id);
  });

  it('sends a plan error to the scout once', () => {
    const state = portState({ errors: [anError('CONFIGURATION', './configure: not found')] });
    expect(needsNewPlan(state)).toBe(true);
    expect(needsNewPlan({ ...state, replansUsed: ['configure-missing'] })).toBe(false);
    expect(needsNewPlan(portState({ errors: [anError('COMPILATION')] }))).toBe(false);
    expect(needsNewPlan(portState())).toBe(false);
  });
});
