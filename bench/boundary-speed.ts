// What the sandbox boundary costs: ports the same packages with two rvport checkouts on the same
// images, interleaved (before, after, before, after …) so that machine load falls on both alike,
// and prints the build node's time and the whole port's time of each. The "before" checkout is a
// commit from before the change (a git worktree), the "after" one this checkout.
// Usage:
//   npx tsx bench/boundary-speed.ts --before DIR [--mode native-userland] [--rounds 2] [--out DIR] NAME…
// Results are appended to OUT/results.jsonl as each port finishes; a run resumes from it.
import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { rvportHome } from '../src/config/rvportHome.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    before: { type: 'string' },
    mode: { type: 'string', default: 'native-userland' },
    rounds: { type: 'string', default: '2' },
    out: { type: 'string' },
  },
});
if (!values.before || positionals.length === 0) {
  console.error(
    'usage: npx tsx bench/boundary-speed.ts --before DIR [--mode M] [--rounds N] [--out DIR] NAME…',
  );
  process.exit(2);
}
const checkouts = { before: resolve(values.before), after: resolve(import.meta.dirname, '..') };
const out = resolve(values.out ?? mkdtempSync(join(tmpdir(), 'rvport-boundary-speed-')));
mkdirSync(out, { recursive: true });
const resultsFile = join(out, 'results.jsonl');

interface Row {
  name: string;
  checkout: 'before' | 'after';
  round: number;
  result: string;
  buildSeconds: number;
  portSeconds: number;
  load: number;
}

const done: Row[] = existsSync(resultsFile)
  ? readFileSync(resultsFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Row)
  : [];

/** A home of its own per checkout (recipes, runs), sharing the machine's images and indexes. */
function homeFor(checkout: string): string {
  const home = join(out, `home-${checkout}`);
  if (existsSync(home)) return home;
  mkdirSync(home, { recursive: true });
  const shared = rvportHome();
  symlinkSync(join(shared, 'sandbox'), join(home, 'sandbox'));
  if (existsSync(join(shared, 'debian-contents')))
    symlinkSync(join(shared, 'debian-contents'), join(home, 'debian-contents'));
  return home;
}

for (let round = 1; round <= Number(values.rounds); round++) {
  for (const name of positionals) {
    for (const checkout of ['before', 'after'] as const) {
      if (done.some((r) => r.name === name && r.checkout === checkout && r.round === round)) continue;
      const portOut = join(out, `${checkout}-${round}`);
      rmSync(join(portOut, name), { recursive: true, force: true });
      const started = performance.now();
      const load = loadavg()[0] ?? 0;
      let result = 'verified';
      try {
        execFileSync(
          process.execPath,
          [
            join(checkouts[checkout], 'bin/rvport.js'),
            'port',
            `debian:${name}`,
            '--offline',
            '--force',
            '--restart',
            '--mode',
            values.mode ?? 'native-userland',
            '--out',
            portOut,
          ],
          { env: { ...process.env, RVPORT_HOME: homeFor(checkout) }, stdio: ['ignore', 'ignore', 'pipe'] },
        );
      } catch (error) {
        result = `exit ${(error as { status?: number }).status}`;
      }
      const portSeconds = Math.round((performance.now() - started) / 100) / 10;
      const state = JSON.parse(readFileSync(join(portOut, name, 'state.json'), 'utf8')) as {
        timings: Record<string, number>;
      };
      const row: Row = {
        name,
        checkout,
        round,
        result,
        buildSeconds: Math.round((state.timings.build ?? 0) / 100) / 10,
        portSeconds,
        load: Math.round(load * 10) / 10,
      };
      appendFileSync(resultsFile, `${JSON.stringify(row)}\n`);
      done.push(row);
      console.error(
        `${name} ${checkout} round ${round}: ${result}, build ${row.buildSeconds} s, port ${portSeconds} s, load ${row.load}`,
      );
    }
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length
    ? ((s[Math.floor((s.length - 1) / 2)] ?? 0) + (s[Math.ceil((s.length - 1) / 2)] ?? 0)) / 2
    : Number.NaN;
};
console.log('| package | build before (s) | build after (s) | change | port before (s) | port after (s) |');
console.log('|---|---|---|---|---|---|');
for (const name of positionals) {
  const rows = (c: 'before' | 'after') => done.filter((r) => r.name === name && r.checkout === c);
  const b = median(rows('before').map((r) => r.buildSeconds));
  const a = median(rows('after').map((r) => r.buildSeconds));
  const pb = median(rows('before').map((r) => r.portSeconds));
  const pa = median(rows('after').map((r) => r.portSeconds));
  const f = (x: number) => x.toFixed(1);
  console.log(
    `| ${name} | ${f(b)} | ${f(a)} | ${(((a - b) / b) * 100).toFixed(1)} % | ${f(pb)} | ${f(pa)} |`,
  );
}
const all = (c: 'before' | 'after') =>
  positionals.reduce(
    (sum, name) =>
      sum + median(done.filter((r) => r.name === name && r.checkout === c).map((r) => r.buildSeconds)),
    0,
  );
console.log(
  `| all | ${all('before').toFixed(1)} | ${all('after').toFixed(1)} | ${(((all('after') - all('before')) / all('before')) * 100).toFixed(1)} % | | |`,
);
console.log(
  `\n(${out}/results.jsonl; medians of up to ${values.rounds} interleaved rounds, mode ${values.mode})`,
);
