import { describe, expect, it } from 'vitest';
import { crateBinary, crateSourceNote, pickCrateFolder, upstreamVersion } from './acquireDebianCrate.ts';

describe('the crate package of a rust-* source package', () => {
  it('is the plain librust-CRATE-dev among its binaries, never a feature package', () => {
    const binaries = ['librust-foo+std-dev', 'librust-foo-dev', 'librust-foo+alloc-dev'];
    expect(crateBinary({ name: 'rust-foo', binaries })).toBe('librust-foo-dev');
    // a versioned source (rust-nom-7) names its package after itself
    expect(
      crateBinary({ name: 'rust-nom-7', binaries: ['librust-nom-7-dev', 'librust-nom-7+std-dev'] }),
    ).toBe('librust-nom-7-dev');
    // another name, when it is the only plain one
    expect(crateBinary({ name: 'rust-foo-crate', binaries: ['librust-foo-dev', 'librust-foo+x-dev'] })).toBe(
      'librust-foo-dev',
    );
    // programs only, or no Binary: field
    expect(crateBinary({ name: 'rust-alacritty', binaries: ['alacritty'] })).toBeNull();
    expect(crateBinary({ name: 'rust-x' })).toBeNull();
    expect(crateBinary({ name: 'rust-x', binaries: ['librust-a-dev', 'librust-b-dev'] })).toBeNull();
  });

  it("is unpacked from the crate's own folder, however Debian spells its name", () => {
    expect(upstreamVersion('1.0.14-1')).toBe('1.0.14');
    expect(upstreamVersion('1:0.3.0~beta.2-1+b1')).toBe('0.3.0-beta.2');
    expect(pickCrateFolder(['itoa-1.0.14'], 'itoa', '1.0.14')).toBe('itoa-1.0.14');
    expect(pickCrateFolder(['lazy_static-1.5.0'], 'lazy-static', '1.5.0')).toBe('lazy_static-1.5.0');
    expect(pickCrateFolder(['Inflector-0.11.4'], 'inflector', '0.11.4')).toBe('Inflector-0.11.4');
    // a repacked version (+dfsg) still finds the one folder of the crate
    expect(pickCrateFolder(['foo-1.2.3'], 'foo', '1.2.3+dfsg')).toBe('foo-1.2.3');
    expect(pickCrateFolder(['foo-1.2.3', 'foo-1.3.0'], 'foo', '1.3.0')).toBe('foo-1.3.0');
    // another crate whose name starts the same is not this one
    expect(pickCrateFolder(['foo-bar-1.0.0'], 'foo', '1.0.0')).toBeNull();
    expect(pickCrateFolder([], 'foo', '1.0.0')).toBeNull();
  });

  it('is named in the warning a port shows', () => {
    expect(crateSourceNote({ package: 'librust-itoa-dev', version: '1.0.14-1' })).toBe(
      "the source package's files are not on the mirror; the crate source comes from librust-itoa-dev 1.0.14-1, Debian's packaged crate",
    );
  });
});
