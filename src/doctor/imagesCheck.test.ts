import { describe, expect, it } from 'vitest';
import type { ImageRecord } from '../sandbox/imageStore.ts';
import { evaluateImages } from './imagesCheck.ts';

const image = { key: 'k' } as ImageRecord;

describe('evaluateImages', () => {
  it('is ok when every mode is provisioned', () => {
    const all = {
      suite: 'trixie',
      rootfs: image,
      tools: image,
      accel: image,
      nativeTools: image,
      native: image,
    };
    expect(evaluateImages(all)[0]).toMatchObject({ id: 'images', status: 'ok' });
  });

  it('informs, without failing, that the first port provisions missing images', () => {
    const [none] = evaluateImages({ suite: 'trixie' });
    expect(none?.status).toBe('info');
    expect(none?.detail).toContain('the first port provisions them, ~5 minutes');
    const [some] = evaluateImages({ suite: 'trixie', rootfs: image });
    expect(some?.detail).toContain('not provisioned for accelerated, native-userland (ready: emulated)');
  });
});
