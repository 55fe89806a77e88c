import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BuildScriptInput, buildScriptOf } from './BuildScript.ts';
import { renderBuildScript, renderPackagesTxt } from './renderBuildScript.ts';
import { renderDockerfile } from './renderDockerfile.ts';

let work: string;
let canary: string;

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'rvport-buildsh-'));
  canary = join(work, 'CANARY');
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

/** Values that would run `touch CANARY` if any reached the shell as code. */
const attacks = () => [
  `$(touch ${canary})`,
  `\`touch ${canary}\``,
  `x\ntouch ${canary}\n`,
  `'; touch ${canary}; '`,
  `"$(touch ${canary})"`,
  `\\'$(touch ${canary})\\'`,
  `${'$'}{x:=$(touch ${canary})}`,
];

function input(overrides: Partial<BuildScriptInput> = {}): BuildScriptInput {
  return {
    name: 'demo',
    commit: '0123456789abcdef0123456789abcdef01234567',
    verified: true,
    buildSystem: 'make',
    plan: {
      dir: '.',
      packages: ['zlib1g-dev'],
      phases: [{ name: 'build', commands: ['printf built > "$RVPORT_DESTDIR/built"'] }],
    },
    patches: [],
    ...overrides,
  };
}

/** The rendered build.sh, packages.txt and patches in a folder of their own, and a source. */
function lay(script: string, packages: string, patches: Record<string, string> = {}) {
  const recipe = join(work, 'recipe');
  const source = join(work, 'source');
  mkdirSync(join(recipe, 'patches'), { recursive: true });
  mkdirSync(source, { recursive: true });
  writeFileSync(join(source, 'hello.c'), 'int main(void) { return 0; }\n');
  writeFileSync(join(recipe, 'build.sh'), script);
  writeFileSync(join(recipe, 'packages.txt'), packages);
  for (const [name, diff] of Object.entries(patches)) writeFileSync(join(recipe, 'patches', name), diff);
  return { recipe, source, dest: join(work, 'dest') };
}

function runScript(
  at: { recipe: string; source: string; dest: string },
  env: Record<string, string> = { SKIP_APT_GET: '1' },
) {
  return spawnSync('sh', [join(at.recipe, 'build.sh'), at.source], {
    cwd: work,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', DESTDIR: at.dest, ...env },
  });
}

describe('buildScriptOf', () => {
  it('names the complete prerequisites, sorted, once each', () => {
    const script = buildScriptOf(
      input({
        buildSystem: 'cmake',
        plan: {
          dir: '.',
          packages: ['zlib1g-dev', 'cmake', 'libpng-dev'],
          phases: [{ name: 'configure', commands: ['cmake -S . -B build'] }],
        },
      }),
    );
    expect(script.packages).toEqual(['build-essential', 'cmake', 'libpng-dev', 'pkg-config', 'zlib1g-dev']);
  });

  it('refuses a package name outside Debian syntax, a patch name rvport never writes and a folder outside the source', () => {
    for (const bad of [`zlib$(touch ${canary})`, 'a', 'Zlib', '-o', 'zlib dev', 'x;y', 'x\ny'])
      expect(() => buildScriptOf(input({ plan: { ...input().plan, packages: [bad] } }))).toThrow(
        expect.objectContaining({ code: 'bad-package' }),
      );
    expect(() => buildScriptOf(input({ patches: [{ name: '../x.patch' }] }))).toThrow(
      expect.objectContaining({ code: 'bad-patch-name' }),
    );
    for (const dir of ['../up', '/etc', 'a/../../b'])
      expect(() => buildScriptOf(input({ plan: { ...input().plan, dir } }))).toThrow(
        expect.objectContaining({ code: 'bad-dir' }),
      );
  });

  it('rewrites the sandbox variables to the script own ones and drops what the env allow-list refuses', () => {
    const script = buildScriptOf(
      input({
        plan: {
          dir: 'sub',
          packages: [],
          env: { CFLAGS: '-O2', LD_PRELOAD: '/tmp/evil.so', PATH: '/tmp' },
          phases: [
            {
              name: 'install',
              commands: [
                'DESTDIR="$RVPORT_DESTDIR" make install',
                // biome-ignore lint/suspicious/noTemplateCurlyInString: shell source under test
                'cp x "${RVPORT_SRC}/y" "${RVPORT_SRC:-.}"',
              ],
            },
          ],
        },
      }),
    );
    expect(script.phases[0]?.commands).toEqual([
      'DESTDIR="$DESTDIR" make install',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell source under test
      'cp x "${SRC_DIR}/y" "${SRC_DIR:-.}"',
    ]);
    expect(script.env).toEqual({ CFLAGS: '-O2' });
    expect(renderBuildScript(script)).not.toContain('RVPORT_');
  });
});

describe('renderBuildScript', () => {
  it('is valid POSIX sh that runs the phases in the build folder and installs into DESTDIR', () => {
    const text = renderBuildScript(
      buildScriptOf(
        input({
          plan: {
            dir: '.',
            packages: [],
            phases: [
              { name: 'build', commands: ['printf "%s" "$PWD" > "$DESTDIR/pwd"'] },
              { name: 'install', commands: ['false'], optional: true },
            ],
          },
        }),
      ),
    );
    expect(text.startsWith('#!/bin/sh\n')).toBe(true);
    expect(text).toContain('set -eu');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell source under test
    expect(text).toContain('DESTDIR=${DESTDIR:-$PWD/destdir}');
    expect(text).toContain('# Usage: sh build.sh SOURCE_DIR');
    const at = lay(text, '');
    expect(spawnSync('sh', ['-n', join(at.recipe, 'build.sh')]).status).toBe(0);
    const run = runScript(at);
    expect(run.status, run.stderr).toBe(0);
    expect(readFileSync(join(at.dest, 'pwd'), 'utf8')).toBe(at.source);
    expect(run.stderr).toContain('the optional install step failed (exit 1); going on');
  });

  it('stops with the exit status of a required step that fails', () => {
    const text = renderBuildScript(
      buildScriptOf(
        input({ plan: { dir: '.', packages: [], phases: [{ name: 'build', commands: ['exit 7'] }] } }),
      ),
    );
    const run = runScript(lay(text, ''));
    expect(run.status).toBe(7);
    expect(run.stderr).toContain('the build step failed (exit 7)');
  });

  it('exports hostile environment values literally, never running them', () => {
    for (const value of attacks()) {
      const text = renderBuildScript(
        buildScriptOf(
          input({
            plan: {
              dir: '.',
              packages: [],
              env: { CFLAGS: value },
              phases: [{ name: 'build', commands: ['printenv CFLAGS > "$DESTDIR/cflags"'] }],
            },
          }),
        ),
      );
      const at = lay(text, '');
      expect(spawnSync('sh', ['-n', join(at.recipe, 'build.sh')]).status, value).toBe(0);
      const run = runScript(at);
      expect(run.status, run.stderr).toBe(0);
      expect(existsSync(canary), value).toBe(false);
      expect(readFileSync(join(at.dest, 'cflags'), 'utf8')).toBe(`${value}\n`);
      rmSync(join(work, 'recipe'), { recursive: true });
      rmSync(at.dest, { recursive: true });
    }
  });

  it('keeps a command with quotes and newlines one step, run as the sandbox ran it', () => {
    const command = `printf '%s' 'it'"'"'s' > "$DESTDIR/out"\necho '$(touch ${canary})' >> "$DESTDIR/out"`;
    const text = renderBuildScript(
      buildScriptOf(
        input({ plan: { dir: '.', packages: [], phases: [{ name: 'build', commands: [command] }] } }),
      ),
    );
    const at = lay(text, '');
    const run = runScript(at);
    expect(run.status, run.stderr).toBe(0);
    expect(readFileSync(join(at.dest, 'out'), 'utf8')).toBe(`it's$(touch ${canary})\n`);
    expect(existsSync(canary)).toBe(false);
  });

  it('installs packages.txt with apt-get, and refuses a tampered line before apt-get runs', () => {
    const script = buildScriptOf(input());
    const text = renderBuildScript(script);
    const bin = join(work, 'bin');
    mkdirSync(bin);
    // a harmless apt-get that records its arguments
    writeFileSync(join(bin, 'apt-get'), `#!/bin/sh\nprintf '%s\\n' "$*" >> "${join(work, 'apt.log')}"\n`);
    chmodSync(join(bin, 'apt-get'), 0o755);
    const env = { PATH: `${bin}:${process.env.PATH}` };
    const good = lay(text, renderPackagesTxt(script));
    const run = runScript(good, env);
    expect(run.status, run.stderr).toBe(0);
    expect(readFileSync(join(work, 'apt.log'), 'utf8')).toBe(
      'update\ninstall -y --no-install-recommends build-essential zlib1g-dev\n',
    );
    rmSync(join(work, 'apt.log'));
    rmSync(join(work, 'recipe'), { recursive: true });
    for (const bad of [`zlib$(touch ${canary})`, '`touch x`', '-oAPT::x=1', 'a b', '*']) {
      const at = lay(text, `build-essential\n${bad}\n`);
      const refused = runScript(at, env);
      expect(refused.status, bad).toBe(1);
      expect(refused.stderr).toContain('not a Debian package name in packages.txt');
      expect(existsSync(join(work, 'apt.log'))).toBe(false);
      expect(existsSync(canary)).toBe(false);
      rmSync(join(work, 'recipe'), { recursive: true });
    }
  });

  it('applies the patches in order with patch -p1 on a plain folder', () => {
    const patches = [
      {
        name: '0001-debian-fix.patch',
        diff: 'diff --git a/hello.c b/hello.c\n--- a/hello.c\n+++ b/hello.c\n@@ -1 +1 @@\n-int main(void) { return 0; }\n+int main(void) { return 1; }\n',
      },
      {
        name: '0002-more.patch',
        diff: 'diff --git a/hello.c b/hello.c\n--- a/hello.c\n+++ b/hello.c\n@@ -1 +1 @@\n-int main(void) { return 1; }\n+int main(void) { return 2; }\n',
      },
    ];
    const script = buildScriptOf(
      input({
        buildSystem: 'autotools',
        patches,
        plan: { dir: '.', packages: [], phases: [{ name: 'build', commands: ['cp hello.c "$DESTDIR/"'] }] },
      }),
    );
    expect(script.debianPatches).toEqual(['0001-debian-fix.patch']);
    const text = renderBuildScript(script);
    const at = lay(text, '', Object.fromEntries(patches.map((p) => [p.name, p.diff])));
    const run = runScript(at);
    expect(run.status, run.stderr).toBe(0);
    expect(readFileSync(join(at.dest, 'hello.c'), 'utf8')).toBe('int main(void) { return 2; }\n');
    expect(script.packages).toContain('patch');
  });

  it('marks a build that was not verified, and the Dockerfile copies source, patches and script', () => {
    const script = buildScriptOf(input({ verified: false, patches: [{ name: '0001-x.patch' }] }));
    expect(renderBuildScript(script)).toContain('# NOT VERIFIED');
    const docker = renderDockerfile(script);
    expect(docker).toContain('FROM --platform=linux/riscv64 debian:trixie\n');
    expect(docker).toContain('COPY source/ /build/src/\n');
    expect(docker).toContain('COPY patches/ /build/recipe/patches/\n');
    expect(docker).toContain('RUN sh /build/recipe/build.sh /build/src\n');
    expect(renderDockerfile(buildScriptOf(input()))).not.toContain('patches/');
  });

  it('keeps a hostile name on one comment line', () => {
    const text = renderBuildScript(buildScriptOf(input({ name: `x\ntouch ${canary}\n#` })));
    const at = lay(text, '');
    expect(runScript(at).status).toBe(0);
    expect(existsSync(canary)).toBe(false);
    expect(renderDockerfile(buildScriptOf(input({ name: 'x\nRUN evil' })))).not.toMatch(/^RUN evil/m);
  });
});
