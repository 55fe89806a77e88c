import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { normalizeAutotoolsTimestamps } from './normalizeTimestamps.ts';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('normalizeAutotoolsTimestamps', () => {
  it('makes generated autotools files newer than their inputs, in order', async () => {
    dir = mkdtempSync(join(tmpdir(), 'rvport-ts-'));
    for (const f of [
      'Makefile.in',
      'aclocal.m4',
      'configure',
      'configure.ac',
      'Makefile.am',
      'src/Makefile.in',
      'src/hello.c',
    ]) {
      mkdirSync(join(dir, f, '..'), { recursive: true });
      writeFileSync(join(dir, f), '');
    }
    expect(await normalizeAutotoolsTimestamps(dir)).toBe(true);
    const t = (f: string) => statSync(join(dir, f)).mtimeMs;
    expect(t('configure.ac')).toBe(t('Makefile.am'));
    expect(t('aclocal.m4')).toBeGreaterThan(t('configure.ac'));
    expect(t('configure')).toBeGreaterThan(t('aclocal.m4'));
    expect(t('Makefile.in')).toBe(t('configure'));
    expect(t('src/Makefile.in')).toBe(t('configure'));
    expect(t('src/hello.c')).toBe(t('Makefile.am'));
  });

  it('leaves other trees alone', async () => {
    dir = mkdtempSync(join(tmpdir(), 'rvport-ts-'));
    writeFileSync(join(dir, 'CMakeLists.txt'), '');
    expect(await normalizeAutotoolsTimestamps(dir)).toBe(false);
  });

  it('touches no file a link of the tree leads to, and no folder the plan names through one', async () => {
    dir = mkdtempSync(join(tmpdir(), 'rvport-ts-'));
    const host = join(dir, 'host');
    const tree = join(dir, 'tree');
    mkdirSync(host);
    mkdirSync(tree);
    writeFileSync(join(host, 'configure.ac'), '');
    writeFileSync(join(host, 'aclocal.m4'), '');
    const old = new Date('2001-01-01T00:00:00Z');
    for (const f of ['configure.ac', 'aclocal.m4']) utimesSync(join(host, f), old, old);
    writeFileSync(join(tree, 'configure.ac'), '');
    symlinkSync('../host/aclocal.m4', join(tree, 'aclocal.m4'));
    symlinkSync('../host', join(tree, 'hostdir'));
    expect(await normalizeAutotoolsTimestamps(tree)).toBe(true);
    expect(await normalizeAutotoolsTimestamps(tree, 'hostdir')).toBe(false);
    for (const f of ['configure.ac', 'aclocal.m4'])
      expect(statSync(join(host, f)).mtimeMs).toBe(old.getTime());
  });
});
