import { describe, expect, it } from 'vitest';
import { addRiscv64Architecture } from './addRiscv64Architecture.ts';

// libguytools2's debian/control (trixie), its binary stanzas
const GUYTOOLS = `Source: libguytools2
Section: libs
Build-Depends: debhelper-compat (= 13), qtbase5-dev, qttools5-dev-tools
Standards-Version: 4.6.2

Package: libguytools2
Architecture: amd64 arm64 armhf i386 powerpc
Depends: \${shlibs:Depends}, \${misc:Depends}
Description: Library used by the guymager

Package: libguytools2-dev
Architecture: amd64 arm64 armhf i386 powerpc
Depends: libguytools2 (= \${binary:Version}), \${misc:Depends}
Description: development files
`;

describe('addRiscv64Architecture', () => {
  it('adds riscv64 to the architecture lists that leave it out', () => {
    const { control, packages } = addRiscv64Architecture(GUYTOOLS);
    expect(packages).toEqual(['libguytools2', 'libguytools2-dev']);
    expect(control.match(/^Architecture: .*$/gm)).toEqual([
      'Architecture: amd64 arm64 armhf i386 powerpc riscv64',
      'Architecture: amd64 arm64 armhf i386 powerpc riscv64',
    ]);
    // nothing else changes
    expect(control.replaceAll(' riscv64', '')).toBe(GUYTOOLS);
  });

  it('leaves all, any and every list that already takes riscv64', () => {
    for (const arch of [
      'all',
      'any',
      'linux-any',
      'amd64 riscv64',
      'any-riscv64',
      'linux-riscv64 linux-amd64',
    ]) {
      const text = `Source: x\n\nPackage: x\nArchitecture: ${arch}\n`;
      expect(addRiscv64Architecture(text)).toEqual({ control: text, packages: [] });
    }
  });

  it("leaves the source stanza's fields and a list continued on the next line alone", () => {
    const text = 'Source: x\nArchitecture: amd64\n\nPackage: y\nArchitecture: amd64\n arm64\n';
    expect(addRiscv64Architecture(text)).toEqual({ control: text, packages: [] });
  });
});
