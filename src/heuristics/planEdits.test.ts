import { describe, expect, it } from 'vitest';
import { withEnv } from './planEdits.ts';
import { autotoolsPlan } from './testing/heuristicContext.ts';

describe('withEnv', () => {
  it('sets and appends build variables', () => {
    const set = withEnv(autotoolsPlan, 'CFLAGS', '-O2');
    expect(withEnv(set, 'CFLAGS', '-fcommon', 'append').env).toEqual({ CFLAGS: '-O2 -fcommon' });
  });

  it('refuses a variable the plan allow-list would drop, so that no repair is lost unseen', () => {
    expect(() => withEnv(autotoolsPlan, 'PYTHONPATH', '/build/src/shim')).toThrow(
      /PYTHONPATH may not be set/,
    );
    expect(() => withEnv(autotoolsPlan, 'LD_PRELOAD', '/x.so')).toThrow(/cannot carry LD_PRELOAD/);
  });
});
