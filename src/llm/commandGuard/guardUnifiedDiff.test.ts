import { describe, expect, it } from 'vitest';
import { guardUnifiedDiff } from './guardUnifiedDiff.ts';

const gitDiff = `diff --git a/libmad/fixed.h b/libmad/fixed.h
index 1111111..2222222 100644
--- a/libmad/fixed.h
+++ b/libmad/fixed.h
@@ -1,3 +1,3 @@
-# if defined(FPM_64BIT)
+# if defined(FPM_64BIT) && !defined(__riscv)
   x
   y
`;

const plainDiff = `--- configure.ac.orig\t2026-11-30 12:00:00
+++ configure.ac\t2026-11-30 12:01:00
@@ -10 +10 @@
-CFLAGS="-march=native"
+CFLAGS=""
`;

describe('guardUnifiedDiff', () => {
  it('accepts diffs inside the tree, git-style or plain, new and deleted files', () => {
    expect(guardUnifiedDiff(gitDiff)).toMatchObject({ allowed: true, paths: ['libmad/fixed.h'] });
    expect(guardUnifiedDiff(plainDiff)).toMatchObject({
      allowed: true,
      paths: ['configure.ac.orig', 'configure.ac'],
    });
    expect(
      guardUnifiedDiff(
        'diff --git a/new.c b/new.c\nnew file mode 100644\n--- /dev/null\n+++ b/new.c\n@@ -0,0 +1 @@\n+int x;\n',
      ),
    ).toMatchObject({ allowed: true, paths: ['new.c'] });
  });

  it.each([
    ['--- /native/usr/lib/x\n+++ /native/usr/lib/x\n@@ -1 +1 @@\n-a\n+b\n', /absolute path/],
    ['--- a/../../etc/passwd\n+++ b/../../etc/passwd\n@@ -1 +1 @@\n-a\n+b\n', /outside the source tree/],
    ['diff --git a/src/x b/src/../../x\n--- a/src/x\n+++ b/src/../../x\n@@ -1 +1 @@\n-a\n+b\n', /outside/],
    [
      '--- a/.git/hooks/post-checkout\n+++ b/.git/hooks/post-checkout\n@@ -0,0 +1 @@\n+mount\n',
      /git's own files/,
    ],
    [
      'diff --git a/cc b/cc\nnew file mode 120000\n--- /dev/null\n+++ b/cc\n@@ -0,0 +1 @@\n+/native/bin/gcc\n',
      /symbolic link/,
    ],
    ['diff --git a/x.o b/x.o\nGIT binary patch\nliteral 0\n', /binary/],
    ['please add -latomic', /not a unified diff/],
  ])('refuses %j', (diff, reason) => {
    const verdict = guardUnifiedDiff(diff);
    expect(verdict.allowed).toBe(false);
    expect(verdict.allowed ? '' : verdict.reason).toMatch(reason);
  });

  it('does not read removed or added lines that look like headers as paths', () => {
    const diff = '--- a/notes.txt\n+++ b/notes.txt\n@@ -1 +1 @@\n---- /etc/passwd\n++++ /native/x\n';
    expect(guardUnifiedDiff(diff)).toMatchObject({ allowed: true, paths: ['notes.txt'] });
    expect(guardUnifiedDiff(diff, { recount: true })).toMatchObject({
      allowed: true,
      diff: diff.replace('@@ -1 +1 @@', '@@ -1,1 +1,1 @@'),
    });
  });
});

/** A hunk whose header claims six new lines, followed by a symbolic link to /native. */
const LYING_HUNK_THEN_SYMLINK = `diff --git a/x.c b/x.c
--- a/x.c
+++ b/x.c
@@ -1,1 +1,6 @@
-int a;
+int b;
diff --git a/cc b/cc
new file mode 120000
--- /dev/null
+++ b/cc
@@ -0,0 +1 @@
+/native/bin/gcc
`;

describe('guardUnifiedDiff, what apply would see past the hunk counts', () => {
  it.each([
    [LYING_HUNK_THEN_SYMLINK, /symbolic link|header/],
    [
      'diff --git a/x.c b/x.c\n--- a/x.c\n+++ b/x.c\n@@ -1 +1,4 @@\n-a\n+b\ndiff --git a/t b/t\nold mode 100644\nnew mode 100755\n',
      /mode|header/,
    ],
    ['diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n', /mode/],
    [
      'diff --git a/x b/x\nindex 1111111..2222222 120000\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+/native\n',
      /symbolic link/,
    ],
    [
      'diff --git a/x b/x\r\nindex 1111111..2222222 120000\r\n--- a/x\r\n+++ b/x\r\n@@ -1 +1 @@\r\n-a\r\n+/native\r\n',
      /symbolic link/,
    ],
    [
      'diff --git a/m b/m\nnew file mode 160000\nindex 0000000..1111111\n--- /dev/null\n+++ b/m\n@@ -0,0 +1 @@\n+Subproject commit 1111111111111111111111111111111111111111\n',
      /mode 160000/,
    ],
    [
      'diff --git a/l b/l\ndeleted file mode 120000\n--- a/l\n+++ /dev/null\n@@ -1 +0,0 @@\n-/x\n',
      /symbolic link/,
    ],
    ['--- a/.GIT/config\n+++ b/.GIT/config\n@@ -1 +1 @@\n-a\n+b\n', /git's own files/],
    [
      '--- a/sub/.git/hooks/pre-commit\n+++ b/sub/.git/hooks/pre-commit\n@@ -0,0 +1 @@\n+x\n',
      /git's own files/,
    ],
    ['--- "a/\\056git/config"\n+++ "b/\\056git/config"\n@@ -1 +1 @@\n-a\n+b\n', /git's own files/],
    ['--- a/.git./config\n+++ b/.git./config\n@@ -1 +1 @@\n-a\n+b\n', /git's own files/],
    ['--- a/git~1/config\n+++ b/git~1/config\n@@ -1 +1 @@\n-a\n+b\n', /git's own files/],
    [
      'diff --git a/x b/.git/hooks/post-checkout\nsimilarity index 100%\nrename from x\nrename to .git/hooks/post-checkout\n',
      /git's own files/,
    ],
    [
      'diff --git a/x b/y\nsimilarity index 100%\nrename from ../../etc/x\nrename to y\n',
      /outside the source tree/,
    ],
    ['diff --git a/x b/y\nsimilarity index 100%\ncopy from /etc/shadow\ncopy to y\n', /absolute path/],
    ['diff --git a/x b/y\nsimilarity index 100%\nrename old x\nrename new .git/config\n', /git's own files/],
    ['diff --git a/my x b/my .git\n--- a/my x\n+++ b/my .git\n@@ -1 +1 @@\n-a\n+b\n', /git's own files/],
    [
      'diff --git a/x.o b/x.o\nindex 1111111..2222222 100644\nBinary files a/x.o and b/x.o differ\n',
      /binary/,
    ],
    ['@@ -1 +1 @@\n-a\n+b\n', /hunk without a file header|not a unified diff/],
    ['--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\nnew file mode 120000\n', /symbolic link/],
    ['--- a/x\n+++ b/x\n@@ -1,x +1 @@\n-a\n+b\n', /hunk header/],
  ])('refuses %j', (diff, reason) => {
    for (const recount of [false, true]) {
      const verdict = guardUnifiedDiff(diff, { recount });
      expect(verdict.allowed).toBe(false);
      expect(verdict.allowed ? '' : verdict.reason).toMatch(reason);
    }
  });

  it('refuses, in exact mode, hunks whose headers disagree with their bodies', () => {
    const short = '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n+c\n';
    const long = '--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n-a\n+b\n';
    expect(guardUnifiedDiff(short)).toMatchObject({
      allowed: false,
      reason: expect.stringMatching(/header/),
    });
    expect(guardUnifiedDiff(long)).toMatchObject({ allowed: false, reason: expect.stringMatching(/header/) });
  });

  it('recounts loose hunks and returns the diff with the counts it checked', () => {
    const loose = '--- a/x\n+++ b/x\n@@ -1,9 +1,9 @@ int f()\n ctx\n-a\n+b\n+c\n';
    const verdict = guardUnifiedDiff(loose, { recount: true });
    expect(verdict).toMatchObject({
      allowed: true,
      diff: '--- a/x\n+++ b/x\n@@ -1,2 +1,3 @@ int f()\n ctx\n-a\n+b\n+c\n',
      paths: ['x'],
    });
  });

  it('recounting ends a hunk where apply --recount would, so a smuggled header is seen', () => {
    const verdict = guardUnifiedDiff(LYING_HUNK_THEN_SYMLINK, { recount: true });
    expect(verdict).toMatchObject({ allowed: false, reason: expect.stringMatching(/symbolic link/) });
  });

  it('accepts new executable files, renames inside the tree and no-newline markers', () => {
    const diff =
      'diff --git a/gen.sh b/gen.sh\nnew file mode 100755\nindex 0000000..1111111\n--- /dev/null\n+++ b/gen.sh\n@@ -0,0 +1 @@\n+echo hi\n\\ No newline at end of file\n' +
      'diff --git a/old.c b/src/new.c\nsimilarity index 100%\nrename from old.c\nrename to src/new.c\n';
    expect(guardUnifiedDiff(diff)).toMatchObject({ allowed: true, paths: ['gen.sh', 'old.c', 'src/new.c'] });
  });
});
