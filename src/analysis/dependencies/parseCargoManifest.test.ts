import { describe, expect, it } from 'vitest';
import { parseCargoManifest } from './parseCargoManifest.ts';

describe('parseCargoManifest', () => {
  it('reads the three spellings, renames, targets, scopes and sources', () => {
    const text = [
      '[package]',
      'name = "demo"',
      'version = "0.1.0" # not a dependency',
      '',
      '[dependencies]',
      'fnv = "1.0"  # the hasher',
      "itoa = { version = '1', optional = true }",
      'json = { package = "serde_json", version = ">=1.0.100, <2" }',
      'local = { path = "../local" }',
      'forked = { git = "https://example.invalid/forked.git" }',
      'memchr.workspace = true',
      '',
      "[target.'cfg(unix)'.dependencies]",
      'libc = "0.2"',
      '',
      '[build-dependencies]',
      'cc = "1"',
      '',
      '[dev-dependencies]',
      'quickcheck = "1"',
      '',
      '[dependencies.rand]',
      'version = "0.8"',
      'default-features = false',
      '',
      '[workspace.dependencies]',
      'memchr = "2.7"',
      '',
      '[features]',
      'default = ["itoa"]',
    ].join('\n');
    expect(
      parseCargoManifest(text).map((d) => [
        d.name,
        d.requirement,
        d.scope,
        d.target ?? '',
        d.optional,
        d.source,
        d.fromWorkspace,
        d.line,
      ]),
    ).toEqual([
      ['fnv', '1.0', 'normal', '', false, 'registry', false, 6],
      ['itoa', '1', 'normal', '', true, 'registry', false, 7],
      ['serde_json', '>=1.0.100, <2', 'normal', '', false, 'registry', false, 8],
      ['local', '*', 'normal', '', false, 'path', false, 9],
      ['forked', '*', 'normal', '', false, 'git', false, 10],
      ['memchr', '*', 'normal', '', false, 'registry', true, 11],
      ['libc', '0.2', 'normal', 'cfg(unix)', false, 'registry', false, 14],
      ['cc', '1', 'build', '', false, 'registry', false, 17],
      ['quickcheck', '1', 'dev', '', false, 'registry', false, 20],
      ['rand', '0.8', 'normal', '', false, 'registry', false, 22],
      ['memchr', '2.7', 'workspace', '', false, 'registry', false, 27],
    ]);
  });

  it('reads nothing from a manifest without dependency tables or from garbage', () => {
    expect(parseCargoManifest('[package]\nname = "x"\n[features]\nstd = []\n')).toEqual([]);
    expect(parseCargoManifest('\u0000[[[dependencies\nfoo = = =\n}{')).toEqual([]);
  });
});
