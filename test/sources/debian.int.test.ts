import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { debianKnowledge } from '../../src/port/steps/debianKnowledge.ts';
import { acquireSource } from '../../src/sources/acquireSource.ts';
import { parseSource } from '../../src/sources/parseSource.ts';

// The private apt lists are a cache shared between runs; the package itself goes to a fresh folder.
const aptDir = join(process.env.RVPORT_TEST_CACHE ?? join(homedir(), '.cache', 'rvport'), 'debian-apt-test');

describe('debian: sources through a private apt configuration (network)', () => {
  it('imports the upstream tarball of a Debian source package as one commit', {
    timeout: 300_000,
  }, async () => {
    const work = mkdtempSync(join(tmpdir(), 'rvport-debian-'));
    const src = await acquireSource(parseSource('debian:sl'), { workDir: work, aptDir });
    expect(src).toMatchObject({ name: 'sl', kind: 'debian', debian: { package: 'sl', suite: 'trixie' } });
    expect(src.debian?.tarball).toMatch(/^sl_.*\.orig\.tar\./);
    expect(existsSync(join(src.dir, 'sl.c'))).toBe(true);
    expect(existsSync(join(src.dir, 'debian'))).toBe(false);
    const log = execFileSync('git', [`--git-dir=${src.gitDir}`, 'log', '--format=%H %s'], {
      encoding: 'utf8',
    });
    expect(log.trim()).toBe(`${src.commit} Import sl ${src.debian?.version} upstream source`);
    expect(readdirSync(work).sort()).toEqual(['.rvport', 'sl']);
    expect(existsSync(join(src.dir, '.git'))).toBe(false); // the metadata lives in rvport's folder
  });

  it("keeps Debian's packaging beside the record, with its Build-Depends and patch series", {
    timeout: 300_000,
  }, async () => {
    const work = mkdtempSync(join(tmpdir(), 'rvport-debian-'));
    const src = await acquireSource(parseSource('debian:sl'), { workDir: work, aptDir });
    const packaging = src.debian?.packaging;
    expect(packaging).toMatchObject({
      dir: join(work, '.rvport', 'sl', 'debian'),
      buildDepends: [['libncurses5-dev']], // debhelper is packaging only
      patches: [
        { name: 'modify_Makefile.patch', strip: 1 },
        { name: 'add_-e_option.patch', strip: 1 },
      ],
      problems: [],
    });
    expect(readFileSync(join(packaging?.dir ?? '', 'control'), 'utf8')).toMatch(/^Source: sl$/m);
    expect(existsSync(join(src.dir, 'debian'))).toBe(false); // never inside the build tree
    // the record in the metadata folder says the same, for a later run that reuses the tree
    const again = await acquireSource(parseSource('debian:sl'), { workDir: work, aptDir });
    expect(again.debian?.packaging).toEqual(packaging);
    // what a port starts with: both of Debian's patches apply to the upstream tree
    const known = await debianKnowledge(src, work);
    expect(known?.debian.patchesApplied).toEqual(['modify_Makefile.patch', 'add_-e_option.patch']);
    expect(known?.patches.map((p) => p.name)).toEqual([
      '0001-debian-modify-makefile.patch',
      '0002-debian-add-e-option.patch',
    ]);
  });

  it('fails clearly for a package that does not exist, writing nothing', { timeout: 300_000 }, async () => {
    const work = mkdtempSync(join(tmpdir(), 'rvport-debian-'));
    await expect(
      acquireSource(parseSource('debian:rvport-no-such-package'), { workDir: work, aptDir }),
    ).rejects.toThrow(
      /cannot get the Debian source package rvport-no-such-package.*Unable to find a source package/,
    );
    expect(readdirSync(work)).toEqual([]);
  });

  it('lets two processes acquire at once into a fresh apt folder: one updates the lists, the other waits', {
    timeout: 600_000,
  }, async () => {
    // what a batch's two workers do on a new home (apt refused the second update: "Could not get lock")
    const fresh = mkdtempSync(join(tmpdir(), 'rvport-debian-apt-'));
    const script = join(fresh, 'acquire.mts');
    const source = new URL('../../src/sources/acquireSource.ts', import.meta.url).pathname;
    const parse = new URL('../../src/sources/parseSource.ts', import.meta.url).pathname;
    writeFileSync(
      script,
      [
        `import { acquireSource } from ${JSON.stringify(source)};`,
        `import { parseSource } from ${JSON.stringify(parse)};`,
        'const [aptDir, workDir] = process.argv.slice(2);',
        "const src = await acquireSource(parseSource('debian:sl'), { workDir, aptDir, log: (l) => console.log(l) });",
        "console.log('acquired', src.debian?.tarball);",
      ].join('\n'),
    );
    const tsx = new URL('../../node_modules/.bin/tsx', import.meta.url).pathname;
    const run = (n: number) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(tsx, [script, fresh, mkdtempSync(join(tmpdir(), `rvport-debian-${n}-`))]);
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (out += d));
        child.on('close', (code) => resolve({ code, out }));
      });
    const results = await Promise.all([run(1), run(2)]);
    for (const r of results) {
      expect(r.code, r.out).toBe(0);
      expect(r.out).toMatch(/acquired sl_.*\.orig\.tar\./);
    }
    const updates = results.filter((r) => r.out.includes('updating the private Debian source lists'));
    expect(updates).toHaveLength(1);
  });
});
