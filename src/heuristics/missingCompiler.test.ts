import { afterEach, describe, expect, it } from 'vitest';
import { classifyError } from '../port/steps/classifyError.ts';
import { missingCompiler, missingCompilers } from './missingCompiler.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

describe('missing-compiler', () => {
  it("reads meson's Unknown compiler(s) as the compilers it tried, in its order", () => {
    expect(missingCompilers(fixture('meson-unknown-compiler'))).toEqual(['ldc2', 'ldc', 'gdc', 'dmd']);
    expect(
      missingCompilers("meson.build:1:0: ERROR: Unknown compiler(s): [['ccache', 'gfortran'], ['flang']]"),
    ).toEqual(['gfortran', 'flang']);
  });

  it("reads CMake's missing CMAKE_<LANG>_COMPILER as that language's compiler", () => {
    expect(missingCompilers(fixture('cmake-unknown-compiler'))).toEqual(['gfortran']);
  });

  it("reads gcc's missing front end as the compiler package that brings it", () => {
    expect(
      missingCompilers(
        "gcc: fatal error: cannot execute 'cc1obj': posix_spawnp: No such file or directory\ncompilation terminated.",
      ),
    ).toEqual(['gobjc']);
    expect(
      missingCompilers("gcc-14: error: cannot execute '/usr/libexec/gcc/x/14/f951': exec failed"),
    ).toEqual(['gfortran']);
    expect(missingCompilers("gcc: fatal error: cannot execute 'cc1': No such file")).toEqual([]);
    expect(
      missingCompilers('cc: fatal error: cannot execute ‘cc1obj’: posix_spawnp: No such file or directory'),
    ).toEqual(['gobjc']);
  });

  it('installs the first compiler that Debian packages for riscv64', async () => {
    const t = heuristicContext(fixture('meson-unknown-compiler'), {
      failure: { phase: 'configure', command: 'meson setup build' },
      providers: { 'command:gdc': 'gdc' },
    });
    const match = await missingCompiler.match(t.ctx);
    expect(match?.key).toBe('command:ldc2,command:ldc,command:gdc,command:dmd');
    const outcome = await missingCompiler.apply(t.ctx, match as HeuristicMatch);
    expect(outcome).toMatchObject({ applied: true, plan: { packages: ['gdc'] } });
    expect(t.installed).toEqual([['gdc']]);
  });

  it('applies nothing and names the compilers when none is packaged', async () => {
    const t = heuristicContext(fixture('cmake-unknown-compiler'), {
      failure: { phase: 'configure', command: 'cmake' },
    });
    const outcome = await missingCompiler.apply(
      t.ctx,
      (await missingCompiler.match(t.ctx)) as HeuristicMatch,
    );
    expect(outcome).toMatchObject({ applied: false, description: expect.stringContaining('gfortran') });
  });

  it('leaves an Objective-C or Ada front end to emulated mode when the cross gcc lacks it', async () => {
    const output = "gcc: fatal error: cannot execute 'cc1obj': execvp: No such file or directory";
    const providers = { 'command:gobjc': 'gobjc' };
    const failure = { phase: 'build' as const, command: 'make' };
    for (const mode of ['accelerated', 'native-userland'] as const) {
      const t = heuristicContext(output, { failure, providers, mode });
      expect(await missingCompiler.match(t.ctx), mode).toBeNull();
    }
    const emulated = heuristicContext(output, { failure, providers, mode: 'emulated' });
    expect((await missingCompiler.match(emulated.ctx))?.key).toBe('command:gobjc');
    const fortran = heuristicContext("gcc: error: cannot execute 'f951': exec failed", {
      failure,
      mode: 'accelerated',
    });
    expect((await missingCompiler.match(fortran.ctx))?.key).toBe('command:gfortran');
  });

  it('does not fire on other configure failures', () => {
    for (const name of ['meson-dependency-not-found', 'cmake-could-not-find', 'configure-library-not-found'])
      expect(missingCompilers(fixture(name)), name).toEqual([]);
  });
});

describe('classifying a missing compiler', () => {
  it('is MISSING_TOOLS for meson and CMake alike', () => {
    for (const name of ['meson-unknown-compiler', 'cmake-unknown-compiler'])
      expect(classifyError(fixture(name)).category, name).toBe('MISSING_TOOLS');
  });
});
