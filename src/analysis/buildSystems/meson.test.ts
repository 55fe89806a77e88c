import { describe, expect, it } from 'vitest';
import { SourceTree } from '../SourceTree.ts';
import { meson } from './meson.ts';

describe('meson detector', () => {
  it('finds a meson project and plans meson test', () => {
    expect(
      meson.detect(SourceTree.fromFiles({ 'meson.build': "project('inih', ['c'])\n" }), '')?.confidence,
    ).toBe(0.8);
    expect(
      meson.detect(SourceTree.fromFiles({ 'meson.build': "executable('x', 'x.c')\n" }), '')?.confidence,
    ).toBe(0.5);
    expect(meson.detect(SourceTree.fromFiles({ 'meson_options.txt': '' }), '')).toBeNull();
    const plan = meson.defaultPlan({ type: 'meson', confidence: 0.8, dir: '.', evidence: [], details: {} });
    expect(plan.find((p) => p.name === 'test')?.commands[0]).toMatch(/^meson test/);
  });
});
