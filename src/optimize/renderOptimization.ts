import type { OptimizationReport, TimingComparison, TuneResult } from './OptimizationReport.ts';

/** The file the winning tune's recipe goes to, beside build.sh. */
export const OPTIMIZED_RECIPE_FILE = 'optimized-recipe.md';

type Table = (
  header: readonly string[],
  rows: ReadonlyArray<readonly (string | number | null | undefined)[]>,
) => string;

const ms = (value: number) => `${(value / 1000).toFixed(2)} s`;

function timing(t: TimingComparison | undefined): string {
  if (!t) return '-';
  return `${t.runs}+${t.runs} runs: median ${ms(t.tuneMedianMs)} vs ${ms(t.baselineMedianMs)} (ratio ${t.ratio.toFixed(3)}), Mann–Whitney p=${t.p.toPrecision(3)} (${t.method})`;
}

function flagsOf(tune: TuneResult): string {
  const vars = Object.entries(tune.env).map(([k, v]) => `${k}=${v}`);
  return vars.length ? vars.join('; ') : '-';
}

function gates(tune: TuneResult): string {
  if (tune.status === 'not-built') return `not built: ${tune.reason ?? ''}`;
  const text = tune.gates.map((g) => `${g.name} ${g.passed ? 'passed' : 'FAILED'}: ${g.detail}`).join('; ');
  // a failed gate says why; a tune that failed before its gates (PGO's profile) has only its reason
  if (tune.status === 'gated' || tune.gates.some((g) => !g.passed)) return text;
  return text ? `${text}; ${tune.reason ?? 'failed'}` : (tune.reason ?? 'failed');
}

/**
 * The optimization section of report.md: the probe, the workload and its source, each tune with
 * its flags, its gates passed or failed with the reason, and the measurements, or that there is
 * no speed claim under emulation. `table` is the report's Markdown table builder.
 */
export function renderOptimization(report: OptimizationReport, table: Table): string[] {
  const out = ['', '## Optimization', ''];
  if (report.status !== 'done') {
    out.push(`Performance mode ${report.status}: ${report.reason ?? ''}`);
    if (report.target) out.push('', probeLine(report));
    out.push('', 'The port itself is unchanged by this: its result and exit code are those above.');
    return out;
  }
  out.push(probeLine(report));
  out.push('');
  out.push(
    report.workload
      ? `Workload (source: ${report.workload.source}): \`${report.workload.commands.join(' && ')}\`${report.workload.setup?.length ? ` (built before every run, untimed, by \`${report.workload.setup.join(' && ')}\`)` : ''}; outputs compared ${report.workload.compare === 'exact' ? 'byte for byte' : report.workload.compare === 'numbers-masked' ? 'with numbers masked' : 'by their test result lines'}. Chosen because: ${report.workload.reason}.`
      : 'Workload: none.',
  );
  if (report.baseline)
    out.push(
      '',
      `Baseline: the verified plan built again from a fresh copy; tests ${report.baseline.tests}; workload output ${report.baseline.fingerprint}.`,
    );
  out.push('');
  out.push(
    table(
      ['tune', 'what', 'flags', 'status', 'gates', 'timing'],
      report.tunes.map((t) => [
        t.name,
        t.stages ? `${t.description} (${t.stages.join(', then ')})` : t.description,
        flagsOf(t),
        t.status,
        gates(t),
        t.confirmation ? `${timing(t.timing)}; second check: ${timing(t.confirmation)}` : timing(t.timing),
      ]),
    ),
  );
  out.push('');
  out.push(`Verdict: ${report.verdict}.`);
  out.push('');
  out.push(`Deterministic cost proxy: ${report.costProxy}.`);
  if (report.winner) out.push('', `The winning tune's recipe: ${OPTIMIZED_RECIPE_FILE}.`);
  if (report.notes.length) {
    out.push('', 'Notes:', '');
    for (const note of report.notes) out.push(`- ${note}`);
  }
  return out;
}

function probeLine(report: OptimizationReport): string {
  const t = report.target;
  if (!t) return 'Probe: -';
  return `Probe: ${t.emulated ? 'emulated' : 'native'} target (${t.emulationEvidence[0] ?? 'no emulation seen'}); ISA ${t.isa ?? 'unknown'}; compiler ${t.compiler ?? 'none'}; -march for tunes: ${t.march ?? 'none'}; clang: ${t.clang ?? 'none'}.`;
}

/** optimized-recipe.md: how to build the winning tune, or null when no tune won. */
export function renderOptimizedRecipe(report: OptimizationReport, packageName: string): string | null {
  const tune = report.tunes.find((t) => t.name === report.winner);
  if (!tune) return null;
  const out = [`# ${packageName}: the ${tune.name} tune for this riscv64 machine`, ''];
  out.push(`${tune.description}. ${report.verdict}.`, '');
  out.push('Build as build.sh does, with these variables in place of the ones it sets:', '');
  out.push('```sh');
  for (const [k, v] of Object.entries(tune.env)) out.push(`export ${k}='${v.replace(/'/g, `'\\''`)}'`);
  out.push('```');
  if (tune.stages) {
    out.push('', 'Profile-guided: the steps are', '');
    tune.stages.forEach((s, i) => {
      out.push(`${i + 1}. ${s}`);
    });
  }
  out.push('', `Checked: ${tune.gates.map((g) => `${g.name} (${g.detail})`).join('; ')}.`);
  if (report.target?.isa)
    out.push('', `Probed ISA: ${report.target.isa}. Another machine needs its own probe.`);
  return `${out.join('\n')}\n`;
}
