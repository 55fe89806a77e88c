import { describe, expect, it } from 'vitest';
import { DebianSourceIndex, parseSources } from './DebianSourceIndex.ts';
import { parseBuildDepends } from './parseBuildDepends.ts';

/** Two stanzas in the Sources index's own form (fields as the archive writes them). */
const SOURCES = `Package: libuv1
Binary: libuv1-dev,
 libuv1t64
Version: 1.50.0-2
Build-Depends: cmake, debhelper-compat (= 13), dh-exec,
 netbase, pkgconf
Build-Depends-Indep: sphinx <!nodoc>
Homepage: https://github.com/libuv/libuv
Vcs-Browser: https://salsa.debian.org/debian/libuv1
Vcs-Git: https://salsa.debian.org/debian/libuv1.git
Files:
 0123 456 libuv1_1.50.0.orig.tar.gz

Package: jansson
Version: 2.14-2
Build-Depends: debhelper-compat (= 13)
Build-Depends-Arch: cmake [linux-any], libfoo-dev [amd64]
Vcs-Git: https://github.com/akheron/jansson.git -b debian
`;

describe('DebianSourceIndex', () => {
  it('reads the Sources stanzas a port can use and finds them by name and by project URL', () => {
    const entries = parseSources(SOURCES);
    expect(entries.map((e) => [e.name, e.version, e.homepage])).toEqual([
      ['libuv1', '1.50.0-2', 'https://github.com/libuv/libuv'],
      ['jansson', '2.14-2', undefined],
    ]);
    expect(entries.map((e) => e.binaries)).toEqual([['libuv1-dev', 'libuv1t64'], undefined]);
    const index = new DebianSourceIndex(entries);
    expect(index.forProject('https://github.com/libuv/libuv.git').map((e) => e.name)).toEqual(['libuv1']);
    expect(index.forProject('https://github.com/akheron/jansson/issues').map((e) => e.name)).toEqual([
      'jansson',
    ]);
    expect(index.forProject('https://salsa.debian.org/debian/libuv1')).toEqual([]);
    // Build-Depends-Indep builds documentation only; Build-Depends-Arch applies, per architecture
    expect(parseBuildDepends(index.named('libuv1')?.buildDepends ?? '')).toEqual([
      ['cmake'],
      ['netbase'],
      ['pkgconf'],
    ]);
    expect(parseBuildDepends(index.named('jansson')?.buildDepends ?? '')).toEqual([['cmake']]);
  });

  it("keeps a Go package's import path, the first of several, when it reads as one", () => {
    const [socks, many, bad] = parseSources(
      [
        'Package: golang-github-armon-go-socks5\nVersion: 0.0~git20160902.e753329-1.1\nBuild-Depends: dh-golang\nGo-Import-Path: github.com/armon/go-socks5\n',
        'Package: golang-x\nVersion: 1\nGo-Import-Path: example.com/x, example.com/x/v2\n',
        'Package: golang-y\nVersion: 1\nGo-Import-Path: ../../etc\n',
      ].join('\n'),
    );
    expect(socks?.goImportPath).toBe('github.com/armon/go-socks5');
    expect(many?.goImportPath).toBe('example.com/x');
    expect(bad?.goImportPath).toBeUndefined();
  });
});
