import { describe, expect, it } from 'vitest';
import {
  acceleratedLayerKey,
  imageKey,
  nativeToolsRecipe,
  nativeUserlandLayerKey,
  rootfsRecipe,
  rustLayerKey,
  rustToolsRecipe,
  toolsRecipe,
  x86RootfsRecipe,
} from './imageRecipes.ts';

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

describe('native-userland images', () => {
  it('get keys of their own, so the accelerated images stay valid', () => {
    expect(imageKey(nativeToolsRecipe())).not.toBe(imageKey(toolsRecipe()));
    expect(nativeToolsRecipe().packages).toEqual(
      expect.arrayContaining([...toolsRecipe().packages, 'make', 'm4']),
    );
    expect(nativeUserlandLayerKey('r', 't')).toMatch(/^native-[0-9a-f]{16}$/);
    expect(nativeUserlandLayerKey('r', 't')).not.toBe(nativeUserlandLayerKey('r', 'u'));
    expect(nativeUserlandLayerKey('r', 't')).not.toBe(acceleratedLayerKey('r', 't'));
  });
});

describe('the x86_64 build root of differential tests', () => {
  it('is the riscv64 rootfs recipe on amd64, under a key of its own', () => {
    const x86 = x86RootfsRecipe('trixie');
    expect({ ...x86, architecture: 'riscv64' }).toEqual(rootfsRecipe('trixie'));
    expect(imageKey(x86)).toMatch(/^rootfs-trixie-amd64-[0-9a-f]{16}$/);
    expect(imageKey(x86)).not.toBe(imageKey(rootfsRecipe('trixie')));
    expect(imageKey(x86)).not.toBe(imageKey(toolsRecipe('trixie')));
  });
});

describe('Rust images', () => {
  it('get keys of their own, so the accelerated and native-userland keys stay valid', () => {
    expect(imageKey(rustToolsRecipe())).not.toBe(imageKey(toolsRecipe()));
    expect(rustToolsRecipe().packages).toEqual(
      expect.arrayContaining([...toolsRecipe().packages, 'rustc', 'cargo']),
    );
    expect(toolsRecipe().packages).not.toContain('rustc');
    expect(rustLayerKey('r', 't')).toMatch(/^rustaccel-[0-9a-f]{16}$/);
    expect(rustLayerKey('r', 't')).not.toBe(acceleratedLayerKey('r', 't'));
    expect(rustLayerKey('r', 't')).not.toBe(rustLayerKey('r', 'u'));
  });
});
