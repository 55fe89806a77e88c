import { describe, expect, it } from 'vitest';
import { isSandboxError } from './errors.ts';
import type { ImageRecord } from './imageStore.ts';
import { layerStack } from './layerStack.ts';

const image = (key: string, kind: ImageRecord['kind'], extra: Partial<ImageRecord> = {}): ImageRecord => ({
  key,
  kind,
  suite: 'trixie',
  architecture: kind === 'rootfs' ? 'riscv64' : 'amd64',
  createdAt: '2026-12-03T00:00:00Z',
  provisionSeconds: 1,
  treeBytes: 1,
  ...extra,
});

const all = {
  suite: 'trixie',
  rootfs: image('rootfs-1', 'rootfs', { mirror: 'http://mirror.invalid/debian' }),
  tools: image('tools-1', 'tools'),
  accel: image('accel-1', 'accel'),
  nativeTools: image('tools-2', 'tools'),
  native: image('native-1', 'native'),
  rustTools: image('tools-3', 'tools'),
  rust: image('rustaccel-1', 'accel'),
};

describe('layerStack', () => {
  it('stacks each mode on its own layer and tools tree, topmost first', () => {
    expect(layerStack(all, 'emulated').stack).toEqual({
      mode: 'emulated',
      lowerKeys: ['rootfs-1'],
      mirror: 'http://mirror.invalid/debian',
    });
    expect(layerStack(all, 'accelerated').stack).toMatchObject({
      lowerKeys: ['accel-1', 'rootfs-1'],
      toolsKey: 'tools-1',
    });
    expect(layerStack(all, 'accelerated', { rust: true }).stack).toMatchObject({
      lowerKeys: ['rustaccel-1', 'rootfs-1'],
      toolsKey: 'tools-3',
    });
    const native = layerStack(all, 'native-userland');
    expect(native.stack).toMatchObject({ lowerKeys: ['native-1', 'rootfs-1'], toolsKey: 'tools-2' });
    expect(native.layer?.key).toBe('native-1');
    expect(native.images.map((i) => i.key)).toEqual(['rootfs-1', 'native-1', 'tools-2']);
  });

  it('says which setup provisions a missing image, and why a refused layer is refused', () => {
    const missing = (() => {
      try {
        return layerStack({ ...all, native: undefined, suite: 'forky' }, 'native-userland');
      } catch (error) {
        return error;
      }
    })();
    expect(isSandboxError(missing) && [missing.code, missing.fix]).toEqual([
      'image-missing',
      'rvport sandbox setup --mode native-userland --suite forky',
    ]);
    expect(() => layerStack({ ...all, rootfs: undefined }, 'emulated', { imagesDir: '/h/images' })).toThrow(
      'no riscv64 trixie image in /h/images',
    );
    const refused = { ...all, accel: image('accel-1', 'accel', { refusedReason: 'gcc 14.2 against 14.3' }) };
    expect(() => layerStack(refused, 'accelerated')).toThrow(
      'accelerated mode refused: gcc 14.2 against 14.3',
    );
  });
});
