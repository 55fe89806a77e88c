import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nameFromTarball, parseSource } from './parseSource.ts';

const dir = mkdtempSync(join(tmpdir(), 'rvport-parse-'));
mkdirSync(join(dir, 'my-project'));
writeFileSync(join(dir, 'my-project', 'Makefile'), 'all:\n');
mkdirSync(join(dir, 'empty'));
writeFileSync(join(dir, 'zlib-1.3.1.tar.gz'), '');
writeFileSync(join(dir, 'notes.txt'), '');

describe('parseSource', () => {
  it.each([
    ['https://github.com/madler/zlib.git', 'git', 'zlib'],
    ['https://github.com/madler/zlib', 'git', 'zlib'],
    ['http://example.org/repos/tool/', 'git', 'tool'],
    ['ssh://git@example.org/group/lib.git', 'git', 'lib'],
    ['git@github.com:madler/zlib.git', 'git', 'zlib'],
    ['https://example.org/dl/xz-5.6.2.tar.xz', 'tarball-url', 'xz'],
    ['debian:hello', 'debian', 'hello'],
    ['debian:libtheora=1.2.0~alpha1+dfsg-6', 'debian', 'libtheora'],
    ['debian:memtest86+', 'debian', 'memtest86+'],
  ])('%s is a %s source named %s', (raw, kind, name) => {
    expect(parseSource(raw, dir)).toMatchObject({ kind, name });
  });

  it('reads Debian versions and local paths', () => {
    expect(parseSource('debian:hello=2.10-3')).toMatchObject({ package: 'hello', version: '2.10-3' });
    expect(parseSource('my-project', dir)).toMatchObject({
      kind: 'directory',
      path: join(dir, 'my-project'),
      name: 'my-project',
    });
    expect(parseSource(`file://${dir}/my-project`)).toMatchObject({ kind: 'git', name: 'my-project' });
    expect(parseSource('zlib-1.3.1.tar.gz', dir)).toMatchObject({ kind: 'tarball', name: 'zlib' });
    expect(parseSource(`file://${dir}/zlib-1.3.1.tar.gz`)).toMatchObject({ kind: 'tarball', name: 'zlib' });
  });

  it.each([
    ['https://example.invalid/a;rm -rf ~', /shell metacharacters/],
    ['https://example.org/$(id)', /shell metacharacters/],
    ['debian:hello`id`', /shell metacharacters/],
    ['file:///nonexistent', /no such file/],
    ['/nonexistent/path', /no such file/],
    ['ftp://example.org/x.git', /unknown SOURCE scheme/],
    ['svn+ssh://example.org/x', /unknown SOURCE scheme/],
    ['gopher:thing', /unknown SOURCE scheme/],
    ['debian:Bad_Name', /invalid Debian source package/],
    ['debian:hello=', /invalid Debian version/],
    ['--upload-pack=evil', /may not start with/],
    ['', /empty SOURCE/],
    ['notes.txt', /neither a directory nor a source tarball/],
    ['empty', /empty directory/],
  ])('refuses %s', (raw, message) => {
    expect(() => parseSource(raw, dir)).toThrow(message);
  });

  it('derives tarball names without version and extension', () => {
    expect(nameFromTarball('/x/tcc_0.9.27+git20200814.62c30a4a.orig.tar.bz2')).toBe('tcc');
    expect(nameFromTarball('libyaml-0.2.5.tar.gz')).toBe('libyaml');
    expect(nameFromTarball('memtest86+_7.20.orig.tar.gz')).toBe('memtest86+');
    expect(nameFromTarball('project.tgz')).toBe('project');
  });
});
