import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canBuildRecorder } from './evidenceLayer.ts';

describe('canBuildRecorder', () => {
  it('needs a gcc on PATH', () => {
    expect(canBuildRecorder({ PATH: '' })).toBe(false);
    expect(canBuildRecorder({ PATH: mkdtempSync(join(tmpdir(), 'rvport-nogcc-')) })).toBe(false);
    // this host (and CI) has gcc and libc6-dev: the recorder tests compile it
    expect(canBuildRecorder({ PATH: '/usr/bin:/bin' })).toBe(true);
    const own = mkdtempSync(join(tmpdir(), 'rvport-gcc-'));
    writeFileSync(join(own, 'gcc'), '');
    expect(canBuildRecorder({ PATH: own })).toBe(true);
  });
});
