import { describe, expect, it } from 'vitest';
import { acceleratedLayerKey, imageKey, rootfsRecipe, toolsRecipe } from './imageRecipes.ts';

describe('imageKey', () => {
  it('is stable, names the suite and architecture, and ignores package order', () => {
    const recipe = rootfsRecipe('trixie');
    expect(imageKey(recipe)).toBe(imageKey(rootfsRecipe('trixie')));
    expect(imageKey(recipe)).toMatch(/^rootfs-trixie-riscv64-[0-9a-f]{16}$/);
    expect(imageKey({ ...recipe, packages: [...recipe.packages].reverse() })).toBe(imageKey(recipe));
  });

  it('changes with any input', () => {
    const recipe = rootfsRecipe('trixie');
    expect(imageKey({ ...recipe, packages: [...recipe.packages, 'bison'] })).not.toBe(imageKey(recipe));
    expect(imageKey(rootfsRecipe('forky'))).not.toBe(imageKey(recipe));
    expect(imageKey({ ...toolsRecipe(), purge: [] })).not.toBe(imageKey(toolsRecipe()));
    expect(acceleratedLayerKey('a', 'b')).not.toBe(acceleratedLayerKey('a', 'c'));
  });

  it('bakes the slow-to-install build tools into the rootfs and purges the cross glibc', () => {
    expect(rootfsRecipe().packages).toEqual(
      expect.arrayContaining(['meson', 'ninja-build', 'autoconf', 'libtool', 'cmake']),
    );
    expect(toolsRecipe().purge).toContain('libc6-dev-riscv64-cross');
  });
});
