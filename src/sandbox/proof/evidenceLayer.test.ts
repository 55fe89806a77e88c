import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { staticCompiler } from '../staticCompiler.ts';
import { canBuildRecorder } from './evidenceLayer.ts';

describe('canBuildRecorder', () => {
  it('needs a gcc or a musl-gcc on PATH', () => {
    expect(canBuildRecorder({ PATH: '' })).toBe(false);
    expect(canBuildRecorder({ PATH: mkdtempSync(join(tmpdir(), 'rvport-nogcc-')) })).toBe(false);
    // this host (and CI) has gcc and libc6-dev: the recorder tests compile it
    expect(canBuildRecorder({ PATH: '/usr/bin:/bin' })).toBe(true);
    const own = mkdtempSync(join(tmpdir(), 'rvport-gcc-'));
    writeFileSync(join(own, 'gcc'), '');
    expect(canBuildRecorder({ PATH: own })).toBe(true);
    const musl = mkdtempSync(join(tmpdir(), 'rvport-musl-'));
    writeFileSync(join(musl, 'musl-gcc'), '');
    expect(canBuildRecorder({ PATH: musl })).toBe(true);
  });
});

describe('staticCompiler', () => {
  it("prefers musl's compiler, whose static programs start without asking the CPU its features", () => {
    const both = mkdtempSync(join(tmpdir(), 'rvport-cc-'));
    writeFileSync(join(both, 'gcc'), '');
    writeFileSync(join(both, 'musl-gcc'), '');
    expect(staticCompiler({ PATH: both })).toBe('musl-gcc');
    const gccOnly = mkdtempSync(join(tmpdir(), 'rvport-cc-'));
    writeFileSync(join(gccOnly, 'gcc'), '');
    expect(staticCompiler({ PATH: gccOnly })).toBe('gcc');
    expect(staticCompiler({ PATH: '' })).toBeUndefined();
  });
});
