import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { goDirHash, goModHash } from './goDirHash.ts';
import { readGoModuleZip } from './readGoModuleZip.ts';

describe('goDirHash', () => {
  it("gives a published module's go.mod the hash the public go.sum files record", () => {
    // github.com/google/uuid v1.6.0/go.mod, as every go.sum that requires it lists it
    expect(goModHash(Buffer.from('module github.com/google/uuid\n'))).toBe(
      'h1:TIyPZe4MgqvfeYDBFedMoGGpEw/LqOeaOT+nhxU+yHo=',
    );
  });

  it('hashes a real module zip as sha256sum, sort and base64 do by the definition of dirhash', () => {
    const prefix = 'example.com/Hash@v0.1.0/';
    const files: Record<string, string> = {
      'go.mod': 'module example.com/Hash\n\ngo 1.22\n',
      'b.go': 'package hash\n',
      'a/z.go': 'package a\n',
      'README.md': '# readme\n',
    };
    const zip = zipSync(
      Object.fromEntries(Object.entries(files).map(([n, t]) => [`${prefix}${n}`, Buffer.from(t)])),
    );
    // the same files on disk, hashed by coreutils: "<sha256>  <name>\n" lines, sorted, hashed
    const dir = mkdtempSync(join(tmpdir(), 'dirhash-'));
    try {
      for (const [n, t] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, prefix, n)), { recursive: true });
        writeFileSync(join(dir, prefix, n), t);
      }
      const names = Object.keys(files).map((n) => `${prefix}${n}`);
      const hex = execFileSync(
        'sh',
        ['-c', 'LC_ALL=C sha256sum -- "$@" | LC_ALL=C sort -k2 | sha256sum | cut -d" " -f1', 'sh', ...names],
        { cwd: dir, encoding: 'utf8' },
      ).trim();
      const expected = `h1:${Buffer.from(hex, 'hex').toString('base64')}`;
      expect(goDirHash(readGoModuleZip(zip, 'example.com/Hash', 'v0.1.0'))).toBe(expected);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a file name with a newline (it would forge a line of the summary)', () => {
    expect(() => goDirHash([{ name: 'a\n0000  b', data: Buffer.from('') }])).toThrow(/newline/);
  });
});
