// The proof behind native-userland mode: ports each public corpus package in accelerated mode and
// in native-userland mode (and, unless --no-emulated, in emulated mode for the timing), compares the
// two build trees file by file (configure's outputs, artifacts, everything; only timestamps are
// normalised), and prints a Markdown table. Results are appended to OUT/results.jsonl as each
// package finishes; with --record the committed proof table (src/sandbox/proof/userlandProofs.json)
// is updated after each package too. Run again with the same --out, it resumes: packages already in
// OUT/results.jsonl are skipped and the final table holds every row of that file. Emulated mode is
// timed only (its port skips the package's tests). Usage:
//   npx tsx bench/compare-userland.ts [--no-emulated] [--record] [--out DIR] [NAME…]
//   npx tsx bench/compare-userland.ts --table OUT/results.jsonl…   (the table of finished results)
// Needs root and `rvport sandbox setup` (the default mode provisions all images).
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type NativeUserlandProofRun, proveNativeUserland } from '../src/port/proveNativeUserland.ts';
import { formatDifference } from '../src/sandbox/proof/compareBuildTrees.ts';
import { loadUserlandProofs, saveUserlandProofs } from '../src/sandbox/proof/userlandProofs.ts';
import type { SandboxMode } from '../src/sandbox/Sandbox.ts';
import { corpusList, ensureCorpus } from '../test/helpers/corpus.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'no-emulated': { type: 'boolean', default: false },
    record: { type: 'boolean', default: false },
    out: { type: 'string' },
    table: { type: 'boolean', default: false },
  },
});

function row(run: NativeUserlandProofRun): string {
  const time = (mode: SandboxMode) => {
    const r = run.runs.find((x) => x.mode === mode);
    return r ? `${r.buildSeconds} s` : '-';
  };
  const verdict = !run.comparison
    ? 'not compared (no build tree)'
    : run.comparison.identical
      ? 'identical'
      : `differs: ${run.comparison.differences[0] ? formatDifference(run.comparison.differences[0]).replace(/\|/g, '\\|') : ''}`;
  const result = (mode: SandboxMode) => run.runs.find((x) => x.mode === mode)?.result ?? '-';
  const loads = run.runs.flatMap((x) => x.load ?? []);
  const load = loads.length ? `${Math.min(...loads)}–${Math.max(...loads)}` : '-';
  return `| ${run.name} | ${run.runs[0]?.buildSystem ?? '-'} | ${result('accelerated')} / ${result('native-userland')} | ${verdict} | ${run.comparison?.files ?? '-'} | ${time('emulated')} | ${time('accelerated')} | ${time('native-userland')} | ${load} |`;
}

function table(runs: readonly NativeUserlandProofRun[]): string {
  return [
    '| package | build system | result (accelerated / native-userland) | native-userland vs accelerated | files compared | build emulated | build accelerated | build native-userland | load |',
    '|---|---|---|---|---|---|---|---|---|',
    ...runs.map(row),
  ].join('\n');
}

function readResults(file: string): NativeUserlandProofRun[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as NativeUserlandProofRun);
}

if (values.table) {
  console.log(table(positionals.flatMap(readResults)));
  process.exit(0);
}
const listed = readFileSync(corpusList, 'utf8')
  .split('\n')
  .map((l) => l.split('#')[0]?.trim() ?? '')
  .filter(Boolean);
const names = positionals.length ? positionals : listed;
const corpus = await ensureCorpus(names);
const out = values.out ?? mkdtempSync(join(tmpdir(), 'rvport-compare-userland-'));
mkdirSync(out, { recursive: true });
const modes: SandboxMode[] = values['no-emulated']
  ? ['accelerated', 'native-userland']
  : ['accelerated', 'native-userland', 'emulated'];
const command = `npx tsx bench/compare-userland.ts --record ${names.join(' ')}`;
const log = (line: string) => process.stderr.write(`${line}\n`);
const resultsFile = join(out, 'results.jsonl');
log(`results in ${resultsFile}`);

const runs: NativeUserlandProofRun[] = existsSync(resultsFile) ? readResults(resultsFile) : [];
const done = new Set(runs.map((run) => run.name));
if (done.size) log(`resuming: ${[...done].join(', ')} already done`);
for (const name of names) {
  if (done.has(name)) continue;
  const run = await proveNativeUserland(join(corpus, name), {
    modes,
    out,
    commandTimeoutMs: 20 * 60_000,
    log,
  });
  appendFileSync(resultsFile, `${JSON.stringify(run)}\n`);
  if (run.comparison) {
    log(
      `${name}: ${run.comparison.identical ? 'identical' : 'DIFFERENT'} (${run.comparison.files} files)${run.comparison.differences
        .slice(0, 10)
        .map((d) => `\n  ${formatDifference(d)}`)
        .join('')}`,
    );
  }
  if (values.record && run.proof) {
    const proofs = loadUserlandProofs();
    proofs.command = command;
    proofs.proofs[name] = run.proof;
    await saveUserlandProofs(proofs);
  }
  runs.push(run);
}
console.log(table(runs));
