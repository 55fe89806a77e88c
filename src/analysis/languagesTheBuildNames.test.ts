import { describe, expect, it } from 'vitest';
import { languagesNeeded, languagesTheBuildNames } from './languagesTheBuildNames.ts';
import { SourceTree } from './SourceTree.ts';

const ADA = 'package body ZLib is\nend ZLib;\n';

describe('languagesTheBuildNames', () => {
  it("leaves out Ada code a C-only CMake build never names (zlib's contrib/ada)", () => {
    const tree = SourceTree.fromFiles({
      'CMakeLists.txt':
        'cmake_minimum_required(VERSION 2.4.4)\nproject(zlib C)\nadd_library(zlib SHARED adler32.c)\n',
      'adler32.c': 'int x;\n',
      'contrib/ada/zlib.adb': ADA,
      'contrib/ada/zlib.gpr': 'project Zlib is\nend Zlib;\n',
    });
    const uses = languagesTheBuildNames(tree, { type: 'cmake', dir: '.' }, ['ada']);
    expect(uses).toEqual([
      { language: 'ada', needed: false, why: "none of the cmake build's files names it" },
    ]);
    expect(languagesNeeded(uses)).toEqual([]);
  });

  it('keeps Objective-C a CMake project declares', () => {
    const tree = SourceTree.fromFiles({
      'CMakeLists.txt': 'project(gnustep-thing LANGUAGES C OBJC)\n',
      'src/CMakeLists.txt': 'add_executable(tool main.m)\n',
      'src/main.m': '#import <Foundation/Foundation.h>\n',
    });
    const uses = languagesTheBuildNames(tree, { type: 'cmake', dir: '.' }, ['objective-c']);
    expect(uses).toEqual([{ language: 'objective-c', needed: true, why: 'CMakeLists.txt names it' }]);
  });

  it('keeps a language autoconf asks for, and one a Makefile.am lists by file name', () => {
    const tree = SourceTree.fromFiles({
      'configure.ac': 'AC_INIT([x], [1])\nAC_PROG_CC\nAC_PROG_OBJC\n',
      'Makefile.am': 'SUBDIRS = lib\nbin_PROGRAMS = x\nx_SOURCES = main.c\n',
      'lib/Makefile.am': 'libgnat_SOURCES = binding.adb\n',
      'lib/binding.adb': ADA,
      'main.m': '@interface X\n@end\n',
    });
    const uses = languagesTheBuildNames(tree, { type: 'autotools', dir: '.' }, ['ada', 'objective-c']);
    expect(uses.map((u) => [u.language, u.needed, u.why])).toEqual([
      ['ada', true, 'lib/Makefile.am names it'],
      ['objective-c', true, 'configure.ac names it'],
    ]);
  });

  it("leaves out the build files of a folder the build never enters (drawterm's gui-cocoa/Makefile)", () => {
    const files = {
      Makefile: 'ROOT=.\n\ninclude Make.config\n\nOFILES=main.$O\n',
      'Make.config': 'AUDIO=none\ninclude $(ROOT)/Make.$(CONF)\n',
      'Make.osx-cocoa': 'GUI=cocoa\n',
      'gui-cocoa/Makefile': 'OFILES=screen.$O\n%.$O: %.m\n\t$(CC) $(CFLAGS) -c $<\n',
      'gui-cocoa/screen.m': '@interface X\n@end\n',
      'main.c': 'int main(void) { return 0; }\n',
    };
    const left = languagesTheBuildNames(SourceTree.fromFiles(files), { type: 'make', dir: '.' }, [
      'objective-c',
    ]);
    expect(left).toEqual([
      { language: 'objective-c', needed: false, why: "none of the make build's files names it" },
    ]);
    // entered once a Makefile above names the folder
    const entered = SourceTree.fromFiles({
      ...files,
      Makefile: `${files.Makefile}all:\n\t$(MAKE) -C gui-cocoa\n`,
    });
    expect(languagesTheBuildNames(entered, { type: 'make', dir: '.' }, ['objective-c'])[0]?.needed).toBe(
      true,
    );
  });

  it('keeps Ada that a Makefile builds with gnatmake, and not a file name that only ends alike', () => {
    const named = SourceTree.fromFiles({
      Makefile: 'all:\n\tgnatmake -P tool.gpr\n',
      'src/tool.adb': ADA,
    });
    expect(languagesNeeded(languagesTheBuildNames(named, { type: 'make', dir: '.' }, ['ada']))).toEqual([
      'ada',
    ]);
    const unnamed = SourceTree.fromFiles({
      Makefile: 'all: mytool.adbx\n\tcc -o mytool main.c\n',
      'bindings/tool.adb': ADA,
    });
    expect(languagesNeeded(languagesTheBuildNames(unnamed, { type: 'make', dir: '.' }, ['ada']))).toEqual([]);
  });

  it("reads only the chosen build's folder and files: a sub-project's meson.build elsewhere does not count", () => {
    const tree = SourceTree.fromFiles({
      'build/meson.build': "project('x', 'c')\n",
      'macos-port/meson.build': "project('y', 'objc')\n",
      'macos-port/app.m': '@implementation X\n@end\n',
    });
    const uses = languagesTheBuildNames(tree, { type: 'meson', dir: 'build' }, ['objective-c']);
    expect(languagesNeeded(uses)).toEqual([]);
  });

  it('takes every language as needed for a build system whose files do not declare them', () => {
    const tree = SourceTree.fromFiles({
      'setup.py': 'from setuptools import setup\n',
      'ext/a.m': '@interface A\n@end\n',
    });
    const uses = languagesTheBuildNames(tree, { type: 'python', dir: '.' }, ['objective-c']);
    expect(uses).toEqual([
      {
        language: 'objective-c',
        needed: true,
        why: "the python build's files do not declare the languages it compiles",
      },
    ]);
  });
});
