import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkPortJob } from './checkPortJob.ts';
import type { PortJob } from './PortJob.ts';

const dir = mkdtempSync(join(tmpdir(), 'rvport-job-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, 'zlib'));
writeFileSync(join(dir, 'zlib', 'Makefile'), '');
writeFileSync(join(dir, 'zlib-1.3.tar.gz'), '');

const job = (source: string, name: string): PortJob => ({
  rvportJob: 1,
  key: source,
  line: 1,
  source,
  name,
  settings: { force: false },
});
const strict = { allowLocalSources: false };

describe('checkPortJob', () => {
  it('takes a remote SOURCE with its own name', () => {
    expect(checkPortJob(job('debian:zlib', 'zlib'), strict)).toEqual({
      ok: true,
      source: 'debian:zlib',
      name: 'zlib',
    });
    expect(checkPortJob(job('https://example.invalid/madler/zlib.git', 'zlib'), strict)).toMatchObject({
      ok: true,
    });
  });

  it.each([
    [
      'a name that climbs out of OUT',
      job('debian:zlib', '../../tmp/x'),
      /package name "..\/..\/tmp\/x" is not the one its SOURCE gives \('zlib'\)/,
    ],
    ['another name', job('debian:zlib', 'openssl'), /is not the one its SOURCE gives/],
    ['shell metacharacters', job('https://example.invalid/x;rm -rf ~', 'x'), /shell metacharacters/],
    ['an unknown scheme', job('ftp://example.invalid/zlib', 'zlib'), /unknown SOURCE scheme/],
    ['a flag', job('--upload-pack=touch:/tmp/x', 'x'), /may not start with '-'/],
    ['an invalid Debian name', job('debian:Zlib_', 'Zlib_'), /invalid Debian source package/],
  ])('refuses %s', (_what, hostile, reason) => {
    const check = checkPortJob(hostile, strict);
    expect(check.ok).toBe(false);
    expect(check.ok ? '' : check.reason).toMatch(reason);
  });

  it('refuses folders, tarballs and file:// URLs unless local sources are allowed', () => {
    for (const [source, name] of [
      [join(dir, 'zlib'), 'zlib'],
      [join(dir, 'zlib-1.3.tar.gz'), 'zlib'],
      [`file://${join(dir, 'zlib')}`, 'zlib'],
    ] as const) {
      expect(checkPortJob(job(source, name), strict)).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/path on the worker's machine.*--allow-local-sources/),
      });
      expect(checkPortJob(job(source, name), { allowLocalSources: true })).toMatchObject({ ok: true, name });
    }
  });

  it('does not tell which paths exist on the worker', () => {
    const reasons = [
      join(dir, 'zlib'),
      join(dir, 'nothing-here'),
      '/etc/shadow',
      'relative/path',
      'file:///etc',
    ].map((source) => {
      const check = checkPortJob(job(source, 'x'), strict);
      return check.ok ? '' : check.reason.replace(JSON.stringify(source), 'S');
    });
    expect(new Set(reasons).size).toBe(1);
    expect(reasons[0]).toMatch(/path on the worker's machine/);
  });
});
