import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPatches, canonicalPatch, PatchError, patchFileName } from './sourcePatches.ts';

let root: string;
let source: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'rvport-patches-'));
  source = join(root, 'src');
  mkdirSync(join(source, 'lib'), { recursive: true });
  writeFileSync(
    join(source, 'lib', 'str.c'),
    'int a;\nstatic int strnlen(const char *s, int n)\n{\n  return n;\n}\nint b;\n',
  );
  writeFileSync(join(source, 'main.c'), 'int main(void) { return 0; }\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

// What models write: no a/ b/ prefixes and a hunk header whose counts are wrong.
const LOOSE = `--- lib/str.c
+++ lib/str.c
@@ -2,1 +2,1 @@
-static int strnlen(const char *s, int n)
+static int own_strnlen(const char *s, int n)
`;

describe('canonicalPatch', () => {
  it('turns a loose diff into a git diff with a/ b/ paths and leaves the source alone', async () => {
    const result = await canonicalPatch(source, [], LOOSE, root);
    if ('error' in result) throw new Error(result.error);
    expect(result.files).toEqual(['lib/str.c']);
    expect(result.diff).toContain('diff --git a/lib/str.c b/lib/str.c');
    expect(result.diff).toContain('+static int own_strnlen(');
    expect(readFileSync(join(source, 'lib', 'str.c'), 'utf8')).toContain('static int strnlen(');
  });

  it('applies on top of the earlier patches, and the result applies to a fresh tree in order', async () => {
    const first = await canonicalPatch(source, [], LOOSE, root);
    if ('error' in first) throw new Error(first.error);
    const second = await canonicalPatch(
      source,
      [{ name: '0001-a.patch', diff: first.diff }],
      'diff --git a/lib/str.c b/lib/str.c\n--- a/lib/str.c\n+++ b/lib/str.c\n@@ -2 +2 @@\n-static int own_strnlen(const char *s, int n)\n+int own_strnlen(const char *s, int n)\n',
      root,
    );
    if ('error' in second) throw new Error(second.error);
    await applyPatches(source, [
      { name: '0001-a.patch', diff: first.diff },
      { name: '0002-b.patch', diff: second.diff },
    ]);
    expect(readFileSync(join(source, 'lib', 'str.c'), 'utf8')).toContain('\nint own_strnlen(');
  });

  it('says why a diff does not apply', async () => {
    const result = await canonicalPatch(
      source,
      [],
      '--- a/nope.c\n+++ b/nope.c\n@@ -1 +1 @@\n-x\n+y\n',
      root,
    );
    expect(result).toMatchObject({ error: expect.stringContaining('does not apply') });
  });
});

describe('applyPatches', () => {
  it('names the patch that no longer applies', async () => {
    await expect(
      applyPatches(source, [
        { name: '0001-stale.patch', diff: '--- a/main.c\n+++ b/main.c\n@@ -1 +1 @@\n-int other;\n+int x;\n' },
      ]),
    ).rejects.toThrow(PatchError);
  });
});

describe('patchFileName', () => {
  it('numbers and slugs', () => {
    expect(patchFileName(0, 'Rename strnlen: it clashes with glibc!')).toBe(
      '0001-rename-strnlen-it-clashes-with-glibc.patch',
    );
    expect(patchFileName(11, '***')).toBe('0012-fix.patch');
  });
});
