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

  it('with a target whose host key is not pinned refuses before connecting, and says how to pin it', async () => {
    const home = await mkdtemp(join(tmpdir(), 'rvport-empty-home-'));
    // port 1 on loopback: a connection attempt would fail differently (refused)
    const error = await createSandbox({ home, target: 'ssh://rv@127.0.0.1:1' }).catch((e: unknown) => e);
    expect(isSandboxError(error) && error.code).toBe('host-key-unknown');
    expect(isSandboxError(error) && error.fix).toMatch(
      /^rvport target add ssh:\/\/rv@127\.0\.0\.1:1 --host-key-fingerprint/,
    );
    const named = await createSandbox({ home, target: 'board' }).catch((e: unknown) => e);
    expect(isSandboxError(named) && named.code).toBe('bad-target');
  });
});
