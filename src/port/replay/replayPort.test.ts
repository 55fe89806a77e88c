import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { portState } from '../testing/portStateFixture.ts';
import { replayPort } from './replayPort.ts';

// The checks of an OUT/NAME folder before anything is acquired or a sandbox is made.
let dir: string;
let home: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rvport-replay-in-'));
  home = mkdtempSync(join(tmpdir(), 'rvport-replay-home-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

const replay = () => replayPort({ dir, env: { RVPORT_HOME: home } });
const built = (over = {}) =>
  JSON.stringify(portState({ buildStatus: 'SUCCESS', patches: [], artifacts: [], ...over }));

describe('replayPort input', () => {
  it('refuses a folder without state.json, a broken one and a port that did not build', async () => {
    await expect(replay()).rejects.toMatchObject({ code: 'no-state' });
    writeFileSync(join(dir, 'state.json'), '[1,');
    await expect(replay()).rejects.toMatchObject({ code: 'bad-state' });
    writeFileSync(join(dir, 'state.json'), '{"formatVersion": 1}');
    await expect(replay()).rejects.toMatchObject({ code: 'bad-state' });
    writeFileSync(join(dir, 'state.json'), JSON.stringify(portState({ buildStatus: 'ESCALATED' })));
    await expect(replay()).rejects.toMatchObject({ code: 'not-built', message: /nothing to replay/ });
  });

  it('refuses a missing build.sh, one that is a link out of the folder, and a tampered packages.txt', async () => {
    writeFileSync(join(dir, 'state.json'), built());
    await expect(replay()).rejects.toMatchObject({ code: 'no-script' });
    const outside = join(home, 'evil.sh');
    writeFileSync(outside, 'echo evil\n');
    symlinkSync(outside, join(dir, 'build.sh'));
    writeFileSync(join(dir, 'packages.txt'), 'build-essential\n');
    await expect(replay()).rejects.toMatchObject({ code: 'no-script' });
    rmSync(join(dir, 'build.sh'));
    writeFileSync(join(dir, 'build.sh'), '#!/bin/sh\n');
    writeFileSync(join(dir, 'packages.txt'), 'build-essential\nzlib$(touch /tmp/x)\n');
    await expect(replay()).rejects.toMatchObject({ code: 'bad-packages' });
  });

  it('refuses a patch name rvport never writes and a missing patch file', async () => {
    writeFileSync(join(dir, 'build.sh'), '#!/bin/sh\n');
    writeFileSync(join(dir, 'packages.txt'), 'build-essential\n');
    writeFileSync(join(dir, 'state.json'), built({ patches: [{ name: '../../etc/passwd', diff: '' }] }));
    await expect(replay()).rejects.toMatchObject({ code: 'bad-state' });
    writeFileSync(join(dir, 'state.json'), built({ patches: [{ name: '0001-fix.patch', diff: '' }] }));
    mkdirSync(join(dir, 'patches'));
    await expect(replay()).rejects.toMatchObject({ code: 'no-script', message: /patches\/0001-fix.patch/ });
  });
});
