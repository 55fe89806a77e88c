import { describe, expect, it } from 'vitest';
import { rootfsRecipe } from '../imageRecipes.ts';
import { mmdebstrapArgs } from './mmdebstrapArgs.ts';

describe('mmdebstrapArgs', () => {
  it('builds the recipe into a directory from the given mirror, with the deb cache hooks', () => {
    const args = mmdebstrapArgs(rootfsRecipe('trixie'), '/t/tree', 'http://m.example.org/debian', '/c');
    expect(args.slice(0, 5)).toEqual([
      'mmdebstrap',
      '--mode=root',
      '--format=directory',
      '--variant=buildd',
      '--architectures=riscv64',
    ]);
    expect(args).toContain('--setup-hook=sync-in /c /var/cache/apt/archives/');
    expect(args.find((a) => a.startsWith('--include='))).toContain('meson');
    expect(args.slice(-3)).toEqual(['trixie', '/t/tree', 'http://m.example.org/debian']);
  });

  it('has no hooks without a cache', () => {
    expect(
      mmdebstrapArgs(rootfsRecipe(), '/t', 'http://m.example.org/debian').some((a) => a.includes('hook')),
    ).toBe(false);
  });
});
