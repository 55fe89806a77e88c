// The proof behind native-userland mode: ports each public corpus package in accelerated mode and
// in native-userland mode, compares the two build trees file by file (configure's outputs,
// artifacts, everything; only run-dependent text is normalised), and prints a Markdown table. Then,
// unless --no-emulated, it times the same port in emulated mode for each package (no tests, nothing
// compared). Rows are appended to OUT/results.jsonl as each step finishes; with --record the
// committed proof table (src/sandbox/proof/userlandProofs.json) is updated after each comparison.
// Run again with the same --out and it resumes where it stopped; the table merges the rows.
// With --auto the second port is `--mode auto` with no proof-table entry (native-userland on the
// build's own evidence, or accelerated after a refusal; it is compared when it kept the fast
// userland, and never recorded as a proof). With --x86 the accelerated port also builds the plan
// natively in the amd64 build root (the differential tests' x86_64 side) and times that build; with
// both, the auto run's recipe is also replayed in a fresh instance and timed (the build alone,
// without the search for the recipe, as the x86_64 side builds it).
// Usage:
//   npx tsx bench/compare-userland.ts [--no-emulated] [--record] [--auto] [--x86] [--out DIR] [NAME|DIR…]
//   npx tsx bench/compare-userland.ts --table OUT/results.jsonl…   (the table of finished results and the medians)
// Needs root and `rvport sandbox setup` (the default mode provisions all images).
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  type NativeUserlandProofRun,
  type ProofMode,
  proveNativeUserland,
} from '../src/port/run/proveNativeUserland.ts';
import { formatDifference, type TreeDifference } from '../src/sandbox/proof/compareBuildTrees.ts';
import { loadUserlandProofs, saveUserlandProofs } from '../src/sandbox/proof/userlandProofs.ts';
import { corpusList, ensureCorpus } from '../test/helpers/corpus.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'no-emulated': { type: 'boolean', default: false },
    auto: { type: 'boolean', default: false },
    x86: { type: 'boolean', default: false },
    record: { type: 'boolean', default: false },
    out: { type: 'string' },
    table: { type: 'boolean', default: false },
  },
});

/** The run built in the fast userland: a native-userland proof run, or an auto run that took it. */
function fastRun(run: NativeUserlandProofRun): NativeUserlandProofRun['runs'][number] | undefined {
  const auto = run.runs.find((x) => x.mode === 'auto');
  return (
    run.runs.find((x) => x.mode === 'native-userland') ??
    (auto?.builtIn === 'native-userland' ? auto : undefined)
  );
}

function row(run: NativeUserlandProofRun): string {
  const accelerated = run.runs.find((x) => x.mode === 'accelerated');
  const time = (mode: ProofMode) => {
    const r = run.runs.find((x) => x.mode === mode);
    if (!r) return '-';
    return r.result === accelerated?.result || mode !== 'emulated'
      ? `${r.buildSeconds} s`
      : `${r.buildSeconds} s (${r.result})`;
  };
  // a difference as a table cell
  const cell = (d: TreeDifference | undefined) => (d ? formatDifference(d).replace(/\|/g, '\\|') : '');
  const left = run.comparison?.leftByFailedTests;
  const verdict = !run.comparison
    ? 'not compared (no build tree)'
    : !run.comparison.identical
      ? `differs: ${cell(run.comparison.differences[0])}`
      : left
        ? `identical (but ${left.length} files the failed test step left, e.g. ${cell(left[0])})`
        : 'identical';
  const result = (mode: ProofMode) => run.runs.find((x) => x.mode === mode)?.result ?? '-';
  const auto = run.runs.find((x) => x.mode === 'auto');
  const fast = fastRun(run);
  const x86 = accelerated?.x86BuildSeconds;
  const autoColumn = auto
    ? `${auto.builtIn ?? '-'} (${auto.modeReason ?? '-'}), ${auto.buildSeconds} s`
    : '-';
  const ratio = fast && x86 ? `${Math.round((fast.buildSeconds / x86) * 100) / 100}` : '-';
  // the recipe alone, replayed in the fast userland, against the x86_64 build of the same plan
  const replay =
    fast?.replaySeconds !== undefined && x86
      ? `${fast.replaySeconds} s (${Math.round((fast.replaySeconds / x86) * 100) / 100})`
      : '-';
  const loads = run.runs.flatMap((x) => x.load ?? []);
  const load = loads.length ? `${Math.min(...loads)}–${Math.max(...loads)}` : '-';
  return `| ${run.name} | ${run.runs[0]?.buildSystem ?? '-'} | ${result('accelerated')} / ${result('native-userland')} | ${verdict} | ${run.comparison?.files ?? '-'} | ${time('emulated')} | ${time('accelerated')} | ${time('native-userland')} | ${autoColumn} | ${x86 !== undefined ? `${x86} s` : '-'} | ${ratio} | ${replay} | ${load} |`;
}

function table(runs: readonly NativeUserlandProofRun[]): string {
  return [
    '| package | build system | result (accelerated / native-userland) | native-userland vs accelerated | files compared | build emulated | build accelerated | build native-userland | --mode auto (built in, why, build) | build x86_64 native | fast userland / x86_64 | recipe replayed in the fast userland (/ x86_64) | load |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...runs.map(row),
  ].join('\n');
}

/** The rows of a results file; a missing file or a line that is not JSON ends the run with a message. */
function readResults(file: string): NativeUserlandProofRun[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    console.error(`compare-userland: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? error}`);
    process.exit(1);
  }
  const rows: NativeUserlandProofRun[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (!line) continue;
    try {
      rows.push(JSON.parse(line) as NativeUserlandProofRun);
    } catch {
      console.error(`compare-userland: ${file}:${i + 1} is not a row of results (not JSON)`);
      process.exit(1);
    }
  }
  return rows;
}

/** One row per package: the runs of every row of that package (first of each mode), its comparison. */
function mergeRows(all: readonly NativeUserlandProofRun[]): NativeUserlandProofRun[] {
  const merged = new Map<string, NativeUserlandProofRun>();
  for (const row of all) {
    const into = merged.get(row.name) ?? { name: row.name, runs: [] };
    for (const run of row.runs) if (!into.runs.some((r) => r.mode === run.mode)) into.runs.push(run);
    if (row.comparison && !into.comparison) {
      into.comparison = row.comparison;
      if (row.proof) into.proof = row.proof;
    }
    merged.set(row.name, into);
  }
  return [...merged.values()];
}

/** The middle value (the mean of the two middle ones for an even count). */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/**
 * The summary under the table: over the rows built in the fast userland with an x86_64 build of
 * the same plan, the median of the ratios of the table's two ratio columns.
 */
function summary(runs: readonly NativeUserlandProofRun[]): string {
  const build: number[] = [];
  const replay: number[] = [];
  for (const run of runs) {
    const fast = fastRun(run);
    const x86 = run.runs.find((x) => x.mode === 'accelerated')?.x86BuildSeconds;
    if (!fast || !x86) continue;
    build.push(fast.buildSeconds / x86);
    if (fast.replaySeconds !== undefined) replay.push(fast.replaySeconds / x86);
  }
  const round = (n: number) => Math.round(n * 100) / 100;
  return [
    `median fast userland / x86_64 build: ${build.length ? round(median(build)) : '-'} over ${build.length} rows (${build.filter((r) => r <= 2).length} at or under 2)`,
    `median replay in the fast userland / x86_64 build: ${replay.length ? round(median(replay)) : '-'} over ${replay.length} rows (${replay.filter((r) => r <= 2).length} at or under 2)`,
  ].join('\n');
}

if (values.table) {
  const rows = mergeRows(positionals.flatMap(readResults));
  console.log(`${table(rows)}\n\n${summary(rows)}`);
  process.exit(0);
}
const names = positionals.length
  ? positionals
  : readFileSync(corpusList, 'utf8')
      .split('\n')
      .map((l) => l.split('#')[0]?.trim() ?? '')
      .filter(Boolean);
// a NAME with a slash is a source folder of its own (a clone of the git corpus); the others are
// Debian source packages, fetched into the corpus cache
const corpus = await ensureCorpus(names.filter((n) => !n.includes('/')));
const sourceOf = (name: string) => (name.includes('/') ? resolve(name) : join(corpus, name));
const out = values.out ?? mkdtempSync(join(tmpdir(), 'rvport-compare-userland-'));
mkdirSync(out, { recursive: true });
const command = `npx tsx bench/compare-userland.ts --record ${names.join(' ')}`;
const log = (line: string) => process.stderr.write(`${line}\n`);
const resultsFile = join(out, 'results.jsonl');
log(`results in ${resultsFile}`);

const rows: NativeUserlandProofRun[] = existsSync(resultsFile) ? readResults(resultsFile) : [];
const ran = (name: string, mode: ProofMode) =>
  rows.some((row) => row.name === basename(name) && row.runs.some((run) => run.mode === mode));
// the commit that measured each row: a resumed run may span several
const code = (() => {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: import.meta.dirname,
      encoding: 'utf8',
    }).trim();
  } catch {
    return undefined;
  }
})();
const record = (row: NativeUserlandProofRun) => {
  appendFileSync(resultsFile, `${JSON.stringify(code ? { ...row, code } : row)}\n`);
  rows.push(row);
};
if (rows.length) log(`resuming from ${rows.length} finished rows`);

// Phase 1, the proof: accelerated and native-userland (or --mode auto), compared.
const second: ProofMode = values.auto ? 'auto' : 'native-userland';
for (const name of names) {
  if (ran(name, 'accelerated') && ran(name, second)) continue;
  const run = await proveNativeUserland(sourceOf(name), {
    modes: ['accelerated', second],
    x86: values.x86,
    // with --auto --x86 the auto run's recipe is replayed too: the build alone, as x86_64 builds it
    replayAuto: values.auto && values.x86,
    out,
    commandTimeoutMs: 20 * 60_000,
    log,
  });
  record(run);
  if (run.comparison) {
    log(
      `${name}: ${run.comparison.identical ? 'identical' : 'DIFFERENT'} (${run.comparison.files} files)${run.comparison.differences
        .slice(0, 10)
        .map((d) => `\n  ${formatDifference(d)}`)
        .join('')}${(run.comparison.leftByFailedTests ?? [])
        .slice(0, 10)
        .map((d) => `\n  left by the failed test step: ${formatDifference(d)}`)
        .join('')}`,
    );
  }
  // an auto run is the experiment of running without a proof: it never becomes one
  if (values.record && run.proof && !values.auto) {
    const proofs = loadUserlandProofs();
    proofs.command = command;
    proofs.proofs[name] = run.proof;
    await saveUserlandProofs(proofs);
  }
}

// Phase 2, the emulated column: the same port timed in emulated mode (no tests, nothing compared).
if (!values['no-emulated']) {
  for (const name of names) {
    if (ran(name, 'emulated')) continue;
    record(
      await proveNativeUserland(sourceOf(name), {
        modes: ['emulated'],
        out,
        commandTimeoutMs: 60 * 60_000,
        log,
      }),
    );
  }
}
console.log(table(mergeRows(rows)));
