import { describe, expect, it } from 'vitest';
import { nativeAptFrontend, planNativeApt } from './nativeApt.ts';

const MIRROR = 'http://archive.test/debian';
const sha = (c: string) => c.repeat(64);

/** A Packages stanza of the tools tree's amd64 index. */
const stanza = (name: string, version: string, depends: string, arch = 'amd64', c = 'a') =>
  `Package: ${name}\nVersion: ${version}\nArchitecture: ${arch}\n${depends ? `Depends: ${depends}\n` : ''}Filename: pool/main/${name[0]}/${name}/${name}_${version}_${arch}.deb\nSize: 1000\nSHA256: ${sha(c)}\n`;

const INDEX = [
  stanza(
    'apt',
    '3.0.4',
    'adduser, gpgv | gpgv2, libapt-pkg7.0 (>= 3.0.4), libc6 (>= 2.34), libseccomp2 (>= 2.4.2), libstdc++6 (>= 13)',
  ),
  stanza(
    'libapt-pkg7.0',
    '3.0.4',
    'libbz2-1.0, libc6 (>= 2.38), liblz4-1 (>= 0.0~r127), libxxhash0 (>= 0.8.0), libzstd1 (>= 1.5.5)',
    'amd64',
    'b',
  ),
  stanza('libseccomp2', '2.6.0-2', 'libc6 (>= 2.4)', 'amd64', 'c'),
  stanza('liblz4-1', '1.10.0-4', 'libc6 (>= 2.14)', 'amd64', 'd'),
  stanza('libxxhash0', '0.8.3-2', 'libc6 (>= 2.14)', 'amd64', 'e'),
  stanza('gpgv', '2.4.7-21', 'libc6'),
  stanza('apt', '3.0.4', 'libc6', 'riscv64'),
].join('\n');

/** What an `essential` tools tree with a toolchain has installed. */
const TOOLS = new Set(['libc6', 'libbz2-1.0', 'libzstd1', 'libstdc++6', 'libgcc-s1']);

const plan = (overrides: Partial<Parameters<typeof planNativeApt>[0]> = {}) =>
  planNativeApt({
    packagesIndex: INDEX,
    rootfsAptVersion: '3.0.4',
    toolsInstalled: TOOLS,
    mirror: MIRROR,
    allowedPrefixes: [MIRROR],
    ...overrides,
  });

describe('planNativeApt', () => {
  it('takes apt of the rootfs version and the libraries the tools tree lacks, not the programs apt depends on', () => {
    const result = plan();
    if ('refused' in result) throw new Error(result.refused);
    expect(result.packages).toEqual([
      'apt=3.0.4',
      'libapt-pkg7.0=3.0.4',
      'libseccomp2=2.6.0-2',
      'liblz4-1=1.10.0-4',
      'libxxhash0=0.8.3-2',
    ]);
    expect(result.downloads[0]).toEqual({
      uri: `${MIRROR}/pool/main/a/apt/apt_3.0.4_amd64.deb`,
      fileName: 'apt_3.0.4_amd64.deb',
      size: 1000,
      hash: { algorithm: 'sha256', hex: sha('a') },
    });
    expect(result.downloads.map((d) => d.hash.hex)).toEqual(['a', 'b', 'c', 'd', 'e'].map(sha));
  });

  it('needs nothing more when the tools tree has every library', () => {
    const result = plan({ toolsInstalled: new Set([...TOOLS, 'libseccomp2', 'liblz4-1', 'libxxhash0']) });
    expect('packages' in result && result.packages).toEqual(['apt=3.0.4', 'libapt-pkg7.0=3.0.4']);
  });

  it('refuses another apt version, an apt missing from the rootfs, and a library the index lacks', () => {
    expect(plan({ rootfsAptVersion: '3.0.3' })).toEqual({
      refused: "the tools tree's package index has apt 3.0.4, the rootfs 3.0.3",
    });
    expect(plan({ rootfsAptVersion: undefined })).toEqual({ refused: 'apt is not installed in the rootfs' });
    expect(plan({ packagesIndex: INDEX.replace('Package: libxxhash0', 'Package: other') })).toEqual({
      refused: "libapt-pkg7.0 needs libxxhash0, which the tools tree's index lacks",
    });
  });

  it('refuses a pool path that leaves the archive', () => {
    const result = plan({
      packagesIndex: INDEX.replace('pool/main/l/liblz4-1/', 'pool/../../elsewhere/'),
    });
    expect(result).toEqual({
      refused: expect.stringMatching(/^liblz4-1: no download in the archive's pool/),
    });
  });
});

describe('nativeAptFrontend', () => {
  it('runs the unpacked apt-get through the x86_64 loader for the rootfs architecture', () => {
    const script = nativeAptFrontend('riscv64');
    expect(script).toMatch(/^#!\/bin\/sh\n/);
    expect(script).toContain(
      'exec /lib64/ld-linux-x86-64.so.2 --library-path /usr/lib/rvport-apt/x86_64/usr/lib/x86_64-linux-gnu /usr/lib/rvport-apt/x86_64/usr/bin/apt-get -o APT::Architecture=riscv64 "$@"',
    );
  });

  it('refuses an architecture that is not a plain name', () => {
    expect(() => nativeAptFrontend('riscv64; rm -rf /')).toThrow(/not an architecture/);
  });
});
