import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { guardUnifiedDiff } from '../../llm/commandGuard/guardUnifiedDiff.ts';
import { debianPatches, splitDebianPatches, withoutSignature } from './debianPatches.ts';
import { applyPatches } from './sourcePatches.ts';

// a small program written for this test and two quilt patches in Debian's layout (DEP-3 headers)
const FIXTURE = join(import.meta.dirname, 'fixtures', 'demo');

let root: string;
let source: string;
let packaging: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'rvport-debian-patches-'));
  source = join(root, 'src');
  packaging = join(root, 'debian');
  cpSync(join(FIXTURE, 'upstream'), source, { recursive: true });
  cpSync(join(FIXTURE, 'patches'), join(packaging, 'patches'), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const series = (...names: string[]) => names.map((name) => ({ name, strip: 1 }));

describe('debianPatches', () => {
  it("turns Debian's series into the port's patches, in order, applying to a fresh tree", async () => {
    const result = await debianPatches(
      source,
      { dir: packaging, patches: series('modify_Makefile.patch', 'add_-e_option.patch') },
      root,
    );
    expect(result.skipped).toEqual([]);
    expect(result.applied).toEqual(['modify_Makefile.patch', 'add_-e_option.patch']);
    expect(result.patches.map((p) => p.name)).toEqual([
      '0001-debian-modify-makefile.patch',
      '0002-debian-add-e-option.patch',
    ]);
    expect(result.patches[0]?.diff).toContain('diff --git a/Makefile b/Makefile');
    expect(readFileSync(join(source, 'demo.c'), 'utf8')).not.toContain('INTR'); // the source is untouched
    await applyPatches(source, result.patches);
    expect(readFileSync(join(source, 'demo.c'), 'utf8')).toContain("case 'e': INTR     = 1; break;");
    expect(readFileSync(join(source, 'Makefile'), 'utf8')).toContain('LDFLAGS=-lncurses');
  });

  it('skips a patch that does not apply, or that is refused, and keeps going', async () => {
    writeFileSync(
      join(packaging, 'patches', 'stale.patch'),
      'Description: written for another version\n--- a/demo.c\n+++ b/demo.c\n@@ -1,1 +1,1 @@\n-no such line\n+other\n',
    );
    writeFileSync(
      join(packaging, 'patches', 'outside.patch'),
      '--- a/../outside\n+++ b/../outside\n@@ -0,0 +1,1 @@\n+written outside\n',
    );
    const result = await debianPatches(
      source,
      {
        dir: packaging,
        patches: [
          ...series('stale.patch', 'outside.patch', 'gone.patch', 'add_-e_option.patch'),
          { name: 'modify_Makefile.patch', strip: 0 }, // wrong -p: the paths carry a/ b/
        ],
      },
      root,
    );
    expect(result.applied).toEqual(['add_-e_option.patch']);
    expect(result.patches.map((p) => p.name)).toEqual(['0001-debian-add-e-option.patch']);
    expect(result.skipped.map((s) => s.name)).toEqual([
      'gone.patch',
      'stale.patch',
      'outside.patch',
      'modify_Makefile.patch',
    ]);
    expect(result.skipped[1]?.reason).toMatch(/^does not apply: /);
    expect(result.skipped[2]?.reason).toMatch(/^refused: /);
  });

  it('does not read a patch file through a symbolic link', async () => {
    writeFileSync(join(root, 'host-file'), '--- a/demo.h\n+++ b/demo.h\n@@ -1,0 +1,1 @@\n+/* host */\n');
    symlinkSync(join(root, 'host-file'), join(packaging, 'patches', 'link.patch'));
    const result = await debianPatches(source, { dir: packaging, patches: series('link.patch') }, root);
    expect(result.patches).toEqual([]);
    expect(result.skipped[0]?.reason).toMatch(/symbolic link; not followed/);
  });

  it('keeps a patch to configure.ac alone when the tree ships configure, and says it needs regenerating', async () => {
    writeFileSync(join(source, 'configure.ac'), 'AC_INIT([demo], [5.02])\nAC_OUTPUT\n');
    writeFileSync(join(source, 'configure'), '#!/bin/sh\necho generated\n');
    const input =
      '--- a/configure.ac\n+++ b/configure.ac\n@@ -1,2 +1,2 @@\n-AC_INIT([demo], [5.02])\n+AC_INIT([demo], [5.02-debian])\n AC_OUTPUT\n';
    const generated =
      '--- a/configure\n+++ b/configure\n@@ -1,2 +1,2 @@\n #!/bin/sh\n-echo generated\n+echo regenerated\n';
    writeFileSync(join(packaging, 'patches', 'input-only.patch'), input);
    writeFileSync(join(packaging, 'patches', 'generated.patch'), generated);
    const result = await debianPatches(
      source,
      { dir: packaging, patches: series('input-only.patch', 'generated.patch') },
      root,
    );
    expect(result.skipped).toEqual([]);
    expect(result.applied).toEqual(['input-only.patch', 'generated.patch']);
    expect(result.regenerate).toEqual([
      {
        name: 'input-only.patch',
        reason: expect.stringMatching(/^changes configure\.ac but not the configure the source ships/),
      },
    ]);
    await applyPatches(source, result.patches);
    expect(readFileSync(join(source, 'configure.ac'), 'utf8')).toContain('5.02-debian');
    expect(readFileSync(join(source, 'configure'), 'utf8')).toContain('regenerated');
  });

  it("drops git format-patch's signature, which the diff guard would read as a body line", () => {
    // a real patch of libxml2's series (from git format-patch)
    const text = readFileSync(
      join(import.meta.dirname, 'fixtures', 'libxml2-Reset-nsNr-in-xmlCtxtReset.patch'),
      'utf8',
    );
    expect(guardUnifiedDiff(text).allowed).toBe(false);
    const clean = withoutSignature(text);
    expect(clean.endsWith('     DICT_FREE(ctxt->encoding);\n')).toBe(true);
    expect(guardUnifiedDiff(clean)).toMatchObject({ allowed: true, paths: ['parser.c'] });
  });
});

describe('splitDebianPatches', () => {
  it("takes the leading run of Debian's patches, whatever the later ones are called", () => {
    const names = [
      '0001-debian-fix-build.patch',
      '0002-debian-cve.patch',
      '0003-rename-strnlen.patch',
      '0004-debian-x.patch',
    ];
    const { debian, rest } = splitDebianPatches(names.map((name) => ({ name, diff: '' })));
    expect(debian.map((p) => p.name)).toEqual(['0001-debian-fix-build.patch', '0002-debian-cve.patch']);
    expect(rest.map((p) => p.name)).toEqual(['0003-rename-strnlen.patch', '0004-debian-x.patch']);
    expect(splitDebianPatches([{ name: '0001-fix.patch' }]).debian).toEqual([]);
  });
});
