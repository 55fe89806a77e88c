import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  filesUnder,
  PROJECT_ROOT,
  packProject,
  plainUserEnv,
  run,
  runtimeAssets,
} from '../helpers/packProject.ts';

// The release tarball as a user installs it: `npm pack`, then `npm install -g` of the file into a
// prefix of its own, then the installed `rvport` run from a folder that has nothing to do with the
// checkout. A file the code opens at run time that the tarball lacks fails here.
const version = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string })
  .version;
let work: string;
let files: string[];
let prefix: string;
let elsewhere: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'rvport-npm-pack-'));
  const packed = packProject(work);
  files = packed.files;
  prefix = join(work, 'prefix');
  const install = run(
    'npm',
    [
      'install',
      '--global',
      '--prefix',
      prefix,
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      packed.tarball,
    ],
    work,
    { timeout: 480_000 },
  );
  expect(install.code, install.stderr).toBe(0);
  elsewhere = join(work, 'elsewhere');
  mkdirSync(elsewhere);
  env = { ...plainUserEnv(join(work, 'home')), PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}` };
}, 900_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npm pack: the tarball installed with npm install -g', () => {
  it('holds every file the code opens at run time, and no sources, tests or fixtures', () => {
    const assets = runtimeAssets();
    // the scan finds the known ones (an empty scan would pass anything)
    for (const known of [
      'dist/cli/workflowLoaderHooks.js',
      'dist/sandbox/chroot/enter/enter.c',
      'dist/sandbox/proof/evidence/recorder.c',
      'dist/sandbox/proof/userlandProofs.json',
      'dist/port/run/rustProofs.json',
      'package.json',
      'bin/rvport.js',
    ])
      expect(assets).toContain(known);
    // a folder the code serves (dist/web, the dashboard's built front end) is there when files are in it
    const present = (asset: string) => files.includes(asset) || files.some((f) => f.startsWith(`${asset}/`));
    expect(assets.filter((asset) => !present(asset))).toEqual([]);
    expect(
      files.filter(
        (f) =>
          /^(src|test|bench|examples|scripts)\/|\.(test|testing)\.|\/testing\/|\/fixtures\/|\.ts$/.test(f) &&
          !f.endsWith('.d.ts'),
      ),
    ).toEqual([]);
  });

  it('imports every module of the installed build (each import and file it reads is there)', () => {
    const installed = join(prefix, 'lib', 'node_modules', 'rvport');
    // the dashboard's front end (dist/web) runs in a browser, not in Node
    const modules = filesUnder(join(installed, 'dist')).filter(
      (f) => f.endsWith('.js') && !f.startsWith('web/'),
    );
    expect(modules.length).toBeGreaterThan(100);
    const script = `for (const m of ${JSON.stringify(modules)}) await import('./dist/' + m);\nconsole.log('imported', ${modules.length});`;
    const result = run(process.execPath, ['--input-type=module', '-e', script], installed, { env });
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe(`imported ${modules.length}`);
  });

  it('rvport --version from an unrelated folder', () => {
    const result = run('rvport', ['--version'], elsewhere, { env });
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe(version);
  });

  it('rvport workflow run on the bundled example, copied into an unrelated folder', () => {
    writeFileSync(
      join(elsewhere, 'hello.workflow.ts'),
      readFileSync(join(PROJECT_ROOT, 'examples', 'hello.workflow.ts')),
    );
    const result = run('rvport', ['workflow', 'run', 'hello.workflow.ts', '--json'], elsewhere, { env });
    expect(result.stderr).toMatch(/workflow 'hello' completed in \d+ steps/);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'completed' });
  });

  it('rvport doctor answers with its checks (pass or fail is the machine’s, not the package’s)', () => {
    const result = run('rvport', ['doctor', '--json'], elsewhere, { env, timeout: 120_000 });
    expect([0, 1], result.stderr).toContain(result.code);
    const ids = (JSON.parse(result.stdout) as { id: string }[]).map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining(['kernel', 'command:git', 'command:qemu-riscv64-static']));
  });
});
