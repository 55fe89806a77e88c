import { describe, expect, it } from 'vitest';
import { allowedPlanEnv, planEnvProblem } from './planEnvironment.ts';

describe('planEnvProblem', () => {
  it('lets a plan set build variables', () => {
    for (const name of [
      'CFLAGS',
      'CXXFLAGS',
      'LDFLAGS',
      'ZLIB_LIBS',
      'CMAKE_BUILD_TYPE',
      'GOFLAGS',
      'ac_cv_func_malloc_0_nonnull',
      'SOURCE_DATE_EPOCH',
    ])
      expect(planEnvProblem(name), name).toBeUndefined();
  });

  it('refuses what changes how programs load or which start-up code runs', () => {
    for (const name of [
      'LD_AUDIT',
      'LD_PRELOAD',
      'GCONV_PATH',
      'GLIBC_TUNABLES',
      'BASH_ENV',
      'ENV',
      'PERL5OPT',
      'PYTHONSTARTUP',
      'NODE_OPTIONS',
      'MALLOC_CHECK_',
      'PATH',
      'QEMU_LD_PREFIX',
      'RVPORT_DESTDIR',
    ])
      expect(planEnvProblem(name), name).toMatch(/may not be set/);
    expect(planEnvProblem('MY_RANDOM_THING')).toMatch(/not a build variable/);
    expect(planEnvProblem('A B')).toMatch(/invalid/);
  });

  it('keeps the allowed part of an environment from a recipe and names the rest', () => {
    expect(allowedPlanEnv({ CFLAGS: '-O2', LD_AUDIT: '/tmp/x.so', GCONV_PATH: '/tmp' })).toEqual({
      env: { CFLAGS: '-O2' },
      dropped: ['LD_AUDIT', 'GCONV_PATH'],
    });
  });
});
