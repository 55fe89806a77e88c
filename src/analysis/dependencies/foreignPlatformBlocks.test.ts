import { describe, expect, it } from 'vitest';
import { cmakeDependencies } from './cmakeDependencies.ts';
import { CMAKE_BLOCKS, foreignPlatformLines, MESON_BLOCKS } from './foreignPlatformBlocks.ts';
import { mesonDependencies } from './mesonDependencies.ts';

const file = (path: string, lines: string[]) => ({ path, text: lines.join('\n'), lines });
const names = (deps: { kind: string; name: string; required: boolean }[]) =>
  deps.map((d) => `${d.kind}:${d.name}${d.required ? '' : '?'}`);

describe('foreign platform blocks: meson', () => {
  it('drops what only a Windows or macOS build asks for, keeps the rest', () => {
    const meson = file('src/meson.build', [
      "zlib = dependency('zlib')",
      "if host_machine.system() == 'windows'",
      "  deps += cc.find_library('winmm')",
      "  tool = find_program('llvm-dlltool', 'dlltool')",
      "elif host_machine.system() == 'darwin'",
      "  deps += dependency('appleframeworks', modules: ['Cocoa'])",
      'else',
      "  deps += dependency('x11')",
      'endif',
      "if is_windows and get_option('demos')",
      "  deps += cc.find_library('shlwapi', required: true)",
      'endif',
      "if host_machine.system() in ['linux', 'freebsd']",
      "  deps += dependency('libudev')",
      'endif',
      'if not is_windows',
      "  deps += dependency('libunwind')",
      'else',
      "  deps += cc.find_library('dbghelp')",
      'endif',
    ]);
    expect(names(mesonDependencies.extract(meson))).toEqual([
      'pkg-config:zlib',
      'pkg-config:x11',
      'pkg-config:libudev',
      'pkg-config:libunwind',
    ]);
  });

  it('a branch after one that Linux always takes is never taken on Linux', () => {
    const lines = [
      "if host_machine.system() == 'linux'",
      "  a = dependency('libsystemd')",
      "elif get_option('kqueue')",
      "  b = dependency('libkqueue')",
      'else',
      "  c = dependency('libinotify')",
      'endif',
    ];
    expect([...foreignPlatformLines(lines, MESON_BLOCKS)]).toEqual([4, 6]);
  });

  it('keeps what a condition it cannot read asks for, nested or not', () => {
    const lines = [
      "if get_option('gui')",
      "  if cc.has_header('windows.h')",
      "    w = cc.find_library('gdi32')",
      '  endif',
      "  gtk = dependency('gtk+-3.0')",
      'endif',
    ];
    expect(foreignPlatformLines(lines, MESON_BLOCKS).size).toBe(0);
  });
});

describe('foreign platform blocks: CMake', () => {
  it('drops find_package and find_library under WIN32, APPLE and CMAKE_SYSTEM_NAME', () => {
    const cmake = file('CMakeLists.txt', [
      'find_package(ZLIB REQUIRED)',
      'if(WIN32)',
      '  find_package(WinSock REQUIRED)',
      'elseif(APPLE)',
      '  find_library(COCOA_LIBRARY Cocoa)',
      'else()',
      '  find_package(X11 REQUIRED)',
      'endif()',
      'if(CMAKE_SYSTEM_NAME STREQUAL "Windows" OR MSVC)',
      '  find_package(DirectX REQUIRED)',
      'endif()',
      'if(NOT WIN32)',
      '  pkg_check_modules(UDEV REQUIRED libudev)',
      'else()',
      '  find_package(Dbghelp REQUIRED)',
      'endif()',
      'if(UNIX AND NOT APPLE)',
      '  find_package(Threads)',
      '  find_package(ALSA REQUIRED)',
      'endif()',
    ]);
    expect(names(cmakeDependencies.extract(cmake))).toEqual([
      'cmake-package:ZLIB',
      'cmake-package:X11',
      'cmake-package:ALSA',
      'pkg-config:libudev',
    ]);
  });

  it('a condition that goes on past its line still opens one block', () => {
    const lines = [
      'if(MSVC OR',
      '   MINGW)',
      '  find_package(Foo REQUIRED)',
      'endif()',
      'find_package(Bar REQUIRED)',
    ];
    // the second line of the condition is not a branch of its own; the block ends at endif()
    expect(foreignPlatformLines(lines, CMAKE_BLOCKS).has(5)).toBe(false);
  });
});
