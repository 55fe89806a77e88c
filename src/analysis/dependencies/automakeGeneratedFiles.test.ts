import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { extractDependencies } from '../extractDependencies.ts';
import { SourceTree } from '../SourceTree.ts';
import { automakeGeneratedFiles } from './automakeGeneratedFiles.ts';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

function tree(files: Record<string, string>): SourceTree {
  const root = mkdtempSync(join(tmpdir(), 'rvport-am-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return SourceTree.fromDisk(root);
}

const programs = (t: SourceTree) =>
  extractDependencies(t, '.', 'autotools', [automakeGeneratedFiles]).map(
    (d) => `${d.name}@${d.file}:${d.line}:${d.required}`,
  );

const SRC_AM = ['bin_PROGRAMS = calc', 'calc_SOURCES = main.c \\', '\tparse.y scan.l \\', '\tutil.c'].join(
  '\n',
);

describe('generators a checkout needs for what a release tarball ships made', () => {
  it('asks for bison and flex when the parser and scanner sources have no generated C beside them', () => {
    expect(programs(tree({ 'src/Makefile.am': SRC_AM, 'src/main.c': '' }))).toEqual([
      'bison@src/Makefile.am:2:true',
      'flex@src/Makefile.am:2:true',
    ]);
  });

  it('asks for nothing when the tarball carries parse.c and scan.c', () => {
    expect(programs(tree({ 'src/Makefile.am': SRC_AM, 'src/parse.c': '', 'src/scan.c': '' }))).toEqual([]);
  });

  it('takes C++ parsers by their own suffixes', () => {
    const t = tree({
      'Makefile.am': 'lib_LTLIBRARIES = libq.la\nlibq_la_SOURCES = q.yy lex.ll\n',
      'lex.cc': '',
    });
    expect(programs(t)).toEqual(['bison@Makefile.am:2:true']);
  });

  it('asks for makeinfo and help2man for a manual and a man page in doc/ that a checkout lacks', () => {
    const doc = [
      'info_TEXINFOS = tool.texi',
      'dist_man_MANS = tool.1',
      'tool.1: $(top_srcdir)/configure.ac',
      '\t$(HELP2MAN) --name=tool --output=$@ ./tool',
    ].join('\n');
    expect(programs(tree({ 'doc/Makefile.am': doc, 'doc/tool.texi': '' }))).toEqual([
      'makeinfo@doc/Makefile.am:1:true',
      'help2man@doc/Makefile.am:4:true',
    ]);
    expect(programs(tree({ 'doc/Makefile.am': doc, 'doc/tool.info': '', 'doc/tool.1': '' }))).toEqual([]);
  });

  it('reads no variable reference as a file and no sources of tests', () => {
    const t = tree({
      'Makefile.am': 'foo_SOURCES = $(GENERATED) @EXTRA@.y\n',
      'tests/Makefile.am': 'check_PROGRAMS = t\nt_SOURCES = t.l\n',
    });
    expect(programs(t)).toEqual([]);
  });
});
