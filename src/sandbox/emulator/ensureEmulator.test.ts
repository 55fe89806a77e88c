import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sandboxPaths } from '../sandboxPaths.ts';
import {
  EMULATOR_PROGRAM,
  emulatorKey,
  emulatorStatus,
  ensureEmulator,
  readEmulator,
} from './ensureEmulator.ts';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

/** A home whose images hold an emulator for `toolsKey`, as ensureEmulator leaves it. */
function homeWithEmulator(toolsKey: string, program = 'qemu') {
  const home = mkdtempSync(join(tmpdir(), 'rvport-emulator-'));
  homes.push(home);
  const paths = sandboxPaths(home);
  const key = emulatorKey(toolsKey);
  mkdirSync(paths.image(key), { recursive: true });
  writeFileSync(join(paths.image(key), EMULATOR_PROGRAM), program);
  const sha256 = createHash('sha256').update(program).digest('hex');
  writeFileSync(
    join(paths.image(key), 'emulator.json'),
    JSON.stringify({ key, version: '1:10.0.13', sha256 }),
  );
  return { paths, key };
}

describe('the images’ emulator', () => {
  it('is taken from its folder only while the program matches its record', async () => {
    const { paths, key } = homeWithEmulator('tools-a');
    expect(await readEmulator(paths, key)).toMatchObject({ key, version: '1:10.0.13' });
    expect(await ensureEmulator(paths, { toolsKey: 'tools-a' }, { kernelRelease: '6.12.0' })).toMatchObject({
      key,
    });
    expect(await emulatorStatus(paths, 'tools-a', '6.12.0')).toContain("the images' qemu-user 1:10.0.13");
    writeFileSync(join(paths.image(key), EMULATOR_PROGRAM), 'changed');
    expect(await readEmulator(paths, key)).toBeUndefined();
  });

  it('is not used on a kernel without a binfmt_misc per user namespace, nor without a tools tree', async () => {
    const { paths } = homeWithEmulator('tools-a');
    expect(await ensureEmulator(paths, { toolsKey: 'tools-a' }, { kernelRelease: '6.1.0' })).toMatchObject({
      refused: expect.stringContaining('Linux 6.7'),
    });
    expect(await emulatorStatus(paths, 'tools-a', '6.1.0')).toContain("the host's registration");
    expect(await ensureEmulator(paths, {}, { kernelRelease: '6.12.0' })).toMatchObject({
      refused: expect.stringContaining('no x86_64 tools tree'),
    });
  });
});
