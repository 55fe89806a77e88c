import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBatchList } from './parseBatchList.ts';

const base = mkdtempSync(join(tmpdir(), 'rvport-batch-list-'));
mkdirSync(join(base, 'pkgs', 'zlib'), { recursive: true });
writeFileSync(join(base, 'pkgs', 'zlib', 'README'), 'x');

describe('parseBatchList', () => {
  it('reads one SOURCE a line, skipping blank lines and # comments', () => {
    const entries = parseBatchList(
      '# my packages\n\ndebian:cjson   # CMake\n  https://example.org/a/libinih.git\ndebian:sl=5.02-1\n',
      base,
    );
    expect(entries).toEqual([
      { key: 'debian:cjson', line: 3, source: 'debian:cjson', name: 'cjson', invalid: null },
      {
        key: 'https://example.org/a/libinih.git',
        line: 4,
        source: 'https://example.org/a/libinih.git',
        name: 'libinih',
        invalid: null,
      },
      { key: 'debian:sl=5.02-1', line: 5, source: 'debian:sl=5.02-1', name: 'sl', invalid: null },
    ]);
  });

  it('keeps a # inside a URL (no white space before it)', () => {
    const [entry] = parseBatchList('https://example.org/x.git#main\n', base);
    expect(entry?.source).toBe('https://example.org/x.git#main');
  });

  it('resolves relative paths against the LIST folder, so the port gets an absolute one', () => {
    const [entry] = parseBatchList('pkgs/zlib\n', base);
    expect(entry).toMatchObject({ source: join(base, 'pkgs', 'zlib'), name: 'zlib', invalid: null });
  });

  it('keeps invalid entries with the reason, and goes on', () => {
    const entries = parseBatchList(
      'https://example.org/x;rm -rf ~\nftp://example.org/y\n./missing\ndebian:Bad_Name\ndebian:zlib\n',
      base,
    );
    expect(entries.map((e) => [e.line, e.name, e.invalid])).toEqual([
      [1, null, expect.stringMatching(/shell metacharacters/)],
      [2, null, expect.stringMatching(/unknown SOURCE scheme/)],
      [3, null, expect.stringMatching(/no such file or directory/)],
      [4, null, expect.stringMatching(/invalid Debian source package/)],
      [5, 'zlib', null],
    ]);
  });

  it('refuses a repeated SOURCE and a repeated package name (one output folder per name)', () => {
    const entries = parseBatchList('debian:zlib\ndebian:zlib\npkgs/zlib\n', base);
    expect(entries.map((e) => [e.key, e.invalid])).toEqual([
      ['debian:zlib', null],
      ['debian:zlib@2', 'the same SOURCE as line 1'],
      [join(base, 'pkgs', 'zlib'), expect.stringMatching(/the same package name 'zlib' as line 1/)],
    ]);
  });

  it('gives an empty list for a file with only comments', () => {
    expect(parseBatchList('# nothing\n\n   # here\n', base)).toEqual([]);
  });
});
