import { describe, expect, it } from 'vitest';
import { chooseBuildDepends } from './chooseBuildDepends.ts';

describe('chooseBuildDepends', () => {
  const relations = [
    ['zlib1g-dev', 'libz-dev'],
    ['libfoo-dev'],
    ['gone-a', 'gone-b'],
    ['libbar-dev', 'zlib1g-dev'],
  ];

  it('takes the first installable alternative and names the relations none of which is', () => {
    expect(chooseBuildDepends(relations, new Set(['libz-dev', 'libfoo-dev', 'libbar-dev']))).toEqual({
      packages: ['libz-dev', 'libfoo-dev', 'libbar-dev'],
      unavailable: ['gone-a | gone-b'],
    });
  });

  it('takes the first alternative when the package lists are unknown, each package once', () => {
    expect(chooseBuildDepends([['a'], ['b', 'c'], ['a']], null)).toEqual({
      packages: ['a', 'b'],
      unavailable: [],
    });
  });
});
