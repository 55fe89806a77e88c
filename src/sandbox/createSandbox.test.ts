import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox } from './createSandbox.ts';
import { isSandboxError } from './errors.ts';

describe('createSandbox', () => {
  it('without a provisioned image says which setup to run', async () => {
    const home = await mkdtemp(join(tmpdir(), 'rvport-empty-home-'));
    for (const mode of ['emulated', 'accelerated'] as const) {
      const error = await createSandbox({ home, mode }).catch((e: unknown) => e);
      expect(isSandboxError(error) && error.code).toBe('image-missing');
      expect(isSandboxError(error) && error.fix).toBe(`rvport sandbox setup --mode ${mode}`);
    }
  });
});
