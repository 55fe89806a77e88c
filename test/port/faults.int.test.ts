import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rvportHome } from '../../src/config/rvportHome.ts';
import { runCli } from '../helpers/rvportCli.ts';

// Issue 5, done-when 4: faults give a clear message, the right exit code and the outputs so far.
// Each case is a tiny plain-Makefile project whose build misbehaves in one way, ported for real.
const MINUTES = 60_000;
let home: string;
let work: string;

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'rvport-faults-home-'));
  work = mkdtempSync(join(tmpdir(), 'rvport-faults-work-'));
  const shared = rvportHome();
  mkdirSync(join(home, 'sandbox'), { recursive: true });
  // The cached images are shared; the instances live on a small tmpfs, so a build can fill it.
  symlinkSync(join(shared, 'sandbox', 'images'), join(home, 'sandbox', 'images'));
  mkdirSync(join(home, 'sandbox', 'instances'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=96m', 'tmpfs', join(home, 'sandbox', 'instances')]);
});

afterAll(() => {
  execFileSync('umount', ['-l', join(home, 'sandbox', 'instances')]);
  rmSync(home, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

/** A plain tree with a Makefile whose `all` runs `recipe` (and a C file, so it looks like code). */
function project(name: string, recipe: string): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'main.c'), 'int main(void) { return 0; }\n');
  writeFileSync(join(dir, 'Makefile'), `all:\n\t${recipe}\n`);
  return dir;
}

async function port(dir: string, ...flags: string[]) {
  const run = await runCli(['port', dir, '--out', 'out', '--json', ...flags], {
    cwd: work,
    env: { RVPORT_HOME: home },
  });
  return { ...run, result: JSON.parse(run.stdout) };
}

describe.sequential('faults during a port', () => {
  it(
    'a build that reaches for the network fails as NETWORK with its remedy',
    async () => {
      const dir = project(
        'fetcher',
        `python3 -c "import urllib.request; urllib.request.urlopen('http://example.invalid/dep.tar.gz')"`,
      );
      const { code, result } = await port(dir);
      expect(code).toBe(1);
      expect(result).toMatchObject({ result: 'escalated', errorCategory: 'NETWORK' });
      const escalation = readFileSync(join(work, 'out', 'fetcher', 'escalation.md'), 'utf8');
      expect(escalation).toMatch(/name resolution|Name or service not known/);
      expect(escalation).toMatch(/download during the build/);
    },
    10 * MINUTES,
  );

  it(
    'a build that hangs is stopped at the time limit',
    async () => {
      const started = Date.now();
      const { code, result } = await port(project('hanger', 'sleep 600'), '--timeout', '5');
      expect(code).toBe(1);
      expect(result).toMatchObject({ result: 'escalated', errorCategory: 'TIMEOUT' });
      expect(Date.now() - started).toBeLessThan(5 * MINUTES);
      expect(readFileSync(join(work, 'out', 'hanger', 'build.log'), 'utf8')).toMatch(/time limit/);
    },
    10 * MINUTES,
  );

  it(
    'a build that fills the disk escalates at once: the disk is full',
    async () => {
      const { code, result } = await port(project('filler', 'head -c 300000000 /dev/zero > big.bin'));
      expect(code).toBe(1);
      expect(result).toMatchObject({ result: 'escalated', errorCategory: 'DISK_SPACE', attempts: 1 });
      const state = JSON.parse(readFileSync(join(work, 'out', 'filler', 'state.json'), 'utf8'));
      expect(state.escalationReason).toMatch(/disk is full/);
      expect(readFileSync(join(work, 'out', 'filler', 'report.md'), 'utf8')).toMatch(/DISK_SPACE/);
    },
    10 * MINUTES,
  );
});
