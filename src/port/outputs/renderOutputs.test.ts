import { describe, expect, it } from 'vitest';
import { crateSourceNote } from '../../sources/acquireDebianCrate.ts';
import type { ExecutedCommand } from '../state/PortState.ts';
import { sourceWarnings } from '../steps/sourceWarnings.ts';
import { anError, portState } from '../testing/portStateFixture.ts';
import { renderEscalation } from './renderEscalation.ts';
import { renderRecipe, successfulSteps } from './renderRecipe.ts';
import { renderReport } from './renderReport.ts';

const cmd = (
  phase: string,
  command: string,
  attempt: number,
  exitCode = 0,
  origin: ExecutedCommand['origin'] = 'plan',
) => ({
  phase,
  command,
  attempt,
  exitCode,
  durationMs: 10,
  origin,
});

describe('successfulSteps', () => {
  it('keeps the repairs and the plan commands of the last attempt that succeeded', () => {
    const steps = successfulSteps([
      cmd('configure', './configure', 1),
      cmd('build', 'make -j2', 1, 2),
      cmd('prepare', 'cp /usr/share/misc/config.guess .', 1, 0, 'heuristic'),
      cmd('configure', './configure', 2),
      cmd('build', 'make -j2', 2),
    ]);
    expect(steps.map((s) => s.command)).toEqual([
      'cp /usr/share/misc/config.guess .',
      './configure',
      'make -j2',
    ]);
  });
});

describe('renderRecipe', () => {
  it('writes prerequisites, phases in order, patches and verification', () => {
    const state = portState({
      plan: {
        buildSystem: 'autotools',
        dir: '.',
        phases: [
          { name: 'configure', commands: ['./configure'] },
          { name: 'build', commands: ['make'] },
          { name: 'install', commands: ['make install DESTDIR="$RVPORT_DESTDIR"'], optional: true },
        ],
        packages: ['libogg-dev'],
        expectedArtifacts: [],
        origin: 'default',
      },
      executed: [cmd('build', 'make', 1), cmd('configure', './configure', 1)],
      patches: [{ name: '0001-fix.patch', diff: 'diff --git a/x b/x' }],
      verification: { verdict: 'verified', reason: '2 riscv64 objects' },
      artifacts: [
        {
          path: 'src/hello',
          machine: 'riscv64',
          bits: 64,
          endian: 'little',
          type: 'shared',
          abi: 'lp64d',
          interpreter: '/lib/ld.so',
          linkage: 'dynamic',
          role: 'program',
          rank: 0,
        },
      ],
    });
    const text = renderRecipe(state, { imageId: 'img-1', suite: 'trixie' });
    expect(text).toMatch(/^# zlib for riscv64 Linux\n\nVerified/);
    // complete: the image's autotools and build-essential too, not only what the port added
    expect(text).toContain(
      'apt-get install -y --no-install-recommends autoconf automake autopoint autotools-dev build-essential file libogg-dev libtool patch pkg-config',
    );
    expect(text).toContain('make install DESTDIR="$DESTDIR"');
    expect(text).not.toContain('RVPORT_');
    expect(text.indexOf('### configure')).toBeLessThan(text.indexOf('### build'));
    expect(text).toContain('patches/0001-fix.patch');
    expect(text).toContain('| src/hello | program | riscv64 | 64 | lp64d | dynamic |');
  });
});

describe('renderEscalation and renderReport', () => {
  it('name the reason, the last error and a recommendation', () => {
    const state = portState({
      buildStatus: 'ESCALATED',
      attemptCount: 1,
      escalationReason: 'a fundamental blocker (ARCHITECTURE_IMPOSSIBLE)',
      errors: [
        anError('ARCHITECTURE_IMPOSSIBLE', 'lj_arch.h:62: #error "No support for this architecture (yet)"'),
      ],
    });
    const escalation = renderEscalation(state);
    expect(escalation).toContain('## Why\n\na fundamental blocker (ARCHITECTURE_IMPOSSIBLE)');
    expect(escalation).toContain('No support for this architecture');
    expect(escalation).toMatch(/no riscv64 support/);
    const report = renderReport(state);
    expect(report).toContain('| status | ESCALATED |');
    expect(report).toContain('ARCHITECTURE_IMPOSSIBLE');
  });

  it("list each error by the line that failed, not the build system's last words", () => {
    const error = {
      ...anError(
        'CONFIGURATION',
        'meson.build:58:36: ERROR: Unknown method\nA full log can be found at /build/src/build/meson-logs/meson-log.txt\n',
      ),
      errorLine: 'meson.build:58:36: ERROR: Unknown method',
    };
    const report = renderReport(portState({ errors: [error] }));
    expect(report).toContain('| meson.build:58:36: ERROR: Unknown method |');
    expect(report).not.toContain('A full log can be found');
  });
});

describe("Debian's packaging in the report and the recipe", () => {
  const debian = {
    buildDepends: [['bison'], ['systemd'], ['zlib1g-dev', 'libz-dev']],
    installed: ['bison', 'zlib1g-dev'],
    leftOut: [{ name: 'systemd', reason: 'its install failed in the sandbox' }],
    patchesApplied: ['fix-build.patch'],
    patchesSkipped: [{ name: 'old.patch', reason: 'does not apply: error: patch failed: a.c:3' }],
  };

  it('says how many Build-Depends were installed and left out, and which patches applied', () => {
    const report = renderReport(portState({ debian }));
    expect(report).toContain("## Debian's packaging");
    expect(report).toContain('3 relations; 2 installed before the build, 1 left out.');
    expect(report).toContain('| systemd | its install failed in the sandbox |');
    expect(report).toContain('1 applied (the `patches/NNNN-debian-…` files), 1 skipped.');
    expect(report).toContain('| old.patch | does not apply: error: patch failed: a.c:3 |');
  });

  it('says why a Debian source was ported without its packaging', () => {
    const why =
      "Debian's packaging (the debian.tar) could not be downloaded; the upstream source is ported without it";
    const report = renderReport(
      portState({
        debian: {
          ...debian,
          buildDepends: [],
          installed: [],
          leftOut: [],
          patchesApplied: [],
          patchesSkipped: [],
          problems: [why],
        },
      }),
    );
    expect(report).toContain(`## Debian's packaging\n\n- ${why}\n`);
  });

  it('has no such section for other sources', () => {
    expect(renderReport(portState({}))).not.toContain("Debian's packaging");
  });
});

describe('renderReport: the mode evidence', () => {
  const evidence = {
    kind: 'per-build' as const,
    layer: 'evidence-1',
    samplePerMille: 20,
    invocations: 2400,
    machine: 3,
    machineChecked: 3,
    sampled: 48,
    skipped: 1,
    differences: [],
    unreplayable: [],
    census: [],
    malformed: 0,
    evidenceSeconds: 1.5,
  };

  it('says a native-userland build stood on its own evidence, with the counts', () => {
    const state = portState({ userlandEvidence: { ...evidence, accepted: true, reason: 'all agreed' } });
    state.options = { ...state.options, mode: 'native-userland', modeEvidence: 'per-build' };
    expect(renderReport(state)).toMatch(
      /mode evidence \| accepted, the build's own \(2400 calls of the swapped programs the rules name, 3 of 3 machine-dependent ones answered by riscv64, 48 sampled ones run under riscv64 too, read in 1\.5 s\): all agreed/,
    );
  });

  it('says why a build was redone in accelerated mode, and names the proof table when that was the ground', () => {
    const refused = portState({
      userlandEvidence: { ...evidence, accepted: false, reason: 'printf %.30g 0.1 gave another result' },
    });
    expect(renderReport(refused)).toMatch(
      /mode evidence \| refused, .*printf %\.30g 0\.1 gave another result/,
    );
    const proven = portState();
    proven.options = { ...proven.options, mode: 'native-userland', modeEvidence: 'proof-table' };
    expect(renderReport(proven)).toMatch(/mode evidence \| the committed proof table/);
  });
});

describe('what acquiring the source warned of, in the report', () => {
  it('lists the warnings once, leaving the Debian notes to their own section', () => {
    const binary = {
      package: 'librust-tool-dev',
      version: '1.0.0-1',
      architecture: 'riscv64',
      sha256: 'ab',
      folder: 'usr/share/cargo/registry/tool-1.0.0',
    };
    const warnings = sourceWarnings({
      warnings: [
        crateSourceNote(binary),
        '/src/tool has uncommitted changes; they are not part of the port',
        "Debian's packaging (the debian.tar) could not be downloaded; the upstream source is ported without it",
        '/src/tool has uncommitted changes; they are not part of the port',
      ],
      debian: { package: 'rust-tool', version: '1.0.0-1', suite: 'trixie', tarball: 'x.deb', binary },
    });
    expect(warnings).toEqual(['/src/tool has uncommitted changes; they are not part of the port']);
    const report = renderReport(portState({ source: { spec: '/src/tool', name: 'tool', warnings } }));
    expect(report).toContain(
      '## Source\n\nAcquiring the source warned:\n\n- /src/tool has uncommitted changes; they are not part of the port\n',
    );
    expect(renderReport(portState({}))).not.toContain('## Source');
  });
});
