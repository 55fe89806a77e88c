import { describe, expect, it } from 'vitest';
import { parseBinaryPackages } from './parseBinaryPackages.ts';

const SHA = 'a22f924b08aa2c3a70c8a8e6cc547d7dce7d237211d0a66c1f5898a2f228def4';

/** Stanzas as `apt-cache show` prints them from a Packages index. */
const SHOWN = `Package: librust-itoa-dev
Source: rust-itoa
Version: 1.0.14-1
Architecture: riscv64
Provides: librust-itoa+default-dev (= 1.0.14-1),
 librust-itoa-1-dev (= 1.0.14-1)
Filename: pool/main/r/rust-itoa/librust-itoa-dev_1.0.14-1_riscv64.deb
SHA256: ${SHA}

Package: librust-foo-dev
Source: rust-foo (2.0.0-3)
Version: 2.0.0-3+b1
Architecture: riscv64
Filename: pool/main/r/rust-foo/librust-foo-dev_2.0.0-3+b1_riscv64.deb
SHA256: ${SHA.toUpperCase()}

Package: zlib1g
Version: 1:1.3.dfsg+really1.3.1-1+b1
SHA256: ${SHA}

Package: no-hash
Version: 1
`;

describe('parseBinaryPackages', () => {
  it('reads name, version, source and its version, pool file and hash', () => {
    expect(parseBinaryPackages(SHOWN)).toEqual([
      {
        name: 'librust-itoa-dev',
        version: '1.0.14-1',
        architecture: 'riscv64',
        source: 'rust-itoa',
        sourceVersion: '1.0.14-1',
        filename: 'pool/main/r/rust-itoa/librust-itoa-dev_1.0.14-1_riscv64.deb',
        sha256: SHA,
      },
      expect.objectContaining({
        name: 'librust-foo-dev',
        source: 'rust-foo',
        sourceVersion: '2.0.0-3',
        sha256: SHA,
      }),
      // no Source: the source package has the binary's name
      expect.objectContaining({
        name: 'zlib1g',
        source: 'zlib1g',
        sourceVersion: '1:1.3.dfsg+really1.3.1-1+b1',
      }),
    ]);
  });

  it('reads the size and the Pre-Depends and Depends of an index stanza', () => {
    const [p] = parseBinaryPackages(
      `Package: apt\nVersion: 3.0.4\nArchitecture: amd64\nPre-Depends: libc6 (>= 2.34)\nDepends: libapt-pkg7.0 (>= 3.0.4), gpgv | gpgv2\nSize: 1504436\nSHA256: ${SHA}\n`,
    );
    expect(p).toMatchObject({
      size: 1504436,
      depends: 'libc6 (>= 2.34), libapt-pkg7.0 (>= 3.0.4), gpgv | gpgv2',
    });
    expect(parseBinaryPackages(`Package: x\nVersion: 1\nSize: many\nSHA256: ${SHA}\n`)[0]).not.toHaveProperty(
      'size',
    );
  });
});
