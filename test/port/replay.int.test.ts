import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePortHome } from '../helpers/portHome.ts';
import { runCli } from '../helpers/rvportCli.ts';

// A tiny C project written here, ported for real in the riscv64 sandbox, then rebuilt by its
// build.sh alone in a fresh instance by `rvport replay`.
const MINUTES = 60_000;
let home: string;
let work: string;
let project: string;

beforeAll(() => {
  home = makePortHome('rvport-replay-home-');
  work = mkdtempSync(join(tmpdir(), 'rvport-replay-work-'));
  project = join(work, 'greeter');
  mkdirSync(project);
  writeFileSync(
    join(project, 'greeter.c'),
    '#include <stdio.h>\nint main(int argc, char **argv) {\n  (void)argv;\n  printf("hello from %d args\\n", argc);\n  return 0;\n}\n',
  );
  writeFileSync(
    join(project, 'Makefile'),
    [
      'CFLAGS ?= -O2',
      'all: greeter',
      'greeter: greeter.c',
      '\t$(CC) $(CFLAGS) -o $@ greeter.c',
      'install: greeter',
      '\tinstall -D -m 0755 greeter $(DESTDIR)/usr/bin/greeter',
      '',
    ].join('\n'),
  );
});

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

const env = () => ({ RVPORT_HOME: home });

describe.sequential('rvport replay', () => {
  it(
    'ports a small C project, writes build.sh, packages.txt and a Dockerfile, and replays them to the same artifacts',
    async () => {
      const port = await runCli(['port', project, '--out', 'out', '--json', '--offline'], {
        cwd: work,
        env: env(),
      });
      expect(port.code, port.stderr).toBe(0);
      const result = JSON.parse(port.stdout);
      expect(result.result).toBe('verified');
      const out = join(work, 'out', 'greeter');
      for (const f of ['build.sh', 'packages.txt', 'Dockerfile']) {
        expect(existsSync(join(out, f)), f).toBe(true);
        expect(JSON.stringify(result.files), f).toContain(f);
      }
      const script = readFileSync(join(out, 'build.sh'), 'utf8');
      expect(script).not.toContain('RVPORT_');
      expect(spawnSync('sh', ['-n', join(out, 'build.sh')]).status).toBe(0);
      expect(readFileSync(join(out, 'packages.txt'), 'utf8')).toContain('build-essential\n');
      const recipe = readFileSync(join(out, 'recipe.md'), 'utf8');
      expect(recipe).toContain('apt-get install -y --no-install-recommends build-essential');
      const state = JSON.parse(readFileSync(join(out, 'state.json'), 'utf8'));
      const portArtifacts = state.artifacts.filter((a: { role: string }) => a.role === 'program');
      expect(portArtifacts.length).toBeGreaterThan(0);

      const replay = await runCli(['replay', out, '--json'], { cwd: work, env: env() });
      expect(replay.code, `${replay.stdout}\n${replay.stderr}`).toBe(0);
      const replayed = JSON.parse(replay.stdout);
      expect(replayed.replayed).toBe('yes');
      const names = replayed.artifacts.map((a: { path: string }) => a.path).sort();
      expect(names).toEqual(
        state.artifacts
          .filter((a: { role: string }) => a.role !== 'object' && a.role !== 'other')
          .map((a: { path: string }) => a.path)
          .sort(),
      );
      for (const a of replayed.artifacts) {
        expect(a.found).toBe(true);
        expect(a.differences).toEqual([]);
      }
      expect(readFileSync(join(out, 'replay.md'), 'utf8')).toContain('Replayed: **yes**');
      const after = JSON.parse(readFileSync(join(out, 'state.json'), 'utf8'));
      // the same compiler on the same paths: this build is reproducible, byte for byte
      expect(after.replay).toMatchObject({
        replayed: 'yes',
        compared: names.length,
        identical: names.length,
      });
      expect(readFileSync(join(out, 'replay.log'), 'utf8')).toContain('build.sh: [build] make');
      const docker = readFileSync(join(out, 'Dockerfile'), 'utf8');
      expect(docker).toContain('FROM --platform=linux/riscv64 debian:trixie');
      expect(docker).toContain('RUN sh /build/recipe/build.sh /build/src');
      const entryDir = join(home, 'recipes', 'greeter');
      const entries = spawnSync('sh', ['-c', `cat "${entryDir}"/*.json`], { encoding: 'utf8' }).stdout;
      expect(JSON.parse(entries).replay).toMatchObject({ replayed: 'yes' });
      // shown for the report: what a real build.sh of this project looks like
      writeFileSync(join(tmpdir(), 'rvport-replay-example-build.sh'), script);
      writeFileSync(join(tmpdir(), 'rvport-replay-example-replay.md'), readFileSync(join(out, 'replay.md')));
    },
    40 * MINUTES,
  );

  it('says clearly what is wrong with a folder that is not a port', async () => {
    const empty = join(work, 'nothing');
    mkdirSync(empty);
    const none = await runCli(['replay', empty], { cwd: work, env: env() });
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/holds no state\.json/);
    expect(none.stderr).not.toMatch(/\n\s+at /);
    writeFileSync(join(empty, 'state.json'), '{ not json');
    const broken = await runCli(['replay', empty], { cwd: work, env: env() });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/is not JSON/);
    const mode = await runCli(['replay', empty, '--mode', 'fast'], { cwd: work, env: env() });
    expect(mode.code).toBe(1);
    expect(mode.stderr).toMatch(/--mode is one of/);
  });
});
