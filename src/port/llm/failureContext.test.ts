import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lastCommandOutput, referencedExcerpts, referencedFiles } from './failureContext.ts';

// Cut from arj's real build log in the sandbox (make in /build/src, objects under linux-gnu/).
const ARJ = `make[1]: Entering directory '/build/src'
gcc -c -DLOCALE=LANG_en -O2 -o linux-gnu/en/rs/arj/fardata.o fardata.c
fardata.c:193:12: error: conflicting types for 'strnlen'; have 'int(const char *, int)'
  193 | static int strnlen(const char FAR *s, int count)
In file included from fardata.c:10:
/usr/include/string.h:426:15: note: previous declaration of 'strnlen' with type 'size_t(const char *, size_t)'
make[1]: *** [GNUmakefile:355: linux-gnu/en/rs/arj/fardata.o] Error 1`;

describe('failure context', () => {
  it('keeps only the last command of the build log', () => {
    const log = '\n### [configure] $ ./configure\nok\n### exit 0\n\n### [build] $ make\nboom\n### exit 2\n';
    expect(lastCommandOutput(log)).toBe('### [build] $ make\nboom\n### exit 2\n');
  });

  it('finds the files and lines a compiler error names, not system headers', () => {
    expect(referencedFiles(ARJ, 'gnu')).toEqual([{ path: 'fardata.c', line: 193 }]);
  });

  it('resolves paths against the folder make entered', () => {
    const out = "make[2]: Entering directory '/build/src/lib'\nfoo.c:7:1: error: expected ';'\n";
    expect(referencedFiles(out, '.')).toEqual([{ path: 'lib/foo.c', line: 7 }]);
    expect(referencedFiles('/build/src/x/y.h:3: error: z\n', '.')).toEqual([{ path: 'x/y.h', line: 3 }]);
    expect(referencedFiles('../../etc/passwd:1: error: no\n', '.')).toEqual([]);
  });

  it('reads excerpts of the files that exist, focused on the named lines', async () => {
    const tree = mkdtempSync(join(tmpdir(), 'rvport-fc-'));
    try {
      mkdirSync(join(tree, 'lib'));
      writeFileSync(join(tree, 'lib', 'foo.c'), 'a\nb\nc\n');
      const sources = await referencedExcerpts(tree, [
        { path: 'lib/foo.c', line: 2 },
        { path: 'missing.c', line: 1 },
      ]);
      expect(sources).toEqual([{ path: 'lib/foo.c', content: 'a\nb\nc\n', focus: [2], priority: 4 }]);
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });

  it('puts a note, not the file, where a diagnostic names a link out of the tree', async () => {
    const base = mkdtempSync(join(tmpdir(), 'rvport-fc-'));
    try {
      const tree = join(base, 'tree');
      mkdirSync(join(tree, 'src'), { recursive: true });
      writeFileSync(join(base, 'id_rsa'), 'PRIVATE KEY\n');
      symlinkSync(join(base, 'id_rsa'), join(tree, 'src', 'x.c'));
      symlinkSync('x.c', join(tree, 'src', 'y.c'));
      writeFileSync(join(tree, 'src', 'z.c'), 'int z;\n');
      symlinkSync('z.c', join(tree, 'src', 'w.c'));
      const sources = await referencedExcerpts(tree, [
        { path: 'src/x.c', line: 1 },
        { path: 'src/y.c', line: 1 },
        { path: 'src/w.c', line: 1 },
      ]);
      expect(sources).toEqual([
        { path: 'src/w.c', content: 'int z;\n', focus: [1], priority: 4 },
        {
          path: 'src/x.c',
          content: '(not read: a symbolic link that leads outside the source tree)',
          priority: 0,
        },
        {
          path: 'src/y.c',
          content: '(not read: a symbolic link that leads outside the source tree)',
          priority: 0,
        },
      ]);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
