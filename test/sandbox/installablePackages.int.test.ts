import { beforeAll, describe, expect, it } from 'vitest';
import { imageAptLists, loadInstallablePackages } from '../../src/debian/installablePackages.ts';
import { imageKeys } from '../../src/sandbox/findImages.ts';
import { DEFAULT_SUITE } from '../../src/sandbox/imageRecipes.ts';
import { sandboxPaths } from '../../src/sandbox/sandboxPaths.ts';
import { PROVISION_TIMEOUT_MS, provisionedImages } from './provisionedImages.ts';

beforeAll(async () => {
  await provisionedImages();
}, PROVISION_TIMEOUT_MS);

describe("the rootfs image's package lists", () => {
  it('name what apt in the sandbox can install, virtual packages included', async () => {
    const names = await loadInstallablePackages(
      imageAptLists(sandboxPaths().image(imageKeys(DEFAULT_SUITE).rootfs)),
    );
    expect(names?.size).toBeGreaterThan(30_000);
    for (const name of ['zlib1g-dev', 'libz-dev', 'libbsd-dev', 'autoconf', 'libncurses-dev'])
      expect(names?.has(name), name).toBe(true);
    expect(names?.has('libzlib-dev')).toBe(false);
  });
});
