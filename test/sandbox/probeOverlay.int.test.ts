import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeOverlay } from '../../src/sandbox/probeOverlay.ts';

describe('probeOverlay', () => {
  it('mounts a real overlay in a local folder and leaves nothing behind', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rvport-overlay-'));
    expect(await probeOverlay(dir)).toEqual({ ok: true, detail: `overlay mounts work in ${dir}` });
    expect(await readdir(dir)).toEqual([]);
  });
});
