// Port time on a list: ports every SOURCE of a list with `rvport batch --workers 2 --offline` (no
// LLM) in an RVPORT_HOME of the run's own (the machine's images, a private recipe cache, so no
// entry answers from an earlier run), then prints median, p90 and max port time (all ports,
// verified ports, verified ports by mode) and where the time went (the port graph's nodes from
// each state.json), one row per port, slowest first. Resumable: run it again with the same --out
// and the batch ports only the entries it has no result for yet. Usage:
//   npx tsx bench/port-times.ts --out DIR (--corpus wide|public | LIST | NAME…) [--workers N]
//   npx tsx bench/port-times.ts --out DIR --table        (the tables of what DIR holds)
//   npx tsx bench/port-times.ts --out DIR --table --without-undoubted-replays
//       (the same ports with the replays taken out that the default rule now skips)
// A corpus list's names are ported as debian:NAME. The tables also go to DIR/port-times.md and
// every port's row to DIR/port-times.jsonl.
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type PortTime, renderPortTimes } from '../src/batch/portTimes.ts';
import { writeFileAtomic } from '../src/fs/writeFileAtomic.ts';
import { replayDoubt } from '../src/port/replay/replayDoubt.ts';
import { runProcess } from '../src/process/runProcess.ts';
import { corpusDir } from '../test/helpers/corpus.ts';
import { makePortHome } from '../test/helpers/portHome.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    out: { type: 'string' },
    corpus: { type: 'string' },
    workers: { type: 'string', default: '2' },
    table: { type: 'boolean', default: false },
    // what the default replay rule since 07fe4ea saves on ports run before it: each verified
    // port's replay taken out of its wall time where replayDoubt finds nothing to doubt
    'without-undoubted-replays': { type: 'boolean', default: false },
  },
});
if (!values.out) {
  console.error('usage: npx tsx bench/port-times.ts --out DIR (--corpus wide|public | LIST | NAME…)');
  process.exit(2);
}
const out = resolve(values.out);
const portsDir = join(out, 'ports');
mkdirSync(out, { recursive: true });

/** The sources to port: a corpus list's names as debian:NAME, a list file, or names given. */
function sources(): string[] {
  const names = (text: string) =>
    text
      .split('\n')
      .map((l) => l.replace(/#.*/, '').trim())
      .filter(Boolean);
  if (values.corpus) {
    return names(readFileSync(join(corpusDir, `${values.corpus}.txt`), 'utf8')).map((n) =>
      n.includes(':') || n.includes('/') ? n : `debian:${n}`,
    );
  }
  if (positionals.length === 1 && existsSync(positionals[0] as string)) {
    return names(readFileSync(positionals[0] as string, 'utf8'));
  }
  return positionals.map((n) => (n.includes(':') || n.includes('/') ? n : `debian:${n}`));
}

if (!values.table) {
  const list = sources();
  if (list.length === 0) {
    console.error('port-times: nothing to port');
    process.exit(2);
  }
  // the run's own home, kept beside the results so that a second run resumes with it
  const homeFile = join(out, 'home');
  const home = existsSync(homeFile)
    ? readFileSync(homeFile, 'utf8').trim()
    : makePortHome('rvport-bench-port-times-home-');
  if (!existsSync(homeFile)) await writeFileAtomic(homeFile, `${home}\n`);
  await writeFileAtomic(join(out, 'list.txt'), `${list.join('\n')}\n`);
  console.error(
    `port-times: ${list.length} sources, ${values.workers} at a time; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const bin = new URL('../bin/rvport.js', import.meta.url).pathname;
  const batch = await runProcess({
    command: [
      process.execPath,
      bin,
      'batch',
      join(out, 'list.txt'),
      '--workers',
      values.workers,
      '--offline',
      '--out',
      portsDir,
    ],
    env: { ...process.env, RVPORT_HOME: home },
    timeoutMs: 24 * 60 * 60_000,
    captureBytes: 1024 * 1024,
    onStderr: (chunk: Buffer) => process.stderr.write(chunk),
  });
  console.error(`port-times: batch exit ${batch.exitCode}`);
}

/** The last result of each entry (results.jsonl), with the port's mode and node timings. */
function readPorts(): PortTime[] {
  const file = join(portsDir, 'results.jsonl');
  if (!existsSync(file)) return [];
  const last = new Map<string, { name: string | null; verdict: string; wallMs: number; source: string }>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const row = JSON.parse(line);
    last.set(row.key, row);
  }
  return [...last.values()].map((row) => {
    const name = row.name ?? row.source;
    const stateFile = join(portsDir, name, 'state.json');
    let mode: string | null = null;
    let phases: Record<string, number> = {};
    let wallMs = row.wallMs;
    if (row.name && existsSync(stateFile) && statSync(stateFile).size < 64 * 1024 * 1024) {
      const state = JSON.parse(readFileSync(stateFile, 'utf8'));
      mode = state.options?.mode ?? null;
      // `total` is the sum of the others
      const { total: _total, ...nodes } = (state.timings ?? {}) as Record<string, number>;
      phases = nodes;
      if (values['without-undoubted-replays'] && state.replay?.replayed !== 'skipped' && phases.replay) {
        if (replayDoubt(state).length === 0) {
          wallMs -= phases.replay;
          phases = { ...phases, replay: 0 };
        }
      }
    }
    return { name, verdict: row.verdict, mode, wallMs, phases };
  });
}

const ports = readPorts();
const table = renderPortTimes(ports);
const suffix = values['without-undoubted-replays'] ? '-without-undoubted-replays' : '';
await writeFileAtomic(
  join(out, `port-times${suffix}.jsonl`),
  `${ports.map((p) => JSON.stringify(p)).join('\n')}\n`,
);
await writeFileAtomic(join(out, `port-times${suffix}.md`), table);
process.stdout.write(table);
