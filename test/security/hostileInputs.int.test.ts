import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/rvportCli.ts';

// A port's folder is a file anyone may have written (a shared OUT, a downloaded result): `rvport
// replay` reads its state.json inside the folder only and within a bound, before anything of it
// is acquired. Real binary, real files.
let work: string;
let home: string;

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'rvport-hostile-inputs-'));
  home = mkdtempSync(join(tmpdir(), 'rvport-hostile-home-'));
});
afterEach(() => {
  rmSync(work, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

function portFolder(): string {
  const out = join(work, 'out', 'demo');
  mkdirSync(out, { recursive: true });
  return out;
}

async function replay(out: string) {
  return runCli(['replay', out], { cwd: work, env: { RVPORT_HOME: home } });
}

describe('rvport replay on a hostile port folder', () => {
  it('refuses a 2 GiB state.json (sparse: it costs the attacker nothing) without reading it', async () => {
    const out = portFolder();
    writeFileSync(join(out, 'state.json'), '{"formatVersion":');
    truncateSync(join(out, 'state.json'), 2 * 1024 ** 3);
    const { code, stderr } = await replay(out);
    expect(stderr).toMatch(/state\.json is refused: .*larger than 67108864 bytes/);
    expect(stderr).not.toMatch(/\n\s+at |heap out of memory/);
    expect(code).not.toBe(0);
  });

  it('refuses a state.json that links to a file outside the folder (never read through the link)', async () => {
    const out = portFolder();
    const secret = join(work, 'host-file.json');
    writeFileSync(secret, '{"formatVersion": 1, "source": {"spec": "/etc", "name": "etc"}}');
    symlinkSync(secret, join(out, 'state.json'));
    const { code, stderr } = await replay(out);
    expect(stderr).toMatch(/state\.json is refused: .*(outside|link)/);
    expect(stderr).not.toMatch(/acquiring/);
    expect(code).not.toBe(0);
  });

  it('says a folder without state.json is no port folder', async () => {
    const { code, stderr } = await replay(portFolder());
    expect(stderr).toMatch(/holds no state\.json/);
    expect(code).not.toBe(0);
  });
});
