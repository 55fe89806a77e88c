import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProcess } from '../../src/process/runProcess.ts';

// Issue 4, done-when 3: bad sources give a clear error and exit 1, and nothing is written
// outside the work folder (RVPORT_HOME here). Runs the real CLI in a throwaway home and cwd.
const bin = resolve(import.meta.dirname, '..', '..', 'bin', 'rvport.js');

async function rvport(args: string[], sandbox = mkdtempSync(join(tmpdir(), 'rvport-cli-'))) {
  const home = join(sandbox, 'home');
  const cwd = join(sandbox, 'cwd');
  mkdirSync(home);
  mkdirSync(cwd);
  const result = await runProcess({
    command: [process.execPath, bin, ...args],
    cwd,
    env: { RVPORT_HOME: join(sandbox, 'rvport-home'), HOME: home, XDG_CACHE_HOME: join(home, '.cache') },
    timeoutMs: 240_000,
  });
  return { ...result, sandbox, home, cwd };
}

/** Everything written in the sandbox except under RVPORT_HOME (the work folder). */
function writtenOutsideWork(sandbox: string): string[] {
  return execFileSync('find', ['.', '-path', './rvport-home', '-prune', '-o', '-print'], {
    cwd: sandbox,
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .filter((p) => !['.', './home', './cwd', './rvport-home'].includes(p));
}

describe('rvport analyze with bad sources', () => {
  const sandbox = mkdtempSync(join(tmpdir(), 'rvport-bad-'));
  mkdirSync(join(sandbox, 'inputs', 'empty'), { recursive: true });
  mkdirSync(join(sandbox, 'inputs', 'x'));
  writeFileSync(join(sandbox, 'inputs', 'x', 'f'), 'x');
  execFileSync('tar', ['-cf', 'evil.tar', '-C', 'x', '-P', '--transform', 's,^,../../,', 'f'], {
    cwd: join(sandbox, 'inputs'),
  });

  it.each([
    ['https://example.invalid/a;rm -rf ~', /shell metacharacters/],
    ['file:///nonexistent', /no such file or directory: \/nonexistent/],
    [join(sandbox, 'inputs', 'empty'), /is an empty directory/],
    [join(sandbox, 'inputs', 'evil.tar'), /would land outside the target/],
    ['debian:rvport-no-such-package', /cannot get the Debian source package rvport-no-such-package/],
    ['ftp://example.org/x.git', /unknown SOURCE scheme/],
  ])(
    '%s: exit 1, one clear line, nothing written outside the work folder',
    { timeout: 240_000 },
    async (source, message) => {
      const run = await rvport(['analyze', '--no-contents', source]);
      expect(run.exitCode).toBe(1);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).toMatch(/^rvport: /m);
      expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
      expect(run.stdout).toBe('');
      expect(writtenOutsideWork(run.sandbox)).toEqual([]);
      // a failed acquisition leaves no half-made tree in the work folder either
      const sources = join(run.sandbox, 'rvport-home', 'sources');
      const left = (() => {
        try {
          return readdirSync(sources).filter((e) => e !== '.debian-apt');
        } catch {
          return [];
        }
      })();
      expect(left).toEqual([]);
    },
  );
});

describe('rvport analyze --json', () => {
  it('prints the contract for a tarball source', { timeout: 120_000 }, async () => {
    const sandbox = mkdtempSync(join(tmpdir(), 'rvport-ok-'));
    const project = join(sandbox, 'inputs', 'demo-1.0');
    mkdirSync(project, { recursive: true });
    writeFileSync(
      join(project, 'CMakeLists.txt'),
      'project(demo C)\nfind_package(ZLIB REQUIRED)\nadd_executable(demo main.c)\n',
    );
    writeFileSync(
      join(project, 'main.c'),
      '#include <stdio.h>\nint main(void) { char c = getchar(); return c == EOF; }\n',
    );
    execFileSync('tar', ['-czf', 'demo-1.0.tar.gz', 'demo-1.0'], { cwd: join(sandbox, 'inputs') });
    const run = await rvport(
      ['analyze', '--json', '--no-contents', join(sandbox, 'inputs', 'demo-1.0.tar.gz')],
      sandbox,
    );
    expect(run.exitCode).toBe(0);
    const a = JSON.parse(run.stdout);
    expect(a.name).toBe('demo');
    expect(a.buildSystem).toMatchObject({ type: 'cmake', dir: '.' });
    expect(a.buildSystem.confidence).toBeGreaterThan(0.5);
    expect(a.buildSystems[0].type).toBe('cmake');
    expect(a.dependencies).toContainEqual(
      expect.objectContaining({
        kind: 'cmake-package',
        name: 'ZLIB',
        debianPackages: ['zlib1g-dev'],
        resolvedBy: 'alias',
      }),
    );
    expect(a.findings).toContainEqual(
      expect.objectContaining({ kind: 'char-signedness', severity: 'high', file: 'main.c', line: 2 }),
    );
    expect(a.findings[0]).toHaveProperty('snippet');
    expect(a.autotoolsHelpers).toEqual([]);
    expect(a.plan.phases.map((p: { name: string }) => p.name)).toEqual([
      'configure',
      'build',
      'test',
      'install',
    ]);
    expect(a.source.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(a.source.dir).toBe(join(sandbox, 'rvport-home', 'sources', 'demo'));
    expect(writtenOutsideWork(sandbox).filter((p) => !p.startsWith('./inputs'))).toEqual([]);
  });

  it('analyses a local repository in place, with its commit', { timeout: 120_000 }, async () => {
    const sandbox = mkdtempSync(join(tmpdir(), 'rvport-local-'));
    const project = join(sandbox, 'inputs', 'tool');
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, 'meson.build'), "project('tool', 'c')\nzlib = dependency('zlib')\n");
    const git = (...args: string[]) => execFileSync('git', args, { cwd: project, encoding: 'utf8' }).trim();
    git('init', '-q');
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init');
    const run = await rvport(['analyze', '--json', '--no-contents', project], sandbox);
    expect(run.exitCode).toBe(0);
    const a = JSON.parse(run.stdout);
    expect(a).toMatchObject({ name: 'tool', buildSystem: { type: 'meson', dir: '.' } });
    expect(a.source).toMatchObject({ kind: 'directory', dir: project, commit: git('rev-parse', 'HEAD') });
    expect(a.dependencies).toEqual([
      expect.objectContaining({ kind: 'pkg-config', name: 'zlib', required: true }),
    ]);
    expect(writtenOutsideWork(sandbox).filter((p) => !p.startsWith('./inputs'))).toEqual([]);
  });
});
