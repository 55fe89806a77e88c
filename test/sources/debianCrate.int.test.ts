import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { debianKnowledge } from '../../src/port/steps/debianKnowledge.ts';
import { acquireSource } from '../../src/sources/acquireSource.ts';
import { parseSource } from '../../src/sources/parseSource.ts';

// The private apt lists are a cache shared between runs; the package itself goes to a fresh folder.
const aptDir = join(process.env.RVPORT_TEST_CACHE ?? join(homedir(), '.cache', 'rvport'), 'debian-apt-test');
/** Nothing listens here: a second acquisition that needed the network would fail. */
const NO_MIRROR = 'http://127.0.0.1:9/debian';

// This machine's mirror lacks the .dsc, debian.tar and orig tarball of most rust-* source
// packages, but has their librust-*-dev binary packages, which ship the whole crate.
describe('debian:rust-* sources whose own files are not on the mirror (network)', () => {
  it('takes the crate from its librust-*-dev package, records where from, and reuses it offline', {
    timeout: 300_000,
  }, async () => {
    const work = mkdtempSync(join(tmpdir(), 'rvport-debian-crate-'));
    const src = await acquireSource(parseSource('debian:rust-itoa'), { workDir: work, aptDir });
    expect(src).toMatchObject({
      name: 'rust-itoa',
      kind: 'debian',
      debian: {
        package: 'rust-itoa',
        suite: 'trixie',
        packaging: null,
        binary: { package: 'librust-itoa-dev', architecture: 'riscv64' },
      },
    });
    const binary = src.debian?.binary;
    expect(binary?.folder).toBe(`usr/share/cargo/registry/itoa-${src.debian?.version}`);
    expect(src.debian?.tarball).toBe(`librust-itoa-dev_${binary?.version}_riscv64.deb`);
    expect(src.tarballSha256).toBe(binary?.sha256);
    expect(src.warnings[0]).toBe(
      `the source package's files are not on the mirror; the crate source comes from librust-itoa-dev ${binary?.version}, Debian's packaged crate`,
    );
    // the tree is the crate folder itself, nothing else of the package
    expect(readFileSync(join(src.dir, 'Cargo.toml'), 'utf8')).toMatch(/^name = "itoa"$/m);
    expect(existsSync(join(src.dir, 'src', 'lib.rs'))).toBe(true);
    expect(existsSync(join(src.dir, 'usr'))).toBe(false);
    expect(readdirSync(work).sort()).toEqual(['.rvport', 'rust-itoa']);
    const message = execFileSync('git', [`--git-dir=${src.gitDir}`, 'log', '-1', '--format=%B'], {
      encoding: 'utf8',
    });
    expect(message).toContain(`Import rust-itoa ${src.debian?.version} crate source from librust-itoa-dev`);
    expect(message).toContain(`Binary package: librust-itoa-dev ${binary?.version} (riscv64)`);
    expect(message).toContain(`SHA256: ${binary?.sha256}`);
    // the port is told, under Debian's packaging
    const known = await debianKnowledge(src, work);
    expect(known?.debian.problems?.[0]).toBe(src.warnings[0]);
    // a later run takes the recorded tree without a mirror
    const again = await acquireSource(parseSource('debian:rust-itoa'), {
      workDir: work,
      aptDir,
      mirror: NO_MIRROR,
    });
    expect(again.commit).toBe(src.commit);
    expect(again.debian?.binary).toEqual(binary);
  });

  it('still fails clearly for a rust-* source that builds no crate package', {
    timeout: 300_000,
  }, async () => {
    const work = mkdtempSync(join(tmpdir(), 'rvport-debian-crate-'));
    await expect(
      acquireSource(parseSource('debian:rust-rvport-no-such-crate'), { workDir: work, aptDir }),
    ).rejects.toThrow(/cannot get the Debian source package rust-rvport-no-such-crate/);
    expect(readdirSync(work)).toEqual([]);
  });
});
