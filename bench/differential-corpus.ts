// Differential tests on packages of the public corpus: each is ported with --differential
// (offline, no recipe cache, no replay) and the table says, per package, how its tests and smoke
// runs compare between riscv64 and x86_64 and what the x86_64 side added to the port's time.
// Ports run in a private RVPORT_HOME sharing the machine's sandbox images (so a corpus benchmark
// running beside it keeps its own checkpoints). Usage:
//   npx tsx bench/differential-corpus.ts [--results FILE] NAME…      (default: cjson libinih sl)
//   npx tsx bench/differential-corpus.ts --table [--results FILE]
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeJsonAtomic } from '../src/fs/writeFileAtomic.ts';
import type { PortState } from '../src/port/state/PortState.ts';
import { runProcess } from '../src/process/runProcess.ts';
import { ensureCorpus } from '../test/helpers/corpus.ts';
import { makePortHome } from '../test/helpers/portHome.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    results: {
      type: 'string',
      default: join(homedir(), '.cache', 'rvport', 'bench', 'differential.json'),
    },
    table: { type: 'boolean', default: false },
  },
});
const resultsFile = values.results as string;
const bin = new URL('../bin/rvport.js', import.meta.url).pathname;
const out = join(dirname(resultsFile), 'differential-outputs');

interface Row {
  name: string;
  result: string;
  mode: string;
  /** The riscv64 port without the differential tests: its build, tests and the rest. */
  portSeconds: number;
  riscvBuildSeconds: number;
  x86BuildSeconds: number;
  x86TestSeconds: number;
  differentialSeconds: number;
  provisionSeconds: number;
  compared: string;
  passBoth: number;
  failBoth: number;
  riscvOnly: number;
  x86Only: number;
  riscvOnlyNames: string;
  finishedAt: string;
}

const round = (ms: number | undefined) => Math.round((ms ?? 0) / 100) / 10;

async function portOne(name: string, home: string): Promise<Row> {
  const source = join(await ensureCorpus([name]), name);
  const run = await runProcess({
    command: [
      process.execPath,
      bin,
      'port',
      source,
      '--force',
      '--offline',
      '--json',
      '--differential',
      '--no-replay',
      '--out',
      out,
    ],
    env: { RVPORT_HOME: home },
    timeoutMs: 45 * 60_000,
    captureBytes: 4 * 1024 * 1024,
  });
  let r: Record<string, unknown> = {};
  try {
    r = JSON.parse(run.stdout);
  } catch {}
  let state: PortState | null = null;
  try {
    state = JSON.parse(readFileSync(join(String(r.outDir ?? ''), 'state.json'), 'utf8')) as PortState;
  } catch {}
  const d = state?.differential;
  const count = (o: string) => d?.rows.filter((x) => x.outcome === o).length ?? 0;
  const total = state?.timings.total ?? 0;
  return {
    name,
    result: String(r.result ?? (run.timedOut ? 'timeout' : 'crash')),
    mode: String(r.mode ?? '-'),
    portSeconds: round(total - (state?.timings.differential ?? 0)),
    riscvBuildSeconds: round(state?.timings.build),
    x86BuildSeconds: round(d?.x86BuildMs),
    x86TestSeconds: round(d?.x86TestMs),
    differentialSeconds: round(state?.timings.differential),
    provisionSeconds: round(d?.provisionMs),
    compared: d ? (d.ran ? `${d.rows.length}` : `not compared: ${d.reason}`) : 'no differential record',
    passBoth: count('passes on both'),
    failBoth: count('fails on both'),
    riscvOnly: count('fails only on riscv64'),
    x86Only: count('fails only on x86_64'),
    riscvOnlyNames: (d?.rows ?? [])
      .filter((x) => x.outcome === 'fails only on riscv64')
      .map((x) => x.name)
      .slice(0, 5)
      .join(', '),
    finishedAt: new Date().toISOString(),
  };
}

function render(rows: readonly Row[]): string {
  const lines = [
    '| package | result | mode | port (riscv64) | riscv64 build | x86_64 build | x86_64 tests + smoke | added time | compared | pass on both | fail on both | **fail only on riscv64** | fail only on x86_64 |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows)
    lines.push(
      `| ${r.name} | ${r.result} | ${r.mode} | ${r.portSeconds} s | ${r.riscvBuildSeconds} s | ${r.x86BuildSeconds} s | ${r.x86TestSeconds} s | ${r.differentialSeconds} s${r.provisionSeconds ? ` (${r.provisionSeconds} s provisioning)` : ''} | ${r.compared.replace(/\|/g, '\\|')} | ${r.passBoth} | ${r.failBoth} | ${r.riscvOnly}${r.riscvOnlyNames ? ` (${r.riscvOnlyNames})` : ''} | ${r.x86Only} |`,
    );
  return lines.join('\n');
}

let rows: Row[] = existsSync(resultsFile) ? (JSON.parse(readFileSync(resultsFile, 'utf8')) as Row[]) : [];
if (!values.table) {
  const home = makePortHome('rvport-bench-differential-');
  for (const name of positionals.length ? positionals : ['cjson', 'libinih', 'sl']) {
    const row = await portOne(name, home);
    rows = [...rows.filter((r) => r.name !== name), row];
    await writeJsonAtomic(resultsFile, rows);
    console.error(`${name}: ${row.result}, differential ${row.compared} in ${row.differentialSeconds} s`);
  }
}
console.log(render(rows));
console.error(`results in ${resultsFile}, outputs in ${out}`);
