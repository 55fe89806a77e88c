// The proof behind native-userland mode: ports each public corpus package in accelerated mode and
// in native-userland mode (and, unless --no-emulated, in emulated mode for the timing), compares the
// two build trees file by file (configure's outputs, artifacts, everything; only timestamps are
// normalised), and prints a Markdown table. Results are appended to OUT/results.jsonl as each
// package finishes; with --record the committed proof table (src/sandbox/proof/userlandProofs.json)
// is updated after each package too. Usage:
//   npx tsx bench/compare-userland.ts [--no-emulated] [--record] [--out DIR] [NAME…]
//   npx tsx bench/compare-userland.ts --table OUT/results.jsonl…   (the table of finished results)
// Needs root and `rvport sandbox setup` (the default mode provisions all images).
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
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
  return `| ${run.name} | ${run.runs[0]?.buildSystem ?? '-'} | ${result('accelerated')} / ${result('native-userland')} | ${verdict} | ${run.comparison?.files ?? '-'} | ${time('emulated')} | ${time('accelerated')} | ${time('native-userland')} |`;
}

function table(runs: readonly NativeUserlandProofRun[]): string {
  return [
    '| package | build system | result (accelerated / native-userland) | native-userland vs accelerated | files compared | build emulated | build accelerated | build native-userland |',
    '|---|---|---|---|---|---|---|---|',
    ...runs.map(row),
  ].join('\n');
}

if (values.table) {
  const runs = positionals.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as NativeUserlandProofRun),
  );
  console.log(table(runs));
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
log(`results in ${join(out, 'results.jsonl')}`);

const runs: NativeUserlandProofRun[] = [];
for (const name of names) {
  const run = await proveNativeUserland(join(corpus, name), {
    modes,
    out,
    commandTimeoutMs: 20 * 60_000,
    log,
  });
  appendFileSync(join(out, 'results.jsonl'), `${JSON.stringify(run)}\n`);
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
