import { describe, expect, it } from 'vitest';
import { SourceTree } from '../SourceTree.ts';
import { cmake } from './cmake.ts';

describe('cmake detector', () => {
  it('is surer of a CMakeLists.txt that declares a project', () => {
    expect(
      cmake.detect(
        SourceTree.fromFiles({
          'CMakeLists.txt': 'cmake_minimum_required(VERSION 3.10)\nproject(cJSON C)\n',
        }),
        '',
      )?.confidence,
    ).toBe(0.8);
    expect(
      cmake.detect(SourceTree.fromFiles({ 'CMakeLists.txt': 'add_library(x x.c)\n' }), '')?.confidence,
    ).toBe(0.55);
    expect(cmake.detect(SourceTree.fromFiles({ Makefile: '' }), '')).toBeNull();
  });

  it('plans an out-of-tree build with ctest', () => {
    const plan = cmake.defaultPlan({ type: 'cmake', confidence: 0.8, dir: '.', evidence: [], details: {} });
    expect(plan.map((p) => p.name)).toEqual(['configure', 'build', 'test', 'install']);
    expect(plan[2]?.commands[0]).toMatch(/^ctest/);
  });
});
