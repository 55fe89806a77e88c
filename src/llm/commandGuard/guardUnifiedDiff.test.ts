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
    expect(guardUnifiedDiff(gitDiff)).toEqual({ allowed: true });
    expect(guardUnifiedDiff(plainDiff)).toEqual({ allowed: true });
    expect(
      guardUnifiedDiff(
        'diff --git a/new.c b/new.c\nnew file mode 100644\n--- /dev/null\n+++ b/new.c\n@@ -0,0 +1 @@\n+int x;\n',
      ),
    ).toEqual({ allowed: true });
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
    const diff = '--- a/notes.txt\n+++ b/notes.txt\n@@ -1,2 +1,2 @@\n---- /etc/passwd\n++++ /native/x\n';
    expect(guardUnifiedDiff(diff)).toEqual({ allowed: true });
  });
});
