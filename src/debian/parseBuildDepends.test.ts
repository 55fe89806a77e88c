import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  isPackagingOnly,
  matchesRiscv64,
  packagingToolDepends,
  parseBuildDepends,
  sourceStanza,
} from './parseBuildDepends.ts';

// debian/control of real trixie source packages, as their debian.tar ships them
const fixture = (name: string) =>
  readFileSync(join(import.meta.dirname, 'fixtures', `${name}.control`), 'utf8');

describe('parseBuildDepends', () => {
  it('reads a one-line field and leaves debhelper out', () => {
    const control =
      'Source: demo\nSection: games\nBuild-Depends: debhelper (>= 9), libncurses5-dev\n\nPackage: demo\nArchitecture: any\n';
    expect(parseBuildDepends(control)).toEqual([['libncurses5-dev']]);
  });

  it('leaves documentation typesetting tools out unless an alternative is not one (the Build-Depends of libemf)', () => {
    const control = [
      'Source: libemf',
      'Build-Depends: debhelper-compat (= 13),',
      '\tautoconf-archive,',
      '\tdoxygen, doxygen-latex, graphviz, texlive-latex-extra, python3-sphinx-rtd-theme,',
      '\tlibfoo-dev | doxygen',
      '',
    ].join('\n');
    expect(parseBuildDepends(control)).toEqual([['autoconf-archive'], ['libfoo-dev', 'doxygen']]);
  });

  it('reads continuation lines, architecture qualifiers and build profiles (util-linux)', () => {
    const names = parseBuildDepends(fixture('util-linux')).map((r) => r.join('|'));
    // profiles: only nodoc is set, so <!stage1 !nodoc> (asciidoctor, for the manual pages) does
    // not hold, <!nocheck> does; the package's own <!pkg.util-linux.noverity> holds too
    expect(names).toEqual([
      'bc',
      'bison',
      'flex',
      'gettext',
      'libaudit-dev',
      'libcap-ng-dev',
      'libcrypt-dev',
      'libcryptsetup-dev',
      'libncurses-dev',
      'libpam0g-dev',
      'libreadline-dev',
      'libselinux1-dev',
      'libsqlite3-dev',
      'libsystemd-dev',
      'libtool',
      'libudev-dev',
      'netbase',
      'pkgconf',
      'po4a',
      'socat',
      'systemd',
      'systemd-dev',
      'zlib1g-dev',
    ]);
    expect(names).not.toContain('libedit-dev'); // Build-Conflicts
  });

  it('takes Build-Depends-Arch, not -Indep, with alternatives and :any (libxml2)', () => {
    expect(parseBuildDepends(fixture('libxml2'))).toEqual([
      ['liblzma-dev'],
      ['libpython3-all-dev'],
      ['pkg-config'],
      ['python3-all-dev'],
      ['python3-setuptools'],
      ['rename'],
      ['zlib1g-dev', 'libz-dev'],
    ]);
  });

  it('evaluates architecture lists and positive profiles for a riscv64 build', () => {
    const control = [
      'Source: demo',
      '# a comment line inside the stanza',
      'Build-Depends: libfoo-dev [amd64 i386], libbar-dev [!riscv64], libbaz-dev [!hurd-any !kfreebsd-any],',
      ' libcross-dev <cross>, libtest-dev <!nocheck> <cross>, libstage-dev <stage1 !nocheck>,',
      ' docbook-xsl <!nodoc>, libdocless-dev <nodoc>,',
      ' libnuma-dev [any-riscv64] | libfake-dev, libx [linux-any] | liby, gcc-multilib [amd64] | gcc,',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a Debian substitution variable, not a template
      ' tool:native (>= 1.0~), ${misc:Depends}, Bad_Name',
      'Build-Depends-Indep: doxygen',
      '',
      'Package: demo',
      'Build-Depends: not-read',
    ].join('\n');
    expect(parseBuildDepends(control)).toEqual([
      ['libbaz-dev'],
      ['libtest-dev'],
      // nodoc is active: the documentation's tools are left out, what replaces them is kept
      ['libdocless-dev'],
      ['libnuma-dev', 'libfake-dev'],
      ['libx', 'liby'],
      ['gcc'],
      ['tool'],
    ]);
  });

  it('gives nothing for a control file without a source stanza field', () => {
    expect(parseBuildDepends('')).toEqual([]);
    expect(parseBuildDepends('Source: x\n\nPackage: x\nBuild-Depends: foo\n')).toEqual([]);
    expect(sourceStanza('\n\nSource: x\nBuild-Depends: a,\n b\n').get('build-depends')).toBe('a,\nb');
  });
});

describe('packagingToolDepends', () => {
  it('names the packaging tools a build by debian/rules needs, debhelper for debhelper-compat', () => {
    const control =
      'Source: demo\nBuild-Depends: debhelper-compat (= 13),\n dh-sequence-python3,\n libfoo-dev,\n dh-exec | debhelper (>= 9)\nBuild-Depends-Indep: dh-sequence-sphinxdoc\n';
    expect(packagingToolDepends(control)).toEqual(['debhelper', 'dh-sequence-python3', 'dh-exec']);
    expect(parseBuildDepends(control)).toEqual([['libfoo-dev']]);
  });
});

describe('matchesRiscv64', () => {
  it.each([
    ['riscv64', true],
    ['any', true],
    ['linux-any', true],
    ['any-riscv64', true],
    ['linux-riscv64', true],
    ['gnu-linux-any', true],
    ['amd64', false],
    ['hurd-any', false],
    ['hurd-i386', false],
    ['musl-linux-riscv64', false],
    ['kfreebsd-any', false],
  ])('%s → %s', (term, expected) => {
    expect(matchesRiscv64(term)).toBe(expected);
  });
});

describe('isPackagingOnly', () => {
  it('knows Debian packaging tools and nothing else', () => {
    for (const name of [
      'debhelper',
      'debhelper-compat',
      'dh-autoreconf',
      'dh-sequence-python3',
      'quilt',
      'cdbs',
    ])
      expect(isPackagingOnly(name)).toBe(true);
    for (const name of ['autoconf', 'libtool', 'pkgconf', 'dhcpcd'])
      expect(isPackagingOnly(name)).toBe(false);
  });
});
