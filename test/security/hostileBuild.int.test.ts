import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePortHome } from '../helpers/portHome.ts';
import { runCli } from '../helpers/rvportCli.ts';
import { PROVISION_TIMEOUT_MS, provisionedImages } from '../sandbox/provisionedImages.ts';

/**
 * Hostile repositories ported with the real CLI (`rvport port DIR --offline`): a build that
 * attacks the host from inside, a fork bomb, a log flood. Each must leave the host's canaries
 * alone and end with a clear message and category.
 */
const ATTACK_SOURCE = readFileSync(new URL('./fixtures/open-by-handle.c', import.meta.url), 'utf8');
const PORT_TIMEOUT_MS = 10 * 60_000;

let work: string;
let home: string;
let canaryDir: string;
let secret: string;

beforeAll(async () => {
  await provisionedImages();
  work = await mkdtemp(join(tmpdir(), 'rvport-hostile-'));
  home = makePortHome();
  canaryDir = await mkdtemp(join(tmpdir(), 'rvport-canary-'));
  secret = `host-secret-${Math.random().toString(36).slice(2)}`;
  await writeFile(join(canaryDir, 'secret'), `${secret}\n`, { mode: 0o600 });
}, PROVISION_TIMEOUT_MS);

afterAll(async () => {
  for (const dir of [work, home, canaryDir]) await rm(dir, { recursive: true, force: true });
});

async function hostileRepo(name: string, files: Record<string, string>): Promise<string> {
  const dir = join(work, name);
  await mkdir(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) await writeFile(join(dir, file), text);
  return dir;
}

async function port(dir: string, env: NodeJS.ProcessEnv = {}) {
  const out = join(work, `out-${Math.random().toString(36).slice(2)}`);
  const result = await runCli(['port', dir, '--offline', '--out', out, '--mode', 'accelerated'], {
    cwd: work,
    env: { RVPORT_HOME: home, ...env },
  });
  return { ...result, out: join(out, dir.split('/').at(-1) ?? '') };
}

describe('a hostile build, ported with the real CLI', () => {
  it(
    'cannot open the host filesystem by handle, read a host secret or write a host file',
    async () => {
      const rel = relative('/', canaryDir);
      const dir = await hostileRepo('escape', {
        'attack.c': ATTACK_SOURCE,
        Makefile: [
          'all: attack',
          `\t./attack ${rel}/secret ${rel}/pwned | tee attack.out`,
          'attack: attack.c',
          '\t$(CC) -O1 -o $@ $<',
          'install:',
          '\tmkdir -p $(DESTDIR)/usr/bin && cp attack $(DESTDIR)/usr/bin/',
          '',
        ].join('\n'),
      });
      const result = await port(dir);
      expect(result.stderr).not.toMatch(/at .*\.ts:\d+/); // no stack trace
      expect(existsSync(join(canaryDir, 'pwned'))).toBe(false);
      const log = await readFile(join(result.out, 'build.log'), 'utf8');
      expect(log).toContain('escape: refused');
      expect(log).not.toContain(secret);
      for (const file of ['report.md', 'state.json', 'recipe.md']) {
        const text = await readFile(join(result.out, file), 'utf8').catch(() => '');
        expect(text).not.toContain(secret);
      }
      expect(result.stdout + result.stderr).toMatch(/verified|escalat|not verified/);
    },
    PORT_TIMEOUT_MS,
  );

  it(
    'ends a fork bomb at the process limit with PROCESS_LIMIT and says so',
    async () => {
      const dir = await hostileRepo('forkbomb', {
        Makefile: 'all:\n\tfor i in $$(seq 400); do sleep 30 & done; wait\ninstall:\n\ttrue\n',
      });
      const result = await port(dir, { RVPORT_SANDBOX_PROCESSES: '64' });
      expect(result.code).toBe(1);
      const state = JSON.parse(await readFile(join(result.out, 'state.json'), 'utf8'));
      expect(state.errors.at(-1).category).toBe('PROCESS_LIMIT');
      const escalation = await readFile(join(result.out, 'escalation.md'), 'utf8');
      expect(escalation).toMatch(/process limit of the sandbox/);
      expect(escalation).toMatch(/more processes than the sandbox allows/);
    },
    PORT_TIMEOUT_MS,
  );

  it(
    'ends a log flood at the output limit with OUTPUT_LIMIT and a bounded build.log',
    async () => {
      const dir = await hostileRepo('flood', {
        Makefile: 'all:\n\tyes flooding-the-log\ninstall:\n\ttrue\n',
      });
      const result = await port(dir, { RVPORT_SANDBOX_OUTPUT_MB: '4' });
      expect(result.code).toBe(1);
      const state = JSON.parse(await readFile(join(result.out, 'state.json'), 'utf8'));
      expect(state.errors.at(-1).category).toBe('OUTPUT_LIMIT');
      expect((await stat(join(result.out, 'build.log'))).size).toBeLessThan(16 * 1024 ** 2);
    },
    PORT_TIMEOUT_MS,
  );

  it(
    'refuses a limit setting that is not a number, clearly',
    async () => {
      const dir = await hostileRepo('plain', { Makefile: 'all:\n\ttrue\n' });
      const result = await port(dir, { RVPORT_SANDBOX_MEMORY_MB: 'lots' });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/RVPORT_SANDBOX_MEMORY_MB must be a positive whole number/);
      expect(result.stderr).not.toMatch(/at .*\.ts:\d+/);
    },
    PORT_TIMEOUT_MS,
  );
});
