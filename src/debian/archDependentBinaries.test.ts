import { describe, expect, it } from 'vitest';
import { archDependentBinaries } from './archDependentBinaries.ts';

const CONTROL = `Source: demo
Build-Depends: debhelper-compat (= 13)
Architecture: any

# a comment between stanzas

Package: libdemo1
Architecture: any
Description: the library

Package: demo-doc
Architecture: all
Description: documentation

Package: demo-tools
Architecture: amd64 riscv64
Description: tools
`;

describe('archDependentBinaries', () => {
  it('lists the binary packages Debian builds machine code for, not the source stanza or Architecture: all', () => {
    expect(archDependentBinaries(CONTROL)).toEqual(['libdemo1', 'demo-tools']);
  });

  it('finds none in a packaging of Architecture: all packages only', () => {
    expect(archDependentBinaries('Source: d\n\nPackage: d-data\nArchitecture: all\n')).toEqual([]);
  });
});
