// What a port's packages step costs: the same packages installed in fresh instances of a mode, as
// the build node installs Build-Depends (createSandbox's stack with its apt layer, then
// installPackages: apt lists the downloads, the .debs come from the host's cache, apt and dpkg
// install them under emulation). Prints one JSON line per install: wall seconds and the CPU
// seconds of the sandbox's processes (this process's reaped children), with the commit measured, so
// runs of two commits can be put side by side (alternate them: the machine's load moves).
// Needs root and a provisioned sandbox. Usage:
//   nice -n 5 npx tsx bench/package-install.ts [--mode native-userland] [--rounds 3] PKG…
//   e.g. npx tsx bench/package-install.ts texinfo zlib1g-dev
// --slowest N also prints, on stderr, the N output lines after which the install was silent
// longest (a `Setting up X` line followed by a long gap is X's maintainer script or a trigger).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createSandbox } from '../src/sandbox/createSandbox.ts';
import type { SandboxMode } from '../src/sandbox/Sandbox.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    mode: { type: 'string', default: 'native-userland' },
    rounds: { type: 'string', default: '3' },
    slowest: { type: 'string', default: '0' },
  },
});
const packages = positionals.length > 0 ? positionals : ['texinfo', 'zlib1g-dev'];
const code = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
  cwd: import.meta.dirname,
  encoding: 'utf8',
}).trim();

/** CPU seconds of this process's waited-for children (utime + stime of RUSAGE_CHILDREN). */
function childrenCpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // after the name: state is field 3, cutime 16 and cstime 17 (1-based in proc(5))
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** The lines after which the output was silent longest: what ran then. */
function printSlowest(lines: readonly { at: number; text: string }[], count: number): void {
  const gaps = lines.slice(0, -1).map((line, i) => ({
    seconds: ((lines[i + 1]?.at ?? line.at) - line.at) / 1000,
    after: line.text.slice(0, 120),
  }));
  gaps.sort((a, b) => b.seconds - a.seconds);
  for (const gap of gaps.slice(0, count)) console.error(`${gap.seconds.toFixed(1)} s after: ${gap.after}`);
}

for (let round = 1; round <= Number(values.rounds); round++) {
  const box = await createSandbox({ mode: values.mode as SandboxMode });
  try {
    const cpu = childrenCpuSeconds();
    const started = Date.now();
    const lines: { at: number; text: string }[] = [];
    let pending = '';
    const onStdout = (chunk: Buffer) => {
      const parts = (pending + chunk.toString('utf8')).split('\n');
      pending = parts.pop() ?? '';
      for (const text of parts) lines.push({ at: Date.now(), text });
    };
    const result = await box.installPackages(packages, { timeoutMs: 30 * 60_000, onStdout });
    lines.push({ at: Date.now(), text: '(end)' });
    printSlowest(lines, Number(values.slowest));
    if (result.exitCode !== 0) throw new Error(`install failed: ${result.stderr.slice(-400)}`);
    console.log(
      JSON.stringify({
        code,
        mode: values.mode,
        packages: packages.join(' '),
        round,
        seconds: (Date.now() - started) / 1000,
        cpuSeconds: Math.round((childrenCpuSeconds() - cpu) * 10) / 10,
      }),
    );
  } finally {
    await box.destroy();
  }
}
