import { describe, expect, it } from 'vitest';
import { SourceTree } from '../SourceTree.ts';
import { scons } from './scons.ts';

describe('scons detector', () => {
  it('needs an SConstruct (an SConscript alone is a part)', () => {
    expect(scons.detect(SourceTree.fromFiles({ SConstruct: 'env = Environment()\n' }), '')).toMatchObject({
      evidence: ['SConstruct'],
    });
    expect(scons.detect(SourceTree.fromFiles({ SConscript: '' }), '')).toBeNull();
  });
});
