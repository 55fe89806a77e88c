// Performance mode through the SSH target: an sshd on 127.0.0.1 whose sessions run inside an
// emulated rvport riscv64 sandbox instance (the stand-in the SSH tests use), a private
// RVPORT_HOME with it added as target `standin`, and `rvport port SOURCE --target standin
// --offline --optimize`. Writes the optimization section's figures (tunes, gates, timings) to a
// results file and prints them as a table. The stand-in is emulated, so the timings are of qemu
// and the verdict makes no speed claim; the path (remote builds, gates, interleaved timed runs,
// the rank test) is the real one. Needs root (sshd). Usage:
//   npx tsx bench/optimize-ssh.ts [--results FILE] [SOURCE]        (default: debian:lzo2)
//   npx tsx bench/optimize-ssh.ts --table [--results FILE]
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeJsonAtomic } from '../src/fs/writeFileAtomic.ts';
import type { OptimizationReport } from '../src/optimize/OptimizationReport.ts';
import { runProcess } from '../src/process/runProcess.ts';
import { createSandbox, setupSandbox } from '../src/sandbox/index.ts';
import { addTarget } from '../src/sandbox/ssh/addTarget.ts';
import { makePortHome } from '../test/helpers/portHome.ts';
import { sandboxSession, startSshStandIn } from '../test/helpers/sshStandIn.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    results: {
      type: 'string',
      default: join(homedir(), '.cache', 'rvport', 'bench', 'optimize-ssh.json'),
    },
    table: { type: 'boolean', default: false },
  },
});
const resultsFile = values.results as string;
const bin = new URL('../bin/rvport.js', import.meta.url).pathname;

interface Result {
  source: string;
  exitCode: number | null;
  result: string;
  portSeconds: number;
  optimizeSeconds: number;
  report: OptimizationReport | null;
  finishedAt: string;
}

const seconds = (ms: number | undefined) => Math.round((ms ?? 0) / 100) / 10;

async function measure(source: string): Promise<Result> {
  await setupSandbox({ mode: 'native-userland' });
  const instance = await createSandbox({ mode: 'emulated' });
  const standIn = await startSshStandIn(sandboxSession(instance));
  const home = makePortHome('rvport-bench-ssh-');
  // kept beside the results: report.md and state.json of the port
  const out = join(dirname(resultsFile), 'optimize-ssh-out');
  try {
    await addTarget({
      url: standIn.url,
      fingerprint: standIn.hostKeyFingerprint,
      identity: standIn.clientKey,
      name: 'standin',
      home,
    });
    const started = Date.now();
    const run = await runProcess({
      command: [
        process.execPath,
        bin,
        'port',
        source,
        '--target',
        'standin',
        '--offline',
        '--optimize',
        '--force',
        '--no-replay',
        '--json',
        '--out',
        out,
      ],
      env: { ...process.env, RVPORT_HOME: home },
      timeoutMs: 4 * 3600_000,
      captureBytes: 4 * 1024 * 1024,
    });
    const elapsed = Date.now() - started;
    let summary: Record<string, unknown> = {};
    try {
      summary = JSON.parse(run.stdout);
    } catch {}
    const stateFile = summary.outDir ? join(String(summary.outDir), 'state.json') : '';
    const state = stateFile && existsSync(stateFile) ? JSON.parse(readFileSync(stateFile, 'utf8')) : {};
    const optimizeMs = state.timings?.optimize ?? 0;
    return {
      source,
      exitCode: run.exitCode,
      result: String(summary.result ?? (run.timedOut ? 'timeout' : `exit ${run.exitCode}`)),
      portSeconds: seconds(elapsed - optimizeMs),
      optimizeSeconds: seconds(optimizeMs),
      report: state.optimization ?? null,
      finishedAt: new Date().toISOString(),
    };
  } finally {
    await standIn.stop();
    await instance.destroy();
    rmSync(home, { recursive: true, force: true });
  }
}

function table(result: Result): string {
  const report = result.report;
  const lines = [
    `${result.source}: ${result.result} (exit ${result.exitCode}), port ${result.portSeconds} s, ` +
      `performance mode ${result.optimizeSeconds} s, ${result.finishedAt}`,
    '',
  ];
  if (!report) return [...lines, 'no optimization report'].join('\n');
  lines.push(
    `target: ${report.target?.emulated ? 'emulated' : 'native'}; march ${report.target?.march ?? '-'}; ` +
      `workload: ${report.workload?.source ?? '-'} (${report.workload?.commands.join('; ') ?? '-'})`,
    '',
    '| tune | status | gates | timing (baseline vs tune medians, runs a side, p) |',
    '|---|---|---|---|',
  );
  for (const tune of report.tunes) {
    const gates = tune.gates.map((g) => `${g.name} ${g.passed ? 'passed' : 'failed'}`).join(', ');
    const t = tune.timing;
    const timing = t
      ? `${seconds(t.baselineMedianMs)} s vs ${seconds(t.tuneMedianMs)} s, ${t.runs}+${t.runs}, p=${t.p.toFixed(3)} (${t.method})`
      : '-';
    lines.push(
      `| ${tune.name} | ${tune.status}${tune.reason ? `: ${tune.reason}` : ''} | ${gates || '-'} | ${timing} |`,
    );
  }
  lines.push('', `winner: ${report.winner ?? 'none'}; verdict: ${report.verdict}`);
  return lines.join('\n');
}

if (values.table) {
  console.log(table(JSON.parse(readFileSync(resultsFile, 'utf8')) as Result));
} else {
  const result = await measure(positionals[0] ?? 'debian:lzo2');
  writeJsonAtomic(resultsFile, result);
  console.log(table(result));
}
