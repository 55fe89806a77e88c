import { execSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BuildPlan } from '../plan/index.ts';
import { runProcess } from '../process/runProcess.ts';
import type { Sandbox, SandboxRunResult } from '../sandbox/Sandbox.ts';
import { addLibatomic } from './addLibatomic.ts';
import { autoconfMacroPackage } from './autoconfMacroPackage.ts';
import { autoconfWithoutAutoheader } from './autoconfWithoutAutoheader.ts';
import { bootstrapAutotools } from './bootstrapAutotools.ts';
import { disableAutoBuilddir } from './disableAutoBuilddir.ts';
import { disableDocumentation } from './disableDocumentation.ts';
import { disableDownloadingOption, enclosingSwitch } from './disableDownloadingOption.ts';
import { disableExamples } from './disableExamples.ts';
import { disableX86Options } from './disableX86Options.ts';
import { dropUnsupportedCompilerFlags, unsupportedFlags } from './dropUnsupportedCompilerFlags.ts';
import { externErrno } from './externErrno.ts';
import { findBuildElsewhere } from './findBuildElsewhere.ts';
import { recoveryHeuristics } from './index.ts';
import { installMissingPackage } from './installMissingPackage.ts';
import { mcmodelMedany } from './mcmodelMedany.ts';
import { permissiveOldC } from './permissiveOldC.ts';
import { pythonImpShim } from './pythonImpShim.ts';
import type { HeuristicContext } from './RecoveryHeuristic.ts';
import { refreshConfigGuess } from './refreshConfigGuess.ts';
import { runHeuristics } from './runHeuristics.ts';
import { serialMake } from './serialMake.ts';
import { skipDocumentationSubdir } from './skipDocumentationSubdir.ts';

/** Real error output captured from the riscv64 sandbox (fixtures/capture.sh). */
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}.txt`, import.meta.url), 'utf8');

const basePlan: BuildPlan = {
  buildSystem: 'autotools',
  dir: '.',
  phases: [
    { name: 'configure', commands: ['./configure --prefix=/usr'] },
    { name: 'build', commands: ['make -j"$(nproc)"'] },
  ],
  packages: [],
  expectedArtifacts: [],
  origin: 'default',
};

/** What dpkg lists for installed packages (the rest: not installed). */
const FILE_LISTS: Record<string, string[]> = {
  'libncurses-dev': ['/usr/include/curses.h', '/usr/include/ncurses.h'],
  libquickjs: [
    '/usr/include/quickjs',
    '/usr/include/quickjs/quickjs-libc.h',
    '/usr/include/quickjs/quickjs.h',
    '/usr/lib/quickjs',
    '/usr/lib/quickjs/libquickjs.a',
  ],
};

/** What the riscv64 Contents index answers for the fixtures. */
const PROVIDERS: Record<string, string> = {
  'header:curses.h': 'libncurses-dev',
  'header:quickjs-libc.h': 'libquickjs',
  'library:quickjs': 'libquickjs',
  'library:ncurses': 'libncurses-dev',
  'pkgconfig:ogg': 'libogg-dev',
  'pkgconfig:gtk+-2.0': 'libgtk2.0-dev',
  'command:help2man': 'help2man',
  'command:makeinfo': 'texinfo',
};

let workspace: string;
let installed: string[][];
beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'rvport-heur-'));
  mkdirSync(join(workspace, 'src'), { recursive: true });
  installed = [];
});
afterEach(() => rmSync(workspace, { recursive: true, force: true }));

function ok(): SandboxRunResult {
  return {
    exitCode: 0,
    stdout: '',
    stderr: '',
    truncated: false,
    stdoutBytes: 0,
    stderrBytes: 0,
    durationMs: 1,
    timedOut: false,
    aborted: false,
    commandNotFound: false,
  };
}

function context(
  output: string,
  overrides: Partial<HeuristicContext['failure']> = {},
  plan = basePlan,
): HeuristicContext {
  const sandbox = {
    workspace,
    installPackages: async (packages: readonly string[]) => {
      installed.push([...packages]);
      return ok();
    },
    // dpkg-query -L PACKAGE: the package's files, as dpkg lists them
    run: async (command: readonly string[]) => {
      const files = FILE_LISTS[command[2] ?? ''];
      return files ? { ...ok(), stdout: files.join('\n') } : { ...ok(), exitCode: 1 };
    },
  } as unknown as Sandbox;
  return {
    failure: {
      phase: 'build',
      command: 'make -j"$(nproc)"',
      output,
      exitCode: 2,
      timedOut: false,
      ...overrides,
    },
    plan,
    source: { spec: '/tmp/demo' },
    patches: [],
    analysis: null,
    sandbox,
    srcDir: '/build/src',
    findPackage: async (kind, name) => PROVIDERS[`${kind}:${name}`] ?? null,
    log: () => {},
  };
}

const src = (rel: string, text = '') => {
  const file = join(workspace, 'src', rel);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
};

describe('install-missing-package', () => {
  it.each([
    ['missing-header', 'header:curses.h', 'libncurses-dev'],
    ['missing-library', 'library:ncurses', 'libncurses-dev'],
    ['missing-pkgconfig', 'pkgconfig:ogg', 'libogg-dev'],
    ['missing-command', 'command:help2man', 'help2man'],
    ['automake-missing-help2man', 'command:help2man', 'help2man'],
    // apwal's Makefile runs `pkg-config --cflags gtk+-2.0`, then its compile misses gtk/gtk.h:
    // the module is what to install, not a package with some gtk/gtk.h
    ['pkg-config-then-header', 'pkgconfig:gtk+-2.0', 'libgtk2.0-dev'],
  ])('reads %s and installs the package that provides it', async (name, key, pkg) => {
    const ctx = context(fixture(name));
    expect((await installMissingPackage.match(ctx))?.key).toBe(key);
    const outcome = await installMissingPackage.apply(ctx, { key, reason: '' });
    expect(outcome).toMatchObject({ applied: true, plan: { packages: [pkg] } });
    expect(installed).toEqual([[pkg]]);
  });

  it('installs every program a parallel make found missing at once, beside the first', async () => {
    // flex's doc/ from a git checkout: help2man and makeinfo fail in the same make -j
    const output = [
      '../build-aux/missing: 85: help2man: not found',
      "WARNING: 'help2man' is missing on your system.",
      'make[1]: *** [Makefile:913: flex.1] Error 127',
      '/build/src/build-aux/missing: line 85: makeinfo: command not found',
      "WARNING: 'makeinfo' is missing on your system.",
      'make[1]: *** [Makefile:441: flex.info] Error 127',
    ].join('\n');
    const ctx = context(output);
    const match = await installMissingPackage.match(ctx);
    expect(match?.key).toBe('command:help2man');
    const outcome = await installMissingPackage.apply(ctx, match ?? { key: '', reason: '' });
    expect(outcome).toMatchObject({
      applied: true,
      description:
        'installed help2man (provides the command help2man), texinfo (provides the command makeinfo)',
      plan: { packages: ['help2man', 'texinfo'] },
    });
    expect(installed).toEqual([['help2man', 'texinfo']]);
    // one already in the plan is not installed again
    installed = [];
    await installMissingPackage.apply(
      context(output, {}, { ...basePlan, packages: ['texinfo'] }),
      match ?? { key: '', reason: '' },
    );
    expect(installed).toEqual([['help2man']]);
    // a first program no package provides does not keep the others out
    installed = [];
    const unknownFirst = context(`sh: 1: nosuchtool: not found\n${output}`);
    expect(
      await installMissingPackage.apply(unknownFirst, { key: 'command:nosuchtool', reason: '' }),
    ).toMatchObject({
      applied: true,
      description:
        'no Debian package provides the command nosuchtool; installed help2man (provides the command help2man), texinfo (provides the command makeinfo)',
    });
  });

  it("puts a header's own folder on CPATH when the build names the header without it", async () => {
    const output = 'jseng-quick.c:18:10: fatal error: quickjs-libc.h: No such file or directory\n';
    const ctx = context(output, {}, { ...basePlan, env: { CPATH: '/opt/x' } });
    const match = await installMissingPackage.match(ctx);
    expect(match?.key).toBe('header:quickjs-libc.h');
    const outcome = await installMissingPackage.apply(ctx, match ?? { key: '', reason: '' });
    expect(outcome).toMatchObject({
      applied: true,
      description:
        'installed libquickjs (provides the header quickjs-libc.h in /usr/include/quickjs, added to CPATH)',
      plan: { packages: ['libquickjs'], env: { CPATH: '/opt/x:/usr/include/quickjs' } },
    });
    // a header where the compiler looks already changes no search path
    const curses = await installMissingPackage.apply(context(''), { key: 'header:curses.h', reason: '' });
    expect(curses.plan?.env?.CPATH).toBeUndefined();
  });

  it("puts the header's folder on CPATH when the plan installs its package already", async () => {
    // edbrowse: libquickjs is a Build-Depends, installed before the build, and the build still
    // cannot find quickjs-libc.h, which the package keeps in /usr/include/quickjs
    const output = 'jseng-quick.c:18:10: fatal error: quickjs-libc.h: No such file or directory\n';
    const plan = { ...basePlan, packages: ['libquickjs'] };
    const outcome = await installMissingPackage.apply(context(output, {}, plan), {
      key: 'header:quickjs-libc.h',
      reason: '',
    });
    expect(outcome).toMatchObject({
      applied: true,
      description:
        'libquickjs is installed and keeps the header quickjs-libc.h in /usr/include/quickjs: added to CPATH',
      plan: { packages: ['libquickjs'], env: { CPATH: '/usr/include/quickjs' } },
    });
    expect(installed).toEqual([]);
    // once the folder is searched, the same failure is not this heuristic's to mend again
    const again = await installMissingPackage.apply(context(output, {}, outcome.plan ?? plan), {
      key: 'header:quickjs-libc.h',
      reason: '',
    });
    expect(again).toMatchObject({ applied: false });
    // then the link: the same package keeps libquickjs.a in /usr/lib/quickjs
    const link = await installMissingPackage.apply(
      context('/usr/bin/ld: cannot find -lquickjs: No such file or directory\n', {}, outcome.plan ?? plan),
      { key: 'library:quickjs', reason: '' },
    );
    expect(link).toMatchObject({
      applied: true,
      description:
        'libquickjs is installed and keeps the library quickjs in /usr/lib/quickjs: added to LDFLAGS',
      plan: { env: { CPATH: '/usr/include/quickjs', LDFLAGS: '-L/usr/lib/quickjs' } },
    });
  });

  it('gives up when no package provides it, or the package did not help', async () => {
    const none = await installMissingPackage.apply(context(''), { key: 'header:nowhere.h', reason: '' });
    expect(none).toMatchObject({
      applied: false,
      description: 'no Debian package provides the header nowhere.h',
    });
    const again = await installMissingPackage.apply(
      context('', {}, { ...basePlan, packages: ['libncurses-dev'] }),
      {
        key: 'header:curses.h',
        reason: '',
      },
    );
    expect(again.applied).toBe(false);
  });
});

describe('refresh-config-guess', () => {
  it('replaces every config.guess/config.sub when the old one cannot guess riscv64', async () => {
    src('build-aux/config.guess');
    src('build-aux/config.sub');
    src('libltdl/config/config.guess');
    const ctx = context(fixture('config-guess-old'), { phase: 'configure', command: './configure' });
    expect(await refreshConfigGuess.match(ctx)).not.toBeNull();
    const outcome = await refreshConfigGuess.apply(ctx, { key: 'tree', reason: '' });
    expect(outcome.plan?.phases[0]).toEqual({
      name: 'prepare',
      commands: [
        'cp /usr/share/misc/config.guess "$RVPORT_SRC/build-aux/config.guess"',
        'cp /usr/share/misc/config.sub "$RVPORT_SRC/build-aux/config.sub"',
        'cp /usr/share/misc/config.guess "$RVPORT_SRC/libltdl/config/config.guess"',
      ],
    });
  });
});

describe('bootstrap-autotools', () => {
  it('adds a bootstrap phase before configure when configure.ac is there', async () => {
    src('configure.ac');
    const ctx = context(fixture('configure-missing'), {
      phase: 'configure',
      command: './configure --prefix=/usr',
    });
    expect(await bootstrapAutotools.match(ctx)).not.toBeNull();
    const outcome = await bootstrapAutotools.apply(ctx, { key: '.', reason: '' });
    expect(outcome.plan?.phases.map((p) => p.name)).toEqual(['bootstrap', 'configure', 'build']);
    expect(outcome.plan?.phases[0]?.commands).toEqual(['autoreconf -fi']);
  });

  it("prefers the project's autogen.sh, and does nothing without configure.ac", async () => {
    expect(await bootstrapAutotools.match(context(fixture('configure-missing')))).toBeNull();
    src('configure.ac');
    src('autogen.sh');
    const outcome = await bootstrapAutotools.apply(context(fixture('configure-missing')), {
      key: '.',
      reason: '',
    });
    expect(outcome.plan?.phases[0]?.commands).toEqual(['NOCONFIGURE=1 sh ./autogen.sh']);
  });
});

describe('install-autoconf-macros', () => {
  it('installs libltdl-dev for LT_SYS_SYMBOL_USCORE', async () => {
    const ctx = context(fixture('autoreconf-undefined-macro'), {
      phase: 'bootstrap',
      command: 'autoreconf -fi',
    });
    const match = await autoconfMacroPackage.match(ctx);
    expect(match?.key).toBe('libltdl-dev');
    expect(
      (await autoconfMacroPackage.apply(ctx, match as NonNullable<typeof match>)).plan?.packages,
    ).toEqual(['libltdl-dev']);
  });
});

describe('autoconf-without-autoheader', () => {
  it('generates configure with autoconf alone when autoheader fails on a shipped config.h.in (arj)', async () => {
    const plan: BuildPlan = {
      ...basePlan,
      dir: 'gnu',
      phases: [{ name: 'bootstrap', commands: ['autoreconf -fi'] }, ...basePlan.phases],
    };
    const ctx = context(
      fixture('autoheader-missing-template'),
      { phase: 'bootstrap', command: 'autoreconf -fi' },
      plan,
    );
    expect(await autoconfWithoutAutoheader.match(ctx)).toBeNull(); // no config.h.in yet
    src('gnu/config.h.in');
    const match = await autoconfWithoutAutoheader.match(ctx);
    expect(match?.key).toBe('gnu');
    const outcome = await autoconfWithoutAutoheader.apply(ctx, match as NonNullable<typeof match>);
    expect(outcome.plan?.phases[0]).toEqual({ name: 'bootstrap', commands: ['autoconf'] });
  });
});

describe('drop-unsupported-compiler-flag', () => {
  it('removes -fforce-mem (and -fforce-addr) from the build files', async () => {
    const ctx = context(fixture('obsolete-gcc-flag'));
    const match = await dropUnsupportedCompilerFlags.match(ctx);
    expect(match?.key).toBe('-fforce-mem');
    const outcome = await dropUnsupportedCompilerFlags.apply(ctx, match as NonNullable<typeof match>);
    expect(outcome.plan?.phases[0]?.name).toBe('prepare');
    expect(outcome.commands).toHaveLength(2);
    expect(outcome.commands[1]).toContain('-fforce-addr');
  });

  it('replaces -march=native with the riscv64 baseline', async () => {
    const ctx = context(fixture('march-native'));
    const match = await dropUnsupportedCompilerFlags.match(ctx);
    expect(match?.key).toBe('-march=native');
    const outcome = await dropUnsupportedCompilerFlags.apply(ctx, match as NonNullable<typeof match>);
    expect(outcome.commands[0]).toContain('s/-march=native/-march=rv64gc/g');
  });

  it('removes every flag one failed build names: an x86 -march a configure chose, its -mtune, -m64', async () => {
    const ctx = context(fixture('x86-march-from-configure'));
    const match = await dropUnsupportedCompilerFlags.match(ctx);
    expect(match?.key).toBe('-march=i386 -mtune=i686 -m64');
    const outcome = await dropUnsupportedCompilerFlags.apply(ctx, match as NonNullable<typeof match>);
    expect(outcome.commands).toHaveLength(3);
    expect(outcome.commands[0]).toContain('s/-march=i386//g');
    // before configure, and again after it, where a flag configure substituted (-m$ARCH_BITS) is
    expect(outcome.plan?.phases.find((p) => p.name === 'prepare')?.commands).toEqual(outcome.commands);
    expect(outcome.plan?.phases.find((p) => p.name === 'build')?.commands.slice(0, 3)).toEqual(
      outcome.commands,
    );
    expect(outcome.description).toBe('removed -march=i386, -mtune=i686, -m64 in the build files');
    expect(unsupportedFlags("cc1: error: unknown cpu 'pentium4' for '-mtune'")).toEqual(['-mtune=pentium4']);
  });

  it('removes an x86 -m flag', async () => {
    expect((await dropUnsupportedCompilerFlags.match(context(fixture('x86-flag'))))?.key).toBe('-msse2');
  });
});

describe('disable-x86-options', () => {
  it('configures with the off switches the configure script offers', async () => {
    src('configure', '#!/bin/sh\n  --disable-asm   do not use assembly\n  --disable-sse   no SSE\n');
    const ctx = context(fixture('x86-flag'));
    const match = await disableX86Options.match(ctx);
    expect(match?.key).toBe('--disable-asm --disable-sse');
    const outcome = await disableX86Options.apply(ctx, match as NonNullable<typeof match>);
    expect(outcome.plan?.phases[0]?.commands).toEqual([
      './configure --prefix=/usr --disable-asm --disable-sse',
    ]);
  });

  it('leaves a build without such switches to the flag remover', async () => {
    src('configure', '#!/bin/sh\n');
    expect(await disableX86Options.match(context(fixture('x86-flag')))).toBeNull();
  });
});

describe('disable-documentation', () => {
  it('configures without the documentation that cannot be built (libtheora)', async () => {
    src('configure', '#!/bin/sh\n  --disable-spec          do not build spec\n  --disable-examples\n');
    const ctx = context(fixture('doc-target-missing'));
    const match = await disableDocumentation.match(ctx);
    expect(match?.key).toBe('--disable-spec');
    const outcome = await disableDocumentation.apply(ctx, match as NonNullable<typeof match>);
    expect(outcome.plan?.phases[0]?.commands).toEqual(['./configure --prefix=/usr --disable-spec']);
  });

  it('leaves failures outside the documentation alone', async () => {
    src('configure', '#!/bin/sh\n  --disable-doc\n');
    expect(await disableDocumentation.match(context(fixture('missing-header')))).toBeNull();
  });
});

describe('retry-with-one-job for a generated header', () => {
  it("runs arj's parallel make again with one job when a header no package provides is missing", async () => {
    const output =
      'cc -c -o linux-gnu/en/rs/arj/arj.o arj.c\narj.c:12:10: fatal error: msg_arj.h: No such file or directory\ncompilation terminated.\nmake[1]: *** [GNUmakefile:132: linux-gnu/en/rs/arj/arj.o] Error 1\n';
    const ctx = context(output, { command: 'make -C "$RVPORT_SRC" -j"$(nproc)"' });
    // The package heuristic matches first and cannot act (no Debian package has msg_arj.h) ...
    const first = await runHeuristics(recoveryHeuristics, ctx, {});
    expect(first).toMatchObject({ heuristic: 'install-missing-package', outcome: { applied: false } });
    // ... then the one-job retry gets its turn.
    const second = await runHeuristics(recoveryHeuristics, ctx, { [first?.key ?? '']: 1 });
    expect(second).toMatchObject({ heuristic: 'retry-with-one-job', outcome: { applied: true } });
  });

  it('does not retry a command that already ran with one job', async () => {
    for (const command of ['make -j1', 'make -j 1', 'ninja --jobs=1'])
      expect(
        await serialMake.match(context('make: *** [x] Killed signal terminated program', { command })),
        command,
      ).toBeNull();
    expect(
      await serialMake.match(context('Killed signal terminated program', { command: 'make -j4' })),
    ).not.toBeNull();
  });
});

describe('mcmodel-medany', () => {
  it('compiles with -mcmodel=medany when the code outgrew medlow, keeping flags already set', async () => {
    const ctx = context(
      fixture('relocation-truncated'),
      {},
      { ...basePlan, env: { CFLAGS: '-g -O2 -fpermissive' } },
    );
    const match = await mcmodelMedany.match(ctx);
    expect(match?.key).toBe('mcmodel-medany');
    const outcome = await mcmodelMedany.apply(ctx, match as NonNullable<typeof match>);
    expect(outcome.plan?.env).toMatchObject({
      CFLAGS: '-g -O2 -fpermissive -mcmodel=medany',
      CXXFLAGS: '-g -O2 -mcmodel=medany',
    });
  });

  it('does not fire when only the start files are out of reach', async () => {
    const onlyCrt = fixture('relocation-truncated')
      .split('\n')
      .filter((l) => !l.startsWith('m.c:'))
      .join('\n');
    expect(await mcmodelMedany.match(context(onlyCrt))).toBeNull();
  });
});

describe('disable-downloading-option', () => {
  const cmakePlan: BuildPlan = {
    ...basePlan,
    buildSystem: 'cmake',
    phases: [
      {
        name: 'configure',
        commands: ['cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr'],
      },
      { name: 'build', commands: ['cmake --build build'] },
    ],
  };
  const CMAKE =
    'cmake_minimum_required(VERSION 3.14)\nproject(demo C CXX)\noption(DEMO_BUILD_TESTS "Build the tests" ON)\nadd_library(demo demo.c)\nif(DEMO_BUILD_TESTS)\n  include(FetchContent)\n  FetchContent_Declare(googletest URL https://downloads.example.invalid/googletest-1.14.0.zip)\n  FetchContent_MakeAvailable(googletest)\nendif()\n';

  it('configures without the tests whose googletest download fails (captured from the sandbox)', async () => {
    src('CMakeLists.txt', CMAKE);
    const ctx = context(fixture('cmake-fetchcontent'), {}, cmakePlan);
    const match = await disableDownloadingOption.match(ctx);
    expect(match?.key).toBe('DEMO_BUILD_TESTS');
    const outcome = await disableDownloadingOption.apply(ctx, match as NonNullable<typeof match>);
    expect(outcome.plan?.phases[0]?.commands[0]).toMatch(
      /-DCMAKE_INSTALL_PREFIX=\/usr -DDEMO_BUILD_TESTS=OFF$/,
    );
    expect(outcome.plan?.phases[1]?.commands[0]).toBe('cmake --build build');
  });

  it('leaves an unconditional download alone: nothing optional to turn off', async () => {
    src('CMakeLists.txt', CMAKE.replace('if(DEMO_BUILD_TESTS)', 'if(TRUE)'));
    expect(
      await disableDownloadingOption.match(context(fixture('cmake-fetchcontent'), {}, cmakePlan)),
    ).toBeNull();
  });

  it('finds the innermost plain switch around a line', () => {
    const text = 'if(BUILD_TESTING)\n  if(WIN32)\n  endif()\n  if(NOT X)\n    fetch()\n  endif()\nendif()\n';
    expect(enclosingSwitch(text, 5)).toBe('BUILD_TESTING');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: CMake's own ${VAR} syntax
    expect(enclosingSwitch('if(${WITH_BENCH})\nfetch()\n', 2)).toBe('WITH_BENCH');
    expect(enclosingSwitch('fetch()\n', 1)).toBeNull();
  });
});

describe('disable-examples', () => {
  it('configures libtheora without the example programs that no longer build', async () => {
    src('configure', '#!/bin/sh\n  --disable-spec\n  --disable-examples      Disable examples\n');
    const ctx = context(fixture('examples-link-failure'));
    const match = await disableExamples.match(ctx);
    expect(match?.key).toBe('--disable-examples');
    const outcome = await disableExamples.apply(ctx, match as NonNullable<typeof match>);
    expect(outcome.plan?.phases[0]?.commands).toEqual(['./configure --prefix=/usr --disable-examples']);
  });

  it('leaves failures outside example folders, and configures without the switch, alone', async () => {
    src('configure', '#!/bin/sh\n  --disable-examples\n');
    expect(await disableExamples.match(context(fixture('doc-target-missing')))).toBeNull();
    src('configure', '#!/bin/sh\n');
    expect(await disableExamples.match(context(fixture('examples-link-failure')))).toBeNull();
  });
});

describe('skip-documentation-subdir', () => {
  it("leaves libtheora's doc folder out of SUBDIRS when its inputs are not in the release", async () => {
    src('Makefile.in', 'AUTOMAKE_OPTIONS = foreign\nSUBDIRS = lib include doc tests m4 $(EXAMPLES_DIR)\n');
    const ctx = context(fixture('doc-target-missing'));
    const match = await skipDocumentationSubdir.match(ctx);
    expect(match?.key).toBe('doc');
    const outcome = await skipDocumentationSubdir.apply(ctx, match as NonNullable<typeof match>);
    const sed = outcome.plan?.phases[0];
    expect(sed?.name).toBe('prepare');
    // The command really edits a Makefile.in as intended (run here with the host's sed).
    const file = join(workspace, 'src', 'Makefile.in');
    const command = sed?.commands[0]?.replace('$RVPORT_SRC', join(workspace, 'src')) ?? '';
    execSync(command, { shell: '/bin/sh' });
    // make splits SUBDIRS on any whitespace: the space left behind changes nothing
    expect(readFileSync(file, 'utf8').replace(/ +/g, ' ')).toContain(
      'SUBDIRS = lib include tests m4 $(EXAMPLES_DIR)\n',
    );
  });

  it('needs the folder to be a word of its parent SUBDIRS', async () => {
    src('Makefile.in', 'SUBDIRS = lib docstrings\n');
    expect(await skipDocumentationSubdir.match(context(fixture('doc-target-missing')))).toBeNull();
    src('Makefile.in', 'SUBDIRS = lib doc\n');
    expect(await skipDocumentationSubdir.match(context(fixture('missing-header')))).toBeNull();
  });
});

describe('disable-auto-builddir', () => {
  it("configures libffi in the tree when AX_ENABLE_BUILDDIR's wrapper fails", async () => {
    const ctx = context(fixture('builddir-all-configured'));
    expect(await disableAutoBuilddir.match(ctx)).toBeNull(); // configure does not offer the switch
    src('configure', '#!/bin/sh\n  --disable-builddir      disable automatic build in subdir of sources\n');
    const match = await disableAutoBuilddir.match(ctx);
    expect(match?.key).toBe('--disable-builddir');
    const outcome = await disableAutoBuilddir.apply(ctx, match as NonNullable<typeof match>);
    expect(outcome.plan?.phases[0]?.commands).toEqual(['./configure --prefix=/usr --disable-builddir']);
  });
});

describe('python-imp-shim', () => {
  it('writes an imp module beside the script that imports it, never a PYTHONPATH', async () => {
    // jackd2's bundled waf under Python 3.13 (trimmed traceback of a real port)
    const ctx = context(fixture('waf-imp'), { command: 'python3 ./waf configure --prefix=/usr' });
    expect(await pythonImpShim.match(ctx)).not.toBeNull();
    const outcome = await pythonImpShim.apply(ctx, { key: 'imp', reason: '' });
    expect(outcome.plan?.env?.PYTHONPATH).toBeUndefined();
    expect(outcome.commands[0]).toContain('def new_module(name):');
    expect(outcome.commands[0]).toMatch(/^\[ -e "\$RVPORT_SRC\/imp\.py" \] \|\| printf/);
    expect(outcome.plan?.phases[0]).toEqual({ name: 'prepare', commands: outcome.commands });
  });

  it("takes the plan's folder when the traceback names no script in the tree", async () => {
    const ctx = context(fixture('python-imp'), {}, { ...basePlan, dir: 'tools/build' });
    const outcome = await pythonImpShim.apply(ctx, { key: 'imp', reason: '' });
    expect(outcome.commands[0]).toContain('"$RVPORT_SRC/tools/build/imp.py"');
  });
});

describe('link-libatomic', () => {
  it('links libatomic when __atomic_* calls are undefined', async () => {
    const ctx = context(fixture('atomic-16'));
    expect((await addLibatomic.match(ctx))?.reason).toMatch(/__atomic_load_16/);
    const outcome = await addLibatomic.apply(ctx, { key: 'libatomic', reason: '' });
    expect(outcome.plan?.env).toEqual({ LDFLAGS: '-latomic', LIBS: '-latomic' });
  });
});

describe('permissive-old-c', () => {
  it('builds old C with -fpermissive when GCC 14 rejects an implicit declaration (arj)', async () => {
    const ctx = context(fixture('gcc14-implicit-declaration'));
    expect((await permissiveOldC.match(ctx))?.reason).toMatch(/implicit declaration of function ‘fcloseall’/);
    expect((await permissiveOldC.apply(ctx, { key: 'cflags', reason: '' })).plan?.env).toEqual({
      CFLAGS: '-g -O2 -fpermissive',
    });
  });

  it("puts -fpermissive on conf-cc's compile line too, where a djb-style build takes its compiler", async () => {
    src('conf-cc', 'cc -O2\n\nThis will be used to compile .c files.\n');
    const outcome = await permissiveOldC.apply(context(fixture('gcc14-implicit-declaration')), {
      key: 'cflags',
      reason: '',
    });
    expect(outcome.plan?.env).toEqual({ CFLAGS: '-g -O2 -fpermissive' });
    const prepare = outcome.plan?.phases.find((p) => p.name === 'prepare')?.commands ?? [];
    expect(prepare).toEqual(outcome.commands);
    // run twice in the tree, as a rebuild from scratch does: the flag is on the first line once
    for (let i = 0; i < 2; i++) {
      const r = await runProcess({
        command: ['/bin/sh', '-c', prepare[0] as string],
        cwd: join(workspace, 'src'),
      });
      expect(r.exitCode, r.stderr).toBe(0);
    }
    expect(readFileSync(join(workspace, 'src', 'conf-cc'), 'utf8')).toBe(
      'cc -O2 -fpermissive\n\nThis will be used to compile .c files.\n',
    );
  });

  it('leaves ordinary compile errors to others', async () => {
    expect(
      await permissiveOldC.match(context("foo.c:12:5: error: 'bar' undeclared (first use in this function)")),
    ).toBeNull();
  });
});

describe('extern-errno', () => {
  it('includes errno.h first when a unit declares errno itself (the TLS mismatch at link), in conf-cc too', async () => {
    const ctx = context(fixture('extern-errno-tls'));
    expect((await externErrno.match(ctx))?.reason).toMatch(
      /^a unit declares errno itself: errno: TLS definition/,
    );
    const plain = await externErrno.apply(ctx, { key: 'errno', reason: '' });
    expect(plain.plan?.env).toEqual({ CFLAGS: '-g -O2 -include errno.h' });
    expect(plain.commands).toEqual([]);
    src('conf-cc', 'gcc -O2 -fpermissive\n');
    const djb = await externErrno.apply(ctx, { key: 'errno', reason: '' });
    const r = await runProcess({
      command: ['/bin/sh', '-c', djb.commands[0] as string],
      cwd: join(workspace, 'src'),
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readFileSync(join(workspace, 'src', 'conf-cc'), 'utf8')).toBe(
      'gcc -O2 -fpermissive -include errno.h\n',
    );
    expect(await externErrno.match(context(fixture('gcc14-implicit-declaration')))).toBeNull();
  });
});

describe('find-the-build', () => {
  it('configures CMake first when make finds no makefile next to a CMakeLists.txt', async () => {
    src('CMakeLists.txt');
    const ctx = context(fixture('no-makefile'));
    const match = await findBuildElsewhere.match(ctx);
    expect(match?.key).toBe('cmake:.');
    const outcome = await findBuildElsewhere.apply(ctx, match as NonNullable<typeof match>);
    expect(outcome.plan?.buildSystem).toBe('cmake');
  });

  it('runs make where configure wrote the makefile, above the configure folder (arj)', async () => {
    src('gnu/configure');
    src('GNUmakefile');
    const plan: BuildPlan = { ...basePlan, dir: 'gnu' };
    const match = await findBuildElsewhere.match(context(fixture('no-makefile'), {}, plan));
    expect(match?.key).toBe('up:.');
    const outcome = await findBuildElsewhere.apply(context('', {}, plan), match as NonNullable<typeof match>);
    expect(outcome.plan?.phases.map((p) => p.commands[0])).toEqual([
      './configure --prefix=/usr',
      'make -C "$RVPORT_SRC" -j"$(nproc)"',
    ]);
  });

  it('moves into the subfolder that has the makefile', async () => {
    src('gnu/makefile');
    const match = await findBuildElsewhere.match(context(fixture('no-makefile')));
    expect(match?.key).toBe('dir:gnu');
    expect((await findBuildElsewhere.apply(context(''), match as NonNullable<typeof match>)).plan?.dir).toBe(
      'gnu',
    );
  });
});

describe('retry-with-one-job', () => {
  it('runs a parallel build killed for memory again with one job', async () => {
    const ctx = context(
      'cc1: fatal error: Killed signal terminated program cc1\nmake: *** [Makefile:9: x.o] Error 1',
    );
    const match = await serialMake.match(ctx);
    const outcome = await serialMake.apply(ctx, match as NonNullable<typeof match>);
    expect(outcome.plan?.phases[1]?.commands).toEqual(['make -j1']);
  });

  it('retries a parallel build that raced its own output folder (arj)', async () => {
    const ctx = context(fixture('parallel-race'), { command: 'make -C "$RVPORT_SRC" -j"$(nproc)"' });
    expect((await serialMake.match(ctx))?.reason).toMatch(/raced/);
  });

  it('leaves other failures alone: a missing tool is not a race', async () => {
    expect(await serialMake.match(context(fixture('automake-missing-help2man')))).toBeNull();
  });

  it('ignores a serial command', async () => {
    expect(await serialMake.match(context('Killed', { command: 'make' }))).toBeNull();
  });
});

describe('the registry', () => {
  it('offers each fixture to the right heuristic first', async () => {
    src('configure.ac');
    src('configure', '#!/bin/sh\n  --disable-spec\n');
    const cases: Array<[string, string]> = [
      ['missing-header', 'install-missing-package'],
      ['config-guess-old', 'refresh-config-guess'],
      ['configure-missing', 'bootstrap-autotools'],
      ['autoreconf-undefined-macro', 'install-autoconf-macros'],
      ['obsolete-gcc-flag', 'drop-unsupported-compiler-flag'],
      ['python-imp', 'python-imp-shim'],
      ['atomic-16', 'link-libatomic'],
      ['doc-target-missing', 'disable-documentation'],
      ['gcc14-implicit-declaration', 'permissive-old-c'],
      ['relocation-truncated', 'mcmodel-medany'],
      ['cmake-could-not-find', 'cmake-missing-package'],
      ['cmake-program-not-found', 'cmake-missing-package'],
      ['meson-dependency-not-found', 'meson-missing-dependency'],
      ['meson-program-not-found', 'meson-missing-dependency'],
      ['configure-library-not-found', 'configure-missing-dependency'],
      ['tool-must-be-in-path', 'missing-build-tool'],
      ['x86-march-from-configure', 'drop-unsupported-compiler-flag'],
      ['extern-errno-tls', 'extern-errno'],
      ['cargo-version-not-in-registry', 'crate-version-from-debian'],
      ['autotools-aux-files', 'autotools-aux-files'],
      ['automake-required-file', 'autotools-aux-files'],
      ['python-module-missing', 'python-module-package'],
      ['cxx-standard-too-old', 'raise-cxx-standard'],
    ];
    for (const [name, heuristic] of cases) {
      src('build-aux/config.guess');
      const firing = await runHeuristics(recoveryHeuristics, context(fixture(name)), {});
      expect(firing?.heuristic, name).toBe(heuristic);
    }
  });
});

describe('heuristics read the build tree only', () => {
  /** The same inputs the repairs above act on, as links the build planted to files on the host. */
  const hostLink = (rel: string, text: string) => {
    const host = join(workspace, 'host', rel.replace(/\//g, '_'));
    mkdirSync(join(workspace, 'host'), { recursive: true });
    writeFileSync(host, text);
    mkdirSync(join(workspace, 'src', rel, '..'), { recursive: true });
    symlinkSync(host, join(workspace, 'src', rel));
  };

  it('ignores a configure, CMakeLists.txt or Makefile.in that links out of the tree', async () => {
    hostLink('configure', '#!/bin/sh\n  --disable-spec\n  --disable-examples\n');
    hostLink('CMakeLists.txt', 'if(DEMO_BUILD_TESTS)\n  FetchContent_MakeAvailable(googletest)\nendif()\n');
    hostLink('Makefile.in', 'SUBDIRS = lib include doc tests\n');
    hostLink('configure.ac', 'AC_INIT([x])\n');
    hostLink('conf-cc', 'cc -O2\n');
    expect(await disableDocumentation.match(context(fixture('doc-target-missing')))).toBeNull();
    // a conf-cc that links out of the tree is not the build's: nothing is written into it
    expect(
      (
        await permissiveOldC.apply(context(fixture('gcc14-implicit-declaration')), {
          key: 'cflags',
          reason: '',
        })
      ).commands,
    ).toEqual([]);
    expect(await disableExamples.match(context(fixture('examples-link-failure')))).toBeNull();
    expect(await skipDocumentationSubdir.match(context(fixture('doc-target-missing')))).toBeNull();
    expect(await bootstrapAutotools.match(context('./configure: not found'))).toBeNull();
  });

  it('does not look for config.guess or a makefile through a folder link', async () => {
    mkdirSync(join(workspace, 'outside', 'sub'), { recursive: true });
    writeFileSync(join(workspace, 'outside', 'config.guess'), '#!/bin/sh\n');
    writeFileSync(join(workspace, 'outside', 'sub', 'Makefile'), 'all:\n');
    symlinkSync('../outside', join(workspace, 'src', 'linked'));
    const unknown = context('configure: error: cannot guess build type; you must specify one');
    expect(await refreshConfigGuess.apply(unknown, { key: 'tree', reason: '' })).toMatchObject({
      applied: false,
    });
    const noMakefile = context('make: *** No targets specified and no makefile found.  Stop.');
    expect(await findBuildElsewhere.match(noMakefile)).toBeNull();
    expect(
      await findBuildElsewhere.match({ ...noMakefile, plan: { ...basePlan, dir: 'linked' } }),
    ).toBeNull();
  });
});
