import { describe, expect, it } from 'vitest';
import { table } from '../port/outputs/markdown.ts';
import { NO_SPEED_CLAIM, type OptimizationReport, type TuneResult } from './OptimizationReport.ts';
import { renderOptimization, renderOptimizedRecipe } from './renderOptimization.ts';

const timing = {
  runs: 7,
  baselineMedianMs: 1000,
  tuneMedianMs: 800,
  ratio: 0.8,
  p: 0.0006,
  method: 'exact' as const,
  faster: true,
};
const gates: TuneResult['gates'] = [
  { name: 'build', passed: true, detail: 'built' },
  { name: 'artifacts', passed: true, detail: '2 riscv64 artifacts, each recording zba in Tag_RISCV_arch' },
];
const base: OptimizationReport = {
  status: 'done',
  target: {
    emulated: false,
    emulationEvidence: ['no emulator seen'],
    isa: 'rv64imafdc_zba',
    extensions: [],
    compiler: 'gcc 14',
    march: 'rv64gc_zba',
    marchExtensions: ['zba'],
    clang: null,
    notes: [],
  },
  workload: { source: 'optimizer', commands: ['./crunch 3000000'], compare: 'exact', reason: 'the kernel' },
  baseline: { env: {}, tests: '1 passed, 0 failed', fingerprint: 'exit 0; sha256 ab' },
  tunes: [
    {
      name: 'march',
      description: 'ISA',
      env: { CFLAGS: '-O2 -march=rv64gc_zba' },
      status: 'gated',
      gates,
      timing,
      confirmation: timing,
    },
    {
      name: 'LTO',
      description: 'LTO',
      env: { CFLAGS: '-flto' },
      status: 'failed',
      gates: [{ name: 'build', passed: false, detail: 'make failed' }],
      reason: 'build: make failed',
    },
    { name: 'clang', description: 'clang', env: {}, status: 'not-built', reason: 'no clang', gates: [] },
  ],
  winner: 'march',
  verdict: 'march is faster: median 80.0% then 80.0% of the baseline time, in two separate checks',
  costProxy: 'not needed',
  notes: [],
  durationMs: 1,
};

describe('renderOptimization', () => {
  it('lists the probe, the workload and its source, each tune with flags, gates and timings', () => {
    const md = renderOptimization(base, table).join('\n');
    expect(md).toContain('## Optimization');
    expect(md).toMatch(/Probe: native target .*-march for tunes: rv64gc_zba/);
    expect(md).toContain('Workload (source: optimizer): `./crunch 3000000`');
    expect(md).toMatch(
      /\| march \| ISA \| CFLAGS=-O2 -march=rv64gc_zba \| gated \| build passed: built; artifacts passed/,
    );
    expect(md).toContain('build FAILED: make failed');
    expect(md).toContain('not built: no clang');
    expect(md).toMatch(/second check: 7\+7 runs/);
    expect(md).toContain('optimized-recipe.md');
  });

  it('says there is no speed claim under emulation, and a failure keeps the port as it was', () => {
    const emulated = renderOptimization(
      { ...base, winner: null, verdict: `${NO_SPEED_CLAIM}: timings are of qemu` },
      table,
    ).join('\n');
    expect(emulated).toContain('Verdict: no speed claim under emulation');
    expect(emulated).not.toContain('optimized-recipe.md');
    const failed = renderOptimization(
      { ...base, status: 'failed', reason: 'the baseline did not build again' },
      table,
    ).join('\n');
    expect(failed).toMatch(/Performance mode failed: the baseline did not build again/);
    expect(failed).toMatch(/exit code are those above/);
  });
});

describe('renderOptimizedRecipe', () => {
  it("writes the winner's variables, quoted for a shell, and nothing without a winner", () => {
    const text = renderOptimizedRecipe(
      { ...base, tunes: [{ ...(base.tunes[0] as TuneResult), env: { CFLAGS: "-O2 -DX='1'" } }] },
      'crunch',
    );
    expect(text).toContain("export CFLAGS='-O2 -DX='\\''1'\\'''");
    expect(text).toMatch(/^# crunch: the march tune/);
    expect(renderOptimizedRecipe({ ...base, winner: null }, 'crunch')).toBeNull();
  });
});
