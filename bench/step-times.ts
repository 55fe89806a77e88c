// Where a port's time goes, per kind of build command: installing packages, bootstrapping
// (autoreconf, autogen.sh), configuring (configure, cmake, meson setup), building (make, ninja,
// cmake --build, go, cargo), and the rest, read from each port's build.log (`### [step] … $ cmd`
// then `### exit N after S s`), with the port's own node timings from state.json. It measures the
// emulated costs issue 17 names (CMake's configure, meson and ninja under an emulated python,
// configure's shell) on ports that already ran, in every mode they ran in.
// Usage:
//   npx tsx bench/step-times.ts [--markdown] PORT_OUTPUT_DIR…
//   e.g. npx tsx bench/step-times.ts ~/.cache/rvport/bench/cmp-auto/*/*
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { markdown: { type: 'boolean', default: false } },
});

const KINDS = ['packages', 'bootstrap', 'configure', 'build', 'other'] as const;
type Kind = (typeof KINDS)[number];

/** The kind of one logged command: its step name first, then what the command runs. */
function kindOf(step: string, command: string): Kind {
  if (step === 'packages') return 'packages';
  if (step === 'bootstrap' || /\b(autoreconf|autogen\.sh|bootstrap(\.sh)?)\b/.test(command))
    return 'bootstrap';
  if (
    step === 'configure' ||
    /(^|[;&|(]\s*|\s)(\.\/configure|cmake\s+(-S|-B|\.\.?)|meson\s+setup)\b/.test(command)
  )
    return /\bcmake\s+--build\b/.test(command) ? 'build' : 'configure';
  if (step === 'build' || /\b(make|ninja|go build|cargo build)\b/.test(command)) return 'build';
  return 'other';
}

interface StepTimes {
  seconds: Record<Kind, number>;
  commands: number;
}

/** Sums a build.log's command times by kind. */
function stepTimes(log: string): StepTimes {
  const seconds = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;
  let current: Kind | null = null;
  let commands = 0;
  for (const line of log.split('\n')) {
    const start = /^### \[([\w-]+)\](?: \([^)]*\))*(?: \(in [^)]*\))? \$ (.*)$/.exec(line);
    if (start) {
      current = kindOf(start[1] ?? '', start[2] ?? '');
      continue;
    }
    const end = /^### exit -?\d+ after ([\d.]+) s$/.exec(line);
    if (end && current) {
      seconds[current] += Number(end[1]);
      commands++;
      current = null;
    }
  }
  for (const k of KINDS) seconds[k] = Math.round(seconds[k] * 10) / 10;
  return { seconds, commands };
}

function nodeTimes(dir: string): Record<string, number> {
  const file = join(dir, 'state.json');
  if (!existsSync(file)) return {};
  const timings =
    (JSON.parse(readFileSync(file, 'utf8')) as { timings?: Record<string, number> }).timings ?? {};
  return Object.fromEntries(Object.entries(timings).map(([k, ms]) => [k, Math.round(ms / 100) / 10]));
}

{
  const rows = positionals
    .filter((dir) => existsSync(join(dir, 'build.log')))
    .map((dir) => ({
      name: basename(dir),
      mode: basename(dirname(dir)),
      ...stepTimes(readFileSync(join(dir, 'build.log'), 'utf8')),
      nodes: nodeTimes(dir),
    }));
  if (!values.markdown) {
    for (const row of rows) console.log(JSON.stringify(row));
  } else {
    console.log(`| package | mode | ${KINDS.join(' | ')} | build node | tests node |`);
    console.log(`|---|---|${KINDS.map(() => '---|').join('')}---|---|`);
    for (const r of rows) {
      const cells = KINDS.map((k) => (r.seconds[k] ? `${r.seconds[k]} s` : '-'));
      console.log(
        `| ${r.name} | ${r.mode} | ${cells.join(' | ')} | ${r.nodes.build ?? '-'} s | ${r.nodes.audit ?? r.nodes.test ?? '-'} s |`,
      );
    }
  }
}
