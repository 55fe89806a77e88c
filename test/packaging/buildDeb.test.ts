import { describe, expect, it } from 'vitest';
import {
  controlFile,
  copyrightFile,
  debianChangelog,
  dependsField,
  manPage,
  nodejsDependency,
  type PackageJson,
  parseChangelog,
  UPSTREAM_TEST,
} from '../../scripts/build-deb.ts';

const pkg: PackageJson = {
  name: 'rvport',
  version: '1.2.3',
  description: 'Port a thing to RISC-V and prove it: builds, checks.',
  author: 'Someone <someone@example.org>',
  license: 'MIT',
  engines: { node: '>=20.19.0' },
};

const changelog = `# Changelog

Intro text.

## 1.2.3 (2026-12-07)

- Second: a long item that goes on and on, well past the width of one line of a Debian changelog,
  continued here.
- Another.

## 1.0.0 (2026-11-30)

- First.
`;

describe('build-deb: the control fields', () => {
  it('depends on the Node.js of engines and the host packages, without Essential ones', () => {
    expect(nodejsDependency('>=20.19.0')).toBe('nodejs (>= 20.19.0)');
    expect(() => nodejsDependency('^20')).toThrow(/engines/);
    expect(dependsField(pkg, ['qemu-user-static', 'tar', 'util-linux', 'git'])).toBe(
      'nodejs (>= 20.19.0), qemu-user-static, git',
    );
  });

  it('writes a control file with a short synopsis and an extended description', () => {
    const control = controlFile(pkg, { depends: 'nodejs (>= 20.19.0)', installedSizeKiB: 42 });
    expect(control).toMatch(/^Package: rvport\nVersion: 1\.2\.3\nArchitecture: all\n/);
    expect(control).toContain('\nMaintainer: Someone <someone@example.org>\n');
    expect(control).toContain('\nInstalled-Size: 42\n');
    expect(control).toContain('\nDescription: Port a thing to RISC-V and prove it\n rvport ports');
    expect(control).not.toContain('Homepage');
    for (const line of control.trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(
      controlFile({ ...pkg, homepage: 'https://example.org/rvport' }, { depends: '', installedSizeKiB: 1 }),
    ).toContain('\nHomepage: https://example.org/rvport\n');
    expect(() => controlFile({ ...pkg, author: 'nobody' }, { depends: '', installedSizeKiB: 1 })).toThrow(
      /author/,
    );
  });
});

describe('build-deb: the changelog', () => {
  it('reads the sections of CHANGELOG.md, newest first, with items joined across lines', () => {
    expect(parseChangelog(changelog)).toEqual([
      {
        version: '1.2.3',
        date: '2026-12-07',
        items: [
          'Second: a long item that goes on and on, well past the width of one line of a Debian changelog, continued here.',
          'Another.',
        ],
      },
      { version: '1.0.0', date: '2026-11-30', items: ['First.'] },
    ]);
  });

  it('writes it in Debian changelog form', () => {
    const text = debianChangelog(pkg, changelog);
    expect(text).toMatch(/^rvport \(1\.2\.3\) unstable; urgency=medium\n\n {2}\* Second: a long item/);
    expect(text).toContain('\n -- Someone <someone@example.org>  Mon, 07 Dec 2026 00:00:00 +0000\n');
    expect(text).toContain('\nrvport (1.0.0) unstable; urgency=medium\n\n  * First.\n');
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });

  it('stops when the newest section is not the version being built', () => {
    expect(() => debianChangelog({ ...pkg, version: '1.2.4' }, changelog)).toThrow(/1\.2\.3.*1\.2\.4/);
    expect(() => debianChangelog(pkg, '# Changelog\n')).toThrow(/no "## VERSION/);
  });
});

describe('build-deb: copyright, manual page, upstream tests', () => {
  it('names the bundled packages and where Debian keeps the Apache license', () => {
    const text = copyrightFile(pkg, 'MIT License\n\nCopyright (c) 2026 the makers\n', [
      { name: 'a', version: '1.0.0', license: 'Apache-2.0' },
      { name: 'b', version: '2.0.0', license: 'MIT' },
    ]);
    expect(text).toContain('Copyright: 2026 the makers\nLicense: MIT\n');
    expect(text).toContain('  a 1.0.0: Apache-2.0\n  b 2.0.0: MIT\n');
    expect(text).toContain('/usr/share/common-licenses/Apache-2.0');
  });

  it('makes rvport(1) from the help text', () => {
    const help =
      'Usage: rvport [options] [command]\n\nPort it.\n\nOptions:\n  -V, --version   output the version number\n\nCommands:\n  port [options] <source>  port SOURCE to riscv64 and prove it (git URL,\n                           directory)\n  doctor  check the host\n';
    const man = manPage(pkg, help, '2026-12-07');
    expect(man).toMatch(/^\.TH RVPORT 1 "2026-12-07" "rvport 1\.2\.3"/);
    expect(man).toContain(
      '.B port [options] <source>\nport SOURCE to riscv64 and prove it (git URL, directory)\n',
    );
    expect(man).toContain('.B doctor\ncheck the host\n');
    expect(man).toContain('.B \\-V, \\-\\-version\noutput the version number\n');
  });

  it('knows upstream test files from code', () => {
    for (const path of [
      'a/__tests__/x.js',
      'b/lib/base64.test.js',
      'b/lib/base64.test.d.ts',
      'c/x.spec.ts',
      'b/x.test.js.map',
    ])
      expect(path).toMatch(UPSTREAM_TEST);
    for (const path of ['a/lib/testing.js', 'a/test.js', 'tsx/dist/index.mjs', 'a/contest.js'])
      expect(path).not.toMatch(UPSTREAM_TEST);
  });
});
