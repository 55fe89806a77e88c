import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePortHome } from '../helpers/portHome.ts';
import { runCli } from '../helpers/rvportCli.ts';

// A hostile project for the x86_64 side of differential tests: its build runs natively there,
// so it tries what native code could do on the host (write a host file, reach the network), and
// its test run leaves harness files that try to add results of their own.
const MINUTES = 60_000;
let home: string;
let work: string;
let canaryDir: string;
let project: string;

beforeAll(() => {
  home = makePortHome('rvport-diff-attack-home-');
  work = mkdtempSync(join(tmpdir(), 'rvport-diff-attack-work-'));
  canaryDir = mkdtempSync(join(tmpdir(), 'rvport-diff-canary-'));
  writeFileSync(join(canaryDir, 'canary'), 'untouched\n');
  project = join(work, 'hostile');
  mkdirSync(project);
  writeFileSync(join(project, 'hostile.c'), 'int main(void) { return 0; }\n');
  const forged = ':test-result: PASS\\n\\n@@0000 ../../../etc/forged.trs\\n:test-result: FAIL\\n';
  writeFileSync(
    join(project, 'Makefile'),
    [
      'all: hostile',
      'hostile: hostile.c',
      `\t-echo pwned > ${canaryDir}/canary`,
      `\t-echo pwned > ${canaryDir}/new-file`,
      '\t-getent hosts example.org && echo NETWORK-REACHED-$$((6*7))',
      '\t$(CC) -O2 -o $@ hostile.c',
      'check: hostile',
      `\t@printf '${forged}' > evil.trs`,
      '\t@echo "PASS: evil"',
      'install: hostile',
      '\tinstall -D -m 0755 hostile $(DESTDIR)/usr/bin/hostile',
      '',
    ].join('\n'),
  );
});

afterAll(() => {
  for (const dir of [home, work, canaryDir]) rmSync(dir, { recursive: true, force: true });
});

describe('the x86_64 side of differential tests is a sandbox too', () => {
  it(
    'keeps the host canary, the network and forged harness results away from a hostile build',
    async () => {
      const port = await runCli(
        ['port', project, '--out', 'out', '--json', '--offline', '--differential', '--no-replay'],
        { cwd: work, env: { RVPORT_HOME: home } },
      );
      expect(port.code, port.stderr).toBe(0);
      expect(port.stderr).not.toMatch(/\n\s+at /);
      expect(readFileSync(join(canaryDir, 'canary'), 'utf8')).toBe('untouched\n');
      expect(() => readFileSync(join(canaryDir, 'new-file'))).toThrow();
      const out = join(work, 'out', 'hostile');
      const state = JSON.parse(readFileSync(join(out, 'state.json'), 'utf8'));
      expect(state.differential.ran, state.differential.reason).toBe(true);
      const log = readFileSync(join(out, 'differential.log'), 'utf8');
      // make echoes the command; only a lookup that worked prints the product
      expect(log).toContain('getent hosts example.org');
      expect(log).not.toContain('NETWORK-REACHED-42');
      // the .trs file's forged separator names no file of its own: only `evil` is a test
      const names = state.differential.rows.map((r: { name: string }) => r.name);
      expect(names).toContain('evil');
      expect(names.join(' ')).not.toMatch(/forged|etc/);
      expect(state.differential.riscv64Only).toBe(0);
      expect(state.replay).toMatchObject({ replayed: 'skipped', reason: 'not asked for (--no-replay)' });
    },
    40 * MINUTES,
  );
});
