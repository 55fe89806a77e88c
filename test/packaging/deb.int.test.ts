import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEBIAN_ESSENTIAL } from '../../scripts/build-deb.ts';
import { hostPackages } from '../../src/sandbox/index.ts';
import { filesUnder, PROJECT_ROOT, packProject, plainUserEnv, run } from '../helpers/packProject.ts';

// The Debian package as `npm run build:deb` makes it, read with dpkg-deb and unpacked into a
// folder of its own (dpkg-deb -x), where the unpacked /usr/bin/rvport runs with this machine's
// Node.js. Built from an npm pack of a copy of the checkout, so the checkout's dist/ is left alone.
const version = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string })
  .version;
const tsx = join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx');
const hasLintian = spawnSync('sh', ['-c', 'command -v lintian']).status === 0;
let work: string;
let deb: string;
let fields: Map<string, string>;
let contents: string[];
let unpacked: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'rvport-deb-test-'));
  const { tarball } = packProject(work);
  const build = run(
    tsx,
    ['scripts/build-deb.ts', '--tarball', tarball, '--out', join(work, 'out')],
    PROJECT_ROOT,
    { timeout: 600_000 },
  );
  expect(build.code, build.stderr).toBe(0);
  deb = build.stdout.trim();
  expect(deb).toBe(join(work, 'out', `rvport_${version}_all.deb`));
  const info = run('dpkg-deb', ['-f', deb], work);
  expect(info.code, info.stderr).toBe(0);
  fields = new Map(
    info.stdout
      .replace(/\n /g, '\u0000')
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]),
  );
  const listing = run('dpkg-deb', ['-c', deb], work);
  expect(listing.code, listing.stderr).toBe(0);
  contents = listing.stdout.split('\n').filter(Boolean);
  unpacked = join(work, 'root');
  const x = run('dpkg-deb', ['-x', deb, unpacked], work);
  expect(x.code, x.stderr).toBe(0);
}, 900_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** dpkg-deb -c's path column, without the leading "./". */
const paths = () => contents.map((line) => (line.split(/\s+/)[5] ?? '').replace(/^\.\//, ''));

describe('the .deb (npm run build:deb)', () => {
  it('has the control fields: version, Architecture: all, Node.js and every host package rvport needs', () => {
    expect(fields.get('Package')).toBe('rvport');
    expect(fields.get('Version')).toBe(version);
    expect(fields.get('Architecture')).toBe('all');
    expect(fields.get('Maintainer')).toMatch(/^\S.* <[^>]+@[^>]+>$/);
    expect(fields.get('Description')).toMatch(/RISC-V/);
    const depends = (fields.get('Depends') ?? '').split(/,\s*/);
    expect(depends[0]).toMatch(/^nodejs \(>= 20(\.\d+)*\)$/);
    for (const pkg of hostPackages()) if (!DEBIAN_ESSENTIAL.has(pkg)) expect(depends).toContain(pkg);
    for (const pkg of [
      'qemu-user-static',
      'binfmt-support',
      'mmdebstrap',
      'arch-test',
      'uidmap',
      'zstd',
      'git',
    ])
      expect(depends).toContain(pkg);
  });

  it('lays out /usr/lib/rvport, the /usr/bin/rvport link, the copyright, changelog and manual page', () => {
    const all = paths();
    const link = contents.find((line) => / \.\/usr\/bin\/rvport -> /.test(line));
    expect(link).toMatch(/^l.* \.\/usr\/bin\/rvport -> \.\.\/lib\/rvport\/bin\/rvport\.js$/);
    for (const needed of [
      'usr/lib/rvport/bin/rvport.js',
      'usr/lib/rvport/package.json',
      'usr/lib/rvport/dist/.built',
      'usr/lib/rvport/dist/cli/main.js',
      'usr/lib/rvport/dist/cli/workflowLoaderHooks.js',
      'usr/lib/rvport/dist/sandbox/chroot/enter/enter.c',
      'usr/lib/rvport/node_modules/tsx/package.json',
      'usr/lib/rvport/node_modules/bullmq/package.json',
      'usr/share/doc/rvport/copyright',
      'usr/share/doc/rvport/changelog.gz',
      'usr/share/man/man1/rvport.1.gz',
    ])
      expect(all).toContain(needed);
    expect(contents.find((line) => line.endsWith(' ./usr/lib/rvport/bin/rvport.js'))).toMatch(
      /^-rwxr-xr-x root\/root /,
    );
    expect(contents.every((line) => / root\/root /.test(line))).toBe(true);
  });

  it('ships nothing built for one processor, no tests, no sources, no dev dependencies', () => {
    const all = paths();
    expect(all.filter((p) => p.endsWith('.node'))).toEqual([]);
    expect(all.filter((p) => /\/(msgpackr-extract|@msgpackr-extract|@esbuild)\//.test(p))).toEqual([]);
    expect(
      all.filter((p) =>
        /^usr\/lib\/rvport\/(src|test|bench|scripts|examples)\/|\/__tests__\/|\.(test|spec)\./.test(p),
      ),
    ).toEqual([]);
    for (const dev of ['typescript', 'vitest', '@biomejs', 'dependency-cruiser', 'vite'])
      expect(all.some((p) => p.startsWith(`usr/lib/rvport/node_modules/${dev}/`))).toBe(false);
    const elf = filesUnder(unpacked).filter((p) => {
      const head = readFileSync(join(unpacked, p)).subarray(0, 4);
      return head.equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]));
    });
    expect(elf).toEqual([]);
  });

  it('has a Debian changelog of this version', () => {
    const log = run('sh', ['-c', `zcat "${join(unpacked, 'usr/share/doc/rvport/changelog.gz')}"`], work);
    expect(log.stdout).toMatch(
      new RegExp(`^rvport \\(${version.replace(/\./g, '\\.')}\\) unstable; urgency=medium\n`),
    );
    expect(log.stdout).toMatch(/\n -- .+ <.+> {2}\w{3}, \d{2} \w{3} \d{4} 00:00:00 \+0000\n/);
  });

  it('runs unpacked: rvport --version and a TypeScript workflow file (tsx on esbuild-wasm), from a folder of its own', () => {
    const bin = join(unpacked, 'usr/bin/rvport');
    const elsewhere = join(work, 'elsewhere');
    mkdirSync(elsewhere);
    const env = plainUserEnv(join(work, 'home'));
    const v = run(process.execPath, [bin, '--version'], elsewhere, { env });
    expect(v.stderr).toBe('');
    expect(v.stdout.trim()).toBe(version);
    writeFileSync(
      join(elsewhere, 'hello.workflow.ts'),
      readFileSync(join(PROJECT_ROOT, 'examples', 'hello.workflow.ts')),
    );
    const wf = run(process.execPath, [bin, 'workflow', 'run', 'hello.workflow.ts', '--json'], elsewhere, {
      env,
    });
    expect(wf.stderr).toMatch(/workflow 'hello' completed in \d+ steps/);
    expect(JSON.parse(wf.stdout)).toMatchObject({ status: 'completed' });
  });

  it('runs the batch queue’s libraries without the native addon (msgpackr in JavaScript)', () => {
    const script =
      "import { Queue } from 'bullmq'; import { pack, unpack } from 'msgpackr';\nconsole.log(typeof Queue, JSON.stringify(unpack(pack({ a: [1, 'b'] }))));";
    const r = run(process.execPath, ['--input-type=module', '-e', script], join(unpacked, 'usr/lib/rvport'));
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('function {"a":[1,"b"]}');
  });

  it('passes lintian without errors or warnings', () => {
    if (!hasLintian)
      throw new Error('lintian is not installed: .ci/run installs it (apt-get install lintian)');
    const r = run('lintian', ['--fail-on', 'error,warning', deb], work, { timeout: 300_000 });
    expect(r.stdout.split('\n').filter((l) => /^[EW]: /.test(l))).toEqual([]);
    expect(r.code).toBe(0);
    // lintian reads the whole package and takes more than vitest's default 30 s on a busy machine
  }, 330_000);
});
