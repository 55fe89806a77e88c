import { describe, expect, it } from 'vitest';
import type { UserlandProof } from '../../sandbox/proof/userlandProofs.ts';
import { chooseSandboxMode } from './chooseSandboxMode.ts';

const layers = { accelerated: 'accel-1', 'native-userland': 'native-1' };
const proof = (identical: boolean, over: Partial<UserlandProof> = {}): UserlandProof => ({
  identical,
  layers,
  files: 120,
  differences: identical ? [] : ['config.status:12 (configure): accelerated "a", native-userland "b"'],
  checkedAt: '2026-11-30T15:00:00.000Z',
  sourceTree: 'a'.repeat(40),
  result: 'verified',
  ...over,
});

describe('chooseSandboxMode', () => {
  it('auto: native-userland only for a package proven identical with the layers in use', () => {
    expect(chooseSandboxMode('auto', 'lzo2', proof(true), layers)).toEqual({
      mode: 'native-userland',
      evidence: 'proof-table',
      reason:
        'native-userland mode is proven identical to accelerated for lzo2 (120 files compared, source tree aaaaaaaaaaaa, 2026-11-30)',
    });
    expect(chooseSandboxMode('auto', 'lzo2', proof(true), layers, 'a'.repeat(40)).mode).toBe(
      'native-userland',
    );
    const stale = chooseSandboxMode(
      'auto',
      'lzo2',
      proof(true, { layers: { ...layers, 'native-userland': 'native-0' } }),
      layers,
    );
    expect(stale.mode).toBe('accelerated');
    expect(stale.reason).toMatch(/made with other sandbox layers/);
    const none = chooseSandboxMode('auto', 'new-thing', undefined, layers);
    expect(none.mode).toBe('accelerated');
    expect(none.reason).toMatch(/no proof .* new-thing .*bench\/compare-userland\.ts new-thing/);
  });

  it('a proof holds for the source tree it was made with only', () => {
    const other = chooseSandboxMode('auto', 'lzo2', proof(true), layers, 'b'.repeat(40));
    expect(other.mode).toBe('accelerated');
    expect(other.reason).toBe(
      'the proof for lzo2 was made with another source (tree aaaaaaaaaaaa, this one bbbbbbbbbbbb) (bench/compare-userland.ts lzo2 makes one); built in accelerated mode',
    );
    const unkeyed = chooseSandboxMode(
      'auto',
      'lzo2',
      proof(true, { sourceTree: undefined }),
      layers,
      'a'.repeat(40),
    );
    expect(unkeyed.mode).toBe('accelerated');
    expect(unkeyed.reason).toMatch(/does not say which source it was made with/);
    // a package proven different stays out of native-userland whatever source it is
    expect(chooseSandboxMode('auto', 'libx', proof(false), layers, 'b'.repeat(40)).mode).toBe('accelerated');
  });

  it('a proof of a port that stopped early covers part of a build only: not used', () => {
    const partial = chooseSandboxMode(
      'auto',
      'arj',
      proof(true, { result: 'escalated' }),
      layers,
      'a'.repeat(40),
    );
    expect(partial.mode).toBe('accelerated');
    expect(partial.reason).toMatch(/covers a port that ended escalated, not a whole build/);
    expect(chooseSandboxMode('auto', 'arj', proof(true, { result: undefined }), layers).mode).toBe(
      'accelerated',
    );
  });

  it('never builds a package proven different in native-userland, even when asked to', () => {
    for (const requested of ['auto', 'native-userland'] as const) {
      const choice = chooseSandboxMode(requested, 'libx', proof(false), layers);
      expect(choice.mode).toBe('accelerated');
      expect(choice.reason).toMatch(/proven to differ for libx \(config\.status:12/);
    }
  });

  it('honours an explicit --mode otherwise, and says when native-userland has no proof', () => {
    expect(chooseSandboxMode('emulated', 'libx', proof(false), layers).mode).toBe('emulated');
    expect(chooseSandboxMode('accelerated', 'lzo2', proof(true), layers)).toEqual({
      mode: 'accelerated',
      reason: 'chosen with --mode accelerated',
    });
    const asked = chooseSandboxMode('native-userland', 'new-thing', undefined, layers);
    expect(asked.mode).toBe('native-userland');
    expect(asked.reason).toMatch(/^chosen with --mode native-userland; no proof/);
  });

  describe('per-build evidence', () => {
    const offer = { available: true, buildSystem: 'autotools', samplePerMille: 20 };

    it('auto: an autotools or plain-Make package without a proof builds natively on its own evidence', () => {
      for (const buildSystem of ['autotools', 'configure', 'make']) {
        const choice = chooseSandboxMode('auto', 'new-thing', undefined, layers, 'b'.repeat(40), {
          ...offer,
          buildSystem,
        });
        expect(choice.mode).toBe('native-userland');
        expect(choice.evidence).toBe('per-build');
        expect(choice.reason).toMatch(
          /no proof .*new-thing.*on the build's own evidence .*2 % of the others/,
        );
      }
      // a proof for another source is no obstacle either
      const other = chooseSandboxMode('auto', 'lzo2', proof(true), layers, 'c'.repeat(40), offer);
      expect(other).toMatchObject({ mode: 'native-userland', evidence: 'per-build' });
      expect(other.reason).toMatch(/made with another source/);
    });

    it('the proof table comes first, and a package proven different never gets the fast userland', () => {
      expect(chooseSandboxMode('auto', 'lzo2', proof(true), layers, 'a'.repeat(40), offer).evidence).toBe(
        'proof-table',
      );
      expect(chooseSandboxMode('auto', 'lzo2', proof(false), layers, 'a'.repeat(40), offer).mode).toBe(
        'accelerated',
      );
    });

    it('not for other build systems, not without the images, not against --mode', () => {
      for (const over of [
        { buildSystem: 'meson' },
        { buildSystem: 'cmake' },
        { available: false },
        { buildSystem: undefined },
      ]) {
        const choice = chooseSandboxMode('auto', 'new-thing', undefined, layers, 'b'.repeat(40), {
          ...offer,
          ...over,
        });
        expect(choice.mode).toBe('accelerated');
      }
      expect(
        chooseSandboxMode('accelerated', 'new-thing', undefined, layers, 'b'.repeat(40), offer).mode,
      ).toBe('accelerated');
      expect(
        chooseSandboxMode('native-userland', 'new-thing', undefined, layers, 'b'.repeat(40), offer).evidence,
      ).toBe(undefined);
    });
  });
});
