import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { debianKnowledge } from '../../src/port/steps/debianKnowledge.ts';
import { keepDebianPackaging } from '../../src/sources/keepDebianPackaging.ts';
import { type CraftedEntry, craftTar } from './craftTar.ts';

// The attacks a hostile debian.tar of a `debian:` source can make on the host, each through the
// real acquisition step (keepDebianPackaging, the function acquireDebian hands the downloaded
// debian.tar to) and the real port step that reads it (debianKnowledge: control, series, patches).

const CANARY_TEXT = 'host canary: must never be read as packaging nor changed\n';

function setup() {
  const root = mkdtempSync(join(tmpdir(), 'rvport-sec-debian-'));
  const host = join(root, 'host');
  mkdirSync(host);
  const canary = join(host, 'canary');
  writeFileSync(canary, CANARY_TEXT);
  const source = join(root, 'work', 'demo');
  mkdirSync(source, { recursive: true });
  writeFileSync(join(source, 'main.c'), 'int main(void) { return 0; }\n');
  const meta = join(root, 'work', '.rvport', 'demo', 'debian');
  const scratch = join(root, 'scratch');
  mkdirSync(scratch);
  return { root, host, canary, source, meta, scratch };
}

const CONTROL = 'Source: demo\nBuild-Depends: debhelper-compat (= 13), libdemo-dev\n\nPackage: demo\n';
const dir = (name: string): CraftedEntry => ({ name, type: '5' });
const file = (name: string, content: string): CraftedEntry => ({ name, type: '0', content });

async function keep(env: ReturnType<typeof setup>, entries: CraftedEntry[]) {
  const tar = join(env.root, 'demo_1.0-1.debian.tar');
  writeFileSync(tar, craftTar(entries));
  return keepDebianPackaging(tar, env.meta, env.scratch, {});
}

function hostUntouched(env: ReturnType<typeof setup>) {
  expect(readFileSync(env.canary, 'utf8')).toBe(CANARY_TEXT);
  expect(existsSync(join(env.root, 'work', 'outside'))).toBe(false);
  expect(existsSync(join(env.root, 'outside'))).toBe(false);
}

describe("a hostile debian.tar cannot reach the host through Debian's packaging", () => {
  it('a debian/control linked to a host file is refused with the packaging, never read', async () => {
    const env = setup();
    const kept = await keep(env, [
      dir('debian/'),
      { name: 'debian/control', type: '2', linkname: env.canary },
    ]);
    expect(kept.packaging).toBeNull();
    expect(kept.warnings).toEqual([
      expect.stringMatching(
        /^Debian's packaging is not used: tarball symbolic link control -> .* points outside the tree/,
      ),
    ]);
    // the port goes on with the upstream source and says why it has no Debian knowledge
    const known = await debianKnowledge(
      {
        dir: env.source,
        debian: { package: 'demo', version: '1.0', suite: 'trixie', tarball: 'x', packaging: null },
        warnings: kept.warnings,
      },
      env.scratch,
    );
    expect(known).toEqual({
      debian: expect.objectContaining({ buildDepends: [], patchesApplied: [], problems: kept.warnings }),
      patches: [],
    });
    hostUntouched(env);
  });

  it('a debian/control linked inside the packaging is not followed either', async () => {
    const env = setup();
    const kept = await keep(env, [
      dir('debian/'),
      file('debian/rules', CONTROL),
      { name: 'debian/control', type: '2', linkname: 'rules' },
    ]);
    expect(kept.packaging).toBeNull();
    expect(kept.warnings).toEqual([
      "Debian's packaging is not used: debian/control: debian/control is a symbolic link; not followed",
    ]);
  });

  it('entries with ../ or absolute names refuse the packaging; the source is ported without it', async () => {
    const env = setup();
    for (const name of ['debian/../../outside', '/tmp/rvport-sec-absolute']) {
      const kept = await keep(env, [dir('debian/'), file('debian/control', CONTROL), file(name, 'x')]);
      expect(kept.packaging).toBeNull();
      expect(kept.warnings[0]).toMatch(
        /^Debian's packaging is not used: tarball entry .* would land outside/,
      );
    }
    expect(existsSync('/tmp/rvport-sec-absolute')).toBe(false);
    hostUntouched(env);
  });

  it('a debian/patches linked to a host folder is refused', async () => {
    const env = setup();
    writeFileSync(join(env.host, 'series'), 'canary\n');
    const kept = await keep(env, [
      dir('debian/'),
      file('debian/control', CONTROL),
      { name: 'debian/patches', type: '2', linkname: env.host },
    ]);
    expect(kept.packaging).toBeNull();
    expect(kept.warnings[0]).toMatch(/symbolic link patches -> .* points outside the tree/);
    hostUntouched(env);
  });

  it('a series naming ../../etc/passwd or a host path is refused, the other patches still apply', async () => {
    const env = setup();
    const good =
      '--- a/main.c\n+++ b/main.c\n@@ -1 +1 @@\n-int main(void) { return 0; }\n+int main(void) { return 1; }\n';
    const kept = await keep(env, [
      dir('debian/'),
      file('debian/control', CONTROL),
      dir('debian/patches/'),
      file('debian/patches/series', `../../etc/passwd\n${env.canary}\nfix.patch\n`),
      file('debian/patches/fix.patch', good),
    ]);
    expect(kept.packaging?.buildDepends).toEqual([['libdemo-dev']]);
    expect(kept.packaging?.patches).toEqual([{ name: 'fix.patch', strip: 1 }]);
    expect(kept.warnings).toEqual([
      `Debian's packaging: series entry "../../etc/passwd" is refused (a '..', '.' or empty component)`,
      `Debian's packaging: series entry ${JSON.stringify(env.canary)} is refused (an absolute path)`,
    ]);
    expect(readFileSync(join(env.meta, 'control'), 'utf8')).toBe(CONTROL); // kept outside the tree
    expect(existsSync(join(env.source, 'debian'))).toBe(false);
    const known = await debianKnowledge(
      {
        dir: env.source,
        debian: { package: 'demo', version: '1.0', suite: 'trixie', tarball: 'x', packaging: kept.packaging },
        warnings: kept.warnings,
      },
      env.scratch,
    );
    expect(known?.debian.patchesApplied).toEqual(['fix.patch']);
    expect(known?.patches[0]?.diff).toContain('+int main(void) { return 1; }');
    hostUntouched(env);
  });

  it('a patch touching ../outside, or writing through a link of the source, is skipped, never applied', async () => {
    const env = setup();
    symlinkSync(env.host, join(env.source, 'lib')); // as if the upstream tree had such a link
    const outside = '--- a/../outside\n+++ b/../outside\n@@ -0,0 +1 @@\n+escaped\n';
    const throughLink =
      '--- a/lib/canary\n+++ b/lib/canary\n@@ -1 +1 @@\n-host canary: must never be read as packaging nor changed\n+changed\n';
    const kept = await keep(env, [
      dir('debian/'),
      file('debian/control', CONTROL),
      dir('debian/patches/'),
      file('debian/patches/series', 'outside.patch\nthrough-link.patch -p1\n'),
      file('debian/patches/outside.patch', outside),
      file('debian/patches/through-link.patch', throughLink),
    ]);
    if (!kept.packaging) throw new Error(kept.warnings.join('; '));
    const known = await debianKnowledge(
      {
        dir: env.source,
        debian: { package: 'demo', version: '1.0', suite: 'trixie', tarball: 'x', packaging: kept.packaging },
        warnings: kept.warnings,
      },
      env.scratch,
    );
    expect(known?.patches).toEqual([]);
    expect(known?.debian.patchesSkipped).toEqual([
      { name: 'outside.patch', reason: expect.stringMatching(/^refused: /) },
      { name: 'through-link.patch', reason: expect.stringMatching(/^refused: .*symbolic link/) },
    ]);
    hostUntouched(env);
  });

  it('a control file over the size limit is refused with a clear message', async () => {
    const env = setup();
    const kept = await keep(env, [
      dir('debian/'),
      file('debian/control', `Source: demo\n${'#'.repeat(1100 * 1024)}\n`),
    ]);
    expect(kept.packaging).toBeNull();
    expect(kept.warnings[0]).toMatch(
      /^Debian's packaging is not used: debian\/control: .*larger than 1048576 bytes/,
    );
  });
});
