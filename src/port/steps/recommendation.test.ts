import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Dependency } from '../../analysis/dependencies/Dependency.ts';
import { makeError } from '../graph/nodes/recordError.ts';
import type { FixAttempt } from '../state/PortState.ts';
import { portState } from '../testing/portStateFixture.ts';
import { recommendation } from './recommendation.ts';

/** Real outputs of failing builds (port fixtures and heuristic fixtures). */
const output = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
const built = (path: string) => makeError({ node: 'build', output: output(path) });

const heuristic = (description: string): FixAttempt => ({
  at: '2026-01-01T00:00:00.000Z',
  attempt: 1,
  source: 'heuristic',
  name: 'install-missing-package',
  description,
  outcome: description.startsWith('installed') ? 'applied' : 'failed',
});

const dependency = (kind: Dependency['kind'], name: string, pkg: string): Dependency => ({
  kind,
  name,
  file: 'configure.ac',
  line: 1,
  required: false,
  debianPackages: [pkg],
  resolvedBy: 'contents',
});

describe('recommendation (escalation.md)', () => {
  it('names the missing header and says no Debian package has it when the repair found none', () => {
    const state = portState({
      errors: [built('../fixtures/missing-header-then-warning-zstd.txt')],
      fixAttempts: [heuristic('no Debian package provides the header zstd.h')],
    });
    expect(recommendation(state)).toMatch(
      /^The build needs the header zstd\.h, and no riscv64 Debian package provides it\. .*turn off the part that needs it/,
    );
  });

  it("points at Debian's packaging when a debian: source came without its debian.tar", () => {
    const state = portState({
      errors: [built('../fixtures/missing-header-then-warning-zstd.txt')],
      fixAttempts: [heuristic('no Debian package provides the header zstd.h')],
    });
    state.debian = {
      buildDepends: [['libexpat1-dev'], ['libgtk-3-dev']],
      installed: ['libexpat1-dev', 'libgtk-3-dev'],
      leftOut: [],
      patchesApplied: [],
      patchesSkipped: [],
      hint: { package: 'rfdump', version: '1.6-9.1', via: 'the Sources index' },
    };
    const text = recommendation(state);
    expect(text).toContain(
      "Debian's own build of rfdump 1.6-9.1 installs nothing that provides it (its Build-Depends: libexpat1-dev, libgtk-3-dev)",
    );
    expect(text).toMatch(/debian\.tar was not on the mirror.*Otherwise, build it for riscv64 first/);
    // a source with its packaging at hand, or not from Debian, gets the plain advice
    state.debian.hint = undefined;
    expect(recommendation(state)).not.toContain("Debian's own build");
    // a compile error of such a source: Debian's patches may be the answer
    const compiled = portState({
      errors: [{ ...built('../fixtures/missing-header-then-warning-zstd.txt'), category: 'COMPILATION' }],
    });
    compiled.debian = { ...state.debian, hint: { package: 'mod-x', version: '1.1-16', via: 'its name' } };
    expect(recommendation(compiled)).toMatch(
      /Debian builds mod-x 1\.1-16 from this source with its packaging, whose debian\.tar was not on the mirror: its patches/,
    );
  });

  it("names the build steps Debian's debian/rules replaces, for a build error only", () => {
    const state = portState({
      errors: [built('../fixtures/missing-header-then-warning-zstd.txt')],
      fixAttempts: [heuristic('no Debian package provides the header zstd.h')],
    });
    state.debian = {
      buildDepends: [],
      installed: [],
      leftOut: [],
      patchesApplied: [],
      patchesSkipped: [],
      rulesSteps: ['override_dh_auto_configure', 'override_dh_auto_build'],
    };
    expect(recommendation(state)).toMatch(
      /provides it\..* Debian's own build of the package replaces or extends these steps in debian\/rules: `override_dh_auto_configure`, `override_dh_auto_build`; a custom plan that follows them may get past this\.$/,
    );
    const memory = portState({
      errors: [{ ...built('../fixtures/missing-header-then-warning-zstd.txt'), category: 'MEMORY_LIMIT' }],
    });
    memory.debian = state.debian;
    expect(recommendation(memory)).not.toContain('debian/rules');
  });

  it('names the package whose installation stopped when the packages phase fails', () => {
    // as the build node records it (buildSteps: category DEPENDENCY)
    const error = makeError({
      node: 'build',
      phase: 'packages',
      category: 'DEPENDENCY',
      output: output('../fixtures/dpkg-preinst-failure.txt'),
    });
    const plan = {
      buildSystem: 'cmake',
      dir: '.',
      phases: [],
      packages: ['libkf5-dev', 'qtbase5-dev'],
      expectedArtifacts: [],
      origin: 'default' as const,
    };
    expect(recommendation(portState({ errors: [error], plan }))).toMatch(
      /^Installing the plan's packages failed in the sandbox at `systemd` \(the plan asked for libkf5-dev, qtbase5-dev\): `dpkg: error processing archive \/var\/cache\/apt\/archives\/systemd_/,
    );
  });

  it('names the vendored folder a release lacks (SOURCE_UNAVAILABLE), not a compile error', () => {
    const error = makeError({
      node: 'build',
      phase: 'bootstrap',
      output: output('../fixtures/automake-vendored-directory.txt'),
    });
    expect(error.category).toBe('SOURCE_UNAVAILABLE');
    expect(recommendation(portState({ errors: [error] }))).toMatch(
      /^The source has no `libs\/`, which its Makefile\.am builds: vendored code/,
    );
  });

  it('names the package the analysis resolved for a dependency configure stopped at', () => {
    const state = portState({
      errors: [built('../../heuristics/fixtures/configure-library-not-found.txt')],
      scripted: { dependencies: [dependency('library', 'idn', 'libidn-dev')] },
    });
    expect(recommendation(state)).toBe(
      "The build needs the dependency libidn: install `libidn-dev` (the analysis found it as a dependency) by adding it to the plan's packages, then run the port again.",
    );
  });

  it('says a package was installed and the build still does not find what it provides', () => {
    const state = portState({
      errors: [built('../../heuristics/fixtures/cmake-could-not-find.txt')],
      fixAttempts: [heuristic('installed libgif-dev (provides the library gif that CMake looked for)')],
    });
    expect(recommendation(state)).toMatch(
      /^The build needs the CMake package GIF\. `libgif-dev`, which provides it, was installed and the build still does not find it/,
    );
  });

  it('names a missing program (meson, the build’s own words)', () => {
    const state = portState({ errors: [built('../../heuristics/fixtures/meson-program-not-found.txt')] });
    expect(recommendation(state)).toMatch(/^The build needs the program gperf\. Find the Debian package/);
  });

  it('names the undefined symbol of a link error', () => {
    const state = portState({ errors: [built('../fixtures/undefined-reference.txt')] });
    expect(recommendation(state)).toMatch(/^The link needs `helper`, which nothing linked defines/);
  });

  it('suggests the configure switch that turns the failing part off', () => {
    const error = {
      ...built('../../heuristics/fixtures/configure-library-not-found.txt'),
      category: 'CONFIGURATION' as const,
    };
    expect(recommendation(portState({ errors: [error] }))).toMatch(/configure with --without-libidn/);
  });

  it('says a meson.build was written for another meson, naming the call and the version', () => {
    const error = {
      ...makeError({
        node: 'build',
        output: [
          'The Meson build system',
          'Version: 1.7.0',
          'Project name: Demo',
          'meson.build:58:36: ERROR: Unknown method "unittest_args" in object <[CompilerHolder] holds [LLVMDCompiler]> of type CompilerHolder.',
        ].join('\n'),
      }),
      category: 'CONFIGURATION' as const,
    };
    expect(recommendation(portState({ errors: [error] }))).toMatch(
      /^`meson\.build:58` uses `unittest_args`, which meson 1\.7\.0 \(the sandbox's, Debian trixie's\) does not have/,
    );
  });

  it('says what to do about a source the archive answers 404 for', () => {
    const error = makeError({
      node: 'init',
      output: 'cannot download http://127.0.0.1:8000/dl/pkg-1.0.tar.gz: HTTP 404',
      category: 'SOURCE_UNAVAILABLE',
    });
    const state = portState({
      source: { spec: 'http://127.0.0.1:8000/dl/pkg-1.0.tar.gz', name: 'pkg' },
      errors: [error],
    });
    expect(recommendation(state)).toMatch(
      /^The source `http:\/\/127\.0\.0\.1:8000\/dl\/pkg-1\.0\.tar\.gz` is not where it was looked for .*HTTP 404.*Check the name and version/,
    );
  });

  it('quotes the first error line when it knows nothing more', () => {
    const error = makeError({ node: 'build', output: 'a.c:3:1: error: expected declaration specifiers' });
    expect(recommendation(portState({ errors: [error] }))).toMatch(
      /^The build stopped at `a\.c:3:1: error: expected declaration specifiers`\. The deterministic repairs are exhausted/,
    );
  });
});

describe('recommendation for a submodule without content', () => {
  it("names mbedtls's empty submodule, its URL, how to bring it, and the other empty one", () => {
    const dir = mkdtempSync(join(tmpdir(), 'rvport-rec-'));
    try {
      writeFileSync(
        join(dir, '.gitmodules'),
        '[submodule "framework"]\n\tpath = framework\n\turl = https://github.com/Mbed-TLS/mbedtls-framework\n[submodule "tf-psa-crypto"]\n\tpath = tf-psa-crypto\n\turl = https://github.com/Mbed-TLS/TF-PSA-Crypto.git\n',
      );
      mkdirSync(join(dir, 'framework'));
      const error = {
        ...built('../../heuristics/fixtures/cmake-submodule-missing.txt'),
        category: 'SOURCE_UNAVAILABLE' as const,
      };
      const state = portState({ source: { spec: dir, name: 'mbedtls', dir }, errors: [error] });
      const text = recommendation(state);
      expect(text).toMatch(
        /^The build needs the submodule `framework` \(https:\/\/github\.com\/Mbed-TLS\/mbedtls-framework\), and this checkout has no content for it \(`CMake Error at CMakeLists\.txt:339/,
      );
      expect(text).toContain('`git submodule update --init framework`');
      expect(text).toMatch(
        /Other submodules without content: `tf-psa-crypto` \(https:\/\/github\.com\/Mbed-TLS\/TF-PSA-Crypto\.git\)\.$/,
      );
      // once the content is there, the same error gets CMake's recommendation again
      writeFileSync(join(dir, 'framework', 'CMakeLists.txt'), 'project(f)\n');
      expect(
        recommendation(portState({ source: { spec: dir, name: 'mbedtls', dir }, errors: [error] })),
      ).not.toMatch(/submodule `framework`/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('recommendation for a version git describe could not give', () => {
  it('says where the version comes from and how to give one (captured from the sandbox)', () => {
    const state = portState({ errors: [built('../../heuristics/fixtures/git-describe-no-tags.txt')] });
    expect(recommendation(state)).toMatch(
      /^The build takes its version from `git describe`, which has no tag to describe in this checkout \(`CMake Error at CMakeLists\.txt:5 \(message\): Cannot determine version number from git`\)\..*a tag `vX\.Y\.Z` on the commit\.$/,
    );
  });
});

describe('recommendation for a download at configure or build time', () => {
  it('names what FetchContent downloads and how Debian can give it (captured from the sandbox)', () => {
    const state = portState({
      errors: [built('../../heuristics/fixtures/cmake-fetchcontent-unconditional.txt')],
    });
    expect(state.errors[0]?.category).toBe('NETWORK');
    expect(recommendation(state)).toMatch(
      /^The build downloads `benchmark`, and builds have no network .*-DFETCHCONTENT_SOURCE_DIR_BENCHMARK=DIR/,
    );
  });

  it('names the repository an ExternalProject clones', () => {
    const state = portState({ errors: [built('../../heuristics/fixtures/cmake-externalproject-build.txt')] });
    expect(recommendation(state)).toMatch(
      /^The build downloads `benchmark` from https:\/\/github\.com\/google\/benchmark\.git, and builds have no network/,
    );
  });
});
