import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { evaluateHome, gatherHomeFacts, type HomeFacts, LOW_FREE_BYTES, mountPointOf } from './homeCheck.ts';

const GiB = 1024 ** 3;
const base: HomeFacts = {
  home: '/data/rvport',
  exists: true,
  writable: true,
  probed: '/data/rvport',
  mountPoint: '/data',
  freeBytes: 50 * GiB,
  user: 'ana',
};

describe('evaluateHome', () => {
  it('passes a writable home with room', () => {
    expect(evaluateHome(base).map((c) => c.status)).toEqual(['ok', 'ok']);
  });

  it('fails a home on a read-only filesystem with the remount fix', () => {
    const [check] = evaluateHome({ ...base, writable: false, errorCode: 'EROFS', freeBytes: undefined });
    expect(check).toMatchObject({ id: 'rvport-home', status: 'fail' });
    expect(check?.detail).toBe('RVPORT_HOME /data/rvport is on a read-only filesystem');
    expect(check?.fix).toMatch(/^mount -o remount,rw \/data {3}\(or set RVPORT_HOME/);
  });

  it('fails a missing home whose parent is not writable, with a chown fix', () => {
    const [check] = evaluateHome({
      ...base,
      exists: false,
      writable: false,
      errorCode: 'EACCES',
      probed: '/data',
      freeBytes: undefined,
    });
    expect(check?.status).toBe('fail');
    expect(check?.detail).toContain('does not exist and cannot be created there');
    expect(check?.fix).toMatch(/^chown -R ana \/data/);
  });

  it('warns about low free space, and says a missing home will be created', () => {
    const checks = evaluateHome({ ...base, exists: false, probed: '/data', freeBytes: LOW_FREE_BYTES - 1 });
    expect(checks[0]).toMatchObject({ status: 'ok', detail: 'RVPORT_HOME /data/rvport will be created' });
    expect(checks[1]).toMatchObject({ id: 'disk-space', status: 'warn' });
    expect(checks[1]?.detail).toMatch(/^only 10\.0 GiB free in \/data/);
  });
});

describe('mountPointOf', () => {
  const mountinfo = [
    '22 1 0:21 / / rw - ext4 /dev/vda rw',
    '30 22 0:25 / /data rw - ext4 /dev/vdb rw',
    '31 22 0:26 / /data2 rw - tmpfs tmpfs rw',
  ].join('\n');
  it('is the longest mount point containing the path, not a name prefix', () => {
    expect(mountPointOf('/data/rvport', mountinfo)).toBe('/data');
    expect(mountPointOf('/data2x/rvport', mountinfo)).toBe('/');
    expect(mountPointOf('/data2', mountinfo)).toBe('/data2');
  });
});

describe('gatherHomeFacts (real folders)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rvport-home-facts-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('finds an existing writable home and its free space, leaving nothing behind', async () => {
    const facts = await gatherHomeFacts({ RVPORT_HOME: dir }, 'ana');
    expect(facts).toMatchObject({ home: dir, exists: true, writable: true, probed: dir });
    expect(facts.freeBytes).toBeGreaterThan(0);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('probes the nearest existing folder of a missing home', async () => {
    const facts = await gatherHomeFacts({ RVPORT_HOME: join(dir, 'a', 'b') }, 'ana');
    expect(facts).toMatchObject({ exists: false, writable: true, probed: dir });
  });

  it('refuses a home that is a file', async () => {
    const file = join(dir, 'file');
    writeFileSync(file, '');
    const facts = await gatherHomeFacts({ RVPORT_HOME: file }, 'ana');
    expect(facts).toMatchObject({ writable: false, errorCode: 'ENOTDIR' });
  });
});
