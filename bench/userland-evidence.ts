// What the per-build evidence of native-userland mode costs, and what it sees: builds an autotools
// package (`./configure && make`) from a checkout that ships its configure script, once on the
// host (native x86_64), once in accelerated mode, once in native-userland mode without evidence,
// and in native-userland mode with the recorder at each sample rate asked for. For each it prints
// the configure and make times, and for the evidence runs the calls recorded, the double runs and
// the verdict; the build trees of accelerated mode and of each evidence run are compared with
// compareBuildTrees (the referee's comparison, on the raw build rather than a whole port).
// Usage: nice -n 5 npx tsx bench/userland-evidence.ts [--samples 0,20] [--jobs 2] DIR…
//        nice -n 5 npx tsx bench/userland-evidence.ts --rounds 4 [--samples 20] DIR…  (the cost alone)
// Needs root and the provisioned accelerated and native-userland images.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ChrootSandbox } from '../src/sandbox/chroot/ChrootSandbox.ts';
import { createSandbox } from '../src/sandbox/createSandbox.ts';
import { collectUserlandEvidence } from '../src/sandbox/proof/collectUserlandEvidence.ts';
import { compareBuildTrees, formatDifference } from '../src/sandbox/proof/compareBuildTrees.ts';
import { EVIDENCE_LOG } from '../src/sandbox/proof/evidenceLayer.ts';
import { EVIDENCE_LOG_START } from '../src/sandbox/proof/readInvocationLog.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    samples: { type: 'string', default: '0,20' },
    jobs: { type: 'string', default: '2' },
    // only native-userland with and without evidence (twice without, for the noise), compared
    // with the native-userland tree: what the evidence costs, and that the recorder changes nothing
    'no-reference': { type: 'boolean', default: false },
    // the cost alone, against the noise of a shared machine: N rounds of one plain native-userland
    // build and one with evidence at the first sample rate, back to back, their order alternating
    // (ABBA), each round's overhead taken against its own plain build
    rounds: { type: 'string' },
  },
});
const samples = values.samples.split(',').map(Number);
const jobs = values.jobs;
const EPOCH = String(Math.floor(Date.now() / 1000));

interface Timing {
  configure: number;
  make: number;
}

const seconds = (start: number) => Math.round((Date.now() - start) / 100) / 10;

function hostBuild(dir: string): Timing | undefined {
  const copy = mkdtempSync(join(tmpdir(), 'rvport-ev-host-'));
  try {
    // cp -a: the times must survive, or make would want to run automake again
    execFileSync('cp', ['-a', '--', dir, join(copy, 'src')]);
    rmSync(join(copy, 'src', '.git'), { recursive: true, force: true });
    const env = { ...process.env, SOURCE_DATE_EPOCH: EPOCH };
    let t = Date.now();
    execFileSync('sh', ['-c', './configure >/dev/null'], { cwd: join(copy, 'src'), env, stdio: 'pipe' });
    const configure = seconds(t);
    t = Date.now();
    execFileSync('sh', ['-c', `make -j${jobs} >/dev/null 2>&1`], {
      cwd: join(copy, 'src'),
      env,
      stdio: 'pipe',
    });
    return { configure, make: seconds(t) };
  } catch {
    return undefined;
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

async function sandboxBuild(box: ChrootSandbox, dir: string): Promise<Timing> {
  await box.copyIn(dir, '/build/src');
  await box.run(['/native/usr/bin/rm', '-rf', '/build/src/.git']);
  // the copy's own calls are not the build's: the log starts again from its first line
  await box.run([
    '/native/usr/bin/sh',
    '-c',
    `if [ -e ${EVIDENCE_LOG} ]; then printf '%s\\n' "$1" > ${EVIDENCE_LOG}; fi`,
    'sh',
    EVIDENCE_LOG_START,
  ]);
  const env = { SOURCE_DATE_EPOCH: EPOCH, PYTHONHASHSEED: '0' };
  let t = Date.now();
  const configure = await box.run(['sh', '-c', './configure > /build/configure.out 2>&1'], {
    cwd: '/build/src',
    env,
    timeoutMs: 3_600_000,
  });
  if (configure.exitCode !== 0) throw new Error(`${basename(dir)}: configure failed in ${box.mode}`);
  const configureSeconds = seconds(t);
  t = Date.now();
  const make = await box.run(['sh', '-c', `make -j${jobs} > /build/make.out 2>&1`], {
    cwd: '/build/src',
    env,
    timeoutMs: 3_600_000,
  });
  if (make.exitCode !== 0) throw new Error(`${basename(dir)}: make failed in ${box.mode}`);
  return { configure: configureSeconds, make: seconds(t) };
}

async function timedBuild(dir: string, samplePerMille?: number) {
  const box = await createSandbox({
    mode: 'native-userland',
    ...(samplePerMille !== undefined ? { evidence: { samplePerMille } } : {}),
  });
  try {
    const t = await sandboxBuild(box, dir);
    const evidence = samplePerMille !== undefined ? await collectUserlandEvidence(box) : undefined;
    return { seconds: t.configure + t.make + (evidence?.evidenceSeconds ?? 0), evidence };
  } finally {
    await box.destroy().catch(() => {});
  }
}

if (values.rounds) {
  const rate = samples[0] ?? 20;
  console.log(`| package | round | plain native-userland | with evidence ${rate}‰ | overhead | evidence |`);
  console.log('|---|---|---|---|---|---|');
  for (const dir of positionals) {
    const overheads: number[] = [];
    for (let round = 1; round <= Number(values.rounds); round++) {
      const first = round % 2 === 1 ? 'plain' : 'evidence';
      const a = first === 'plain' ? await timedBuild(dir) : await timedBuild(dir, rate);
      const b = first === 'plain' ? await timedBuild(dir, rate) : await timedBuild(dir);
      const [plain, ev] = first === 'plain' ? [a, b] : [b, a];
      const overhead = Math.round((ev.seconds / plain.seconds - 1) * 1000) / 10;
      overheads.push(overhead);
      const e = ev.evidence;
      const verdict = e
        ? `${e.accepted ? 'accepted' : 'refused'}, ${e.invocations} calls, ${e.machine} machine-dependent, ${e.sampled} sampled, read in ${e.evidenceSeconds} s`
        : '-';
      console.log(
        `| ${basename(dir)} | ${round} (${first} first) | ${plain.seconds.toFixed(1)} s | ${ev.seconds.toFixed(1)} s | ${overhead >= 0 ? '+' : ''}${overhead} % | ${verdict} |`,
      );
    }
    const sorted = [...overheads].sort((x, y) => x - y);
    console.log(`| ${basename(dir)} | median | | | ${sorted[Math.floor(sorted.length / 2)]} % | |`);
  }
  process.exit(0);
}

const rows: string[] = [];
for (const dir of positionals) {
  const name = basename(dir);
  const reference = !values['no-reference'];
  const host = reference ? hostBuild(dir) : undefined;
  if (reference)
    rows.push(
      host
        ? `| ${name} | host x86_64 | ${host.configure} | ${host.make} | ${Math.round((host.configure + host.make) * 10) / 10} | - | - |`
        : `| ${name} | host x86_64 | failed | | | - | - |`,
    );
  const boxes: ChrootSandbox[] = [];
  try {
    let against: ChrootSandbox | undefined;
    if (reference) {
      const accelerated = await createSandbox({ mode: 'accelerated' });
      boxes.push(accelerated);
      against = accelerated;
      const acc = await sandboxBuild(accelerated, dir);
      rows.push(
        `| ${name} | accelerated | ${acc.configure} | ${acc.make} | ${Math.round((acc.configure + acc.make) * 10) / 10} | - | - |`,
      );
    }
    const native = await createSandbox({ mode: 'native-userland' });
    boxes.push(native);
    const nat = await sandboxBuild(native, dir);
    const base = nat.configure + nat.make;
    rows.push(
      `| ${name} | native-userland | ${nat.configure} | ${nat.make} | ${Math.round(base * 10) / 10} | - | - |`,
    );
    if (reference) {
      await native.destroy();
      boxes.pop();
    } else against = native;
    for (const samplePerMille of samples) {
      const box = await createSandbox({ mode: 'native-userland', evidence: { samplePerMille } });
      boxes.push(box);
      const ev = await sandboxBuild(box, dir);
      const evidence = await collectUserlandEvidence(box);
      const comparison = await compareBuildTrees(
        join((against as ChrootSandbox).workspace, 'src'),
        join(box.workspace, 'src'),
        [reference ? 'accelerated' : 'native-userland', 'evidence'],
      );
      const total = ev.configure + ev.make;
      const overhead = Math.round(((total + (evidence.evidenceSeconds ?? 0)) / base - 1) * 1000) / 10;
      const verdict = `${evidence.accepted ? 'accepted' : `refused: ${evidence.reason}`}; ${evidence.invocations} calls, ${evidence.machineChecked}/${evidence.machine} machine, ${evidence.sampled} sampled, ${evidence.skipped} skipped, ${evidence.differences.length} differing; read ${evidence.evidenceSeconds} s`;
      const referee = comparison.identical
        ? `identical (${comparison.files} files)`
        : `differs: ${comparison.differences.slice(0, 2).map(formatDifference).join('; ')}`;
      rows.push(
        `| ${name} | native-userland + evidence ${samplePerMille}‰ | ${ev.configure} | ${ev.make} | ${Math.round(total * 10) / 10} (${overhead >= 0 ? '+' : ''}${overhead} %) | ${verdict.replace(/\|/g, '\\|')} | ${referee.replace(/\|/g, '\\|')} |`,
      );
      await box.destroy();
      boxes.pop();
    }
    if (!reference) {
      const again = await createSandbox({ mode: 'native-userland' });
      boxes.push(again);
      const second = await sandboxBuild(again, dir);
      rows.push(
        `| ${name} | native-userland, again | ${second.configure} | ${second.make} | ${Math.round((second.configure + second.make) * 10) / 10} | - | - |`,
      );
    }
  } finally {
    for (const box of boxes) await box.destroy().catch(() => {});
  }
  console.log(rows.at(-1));
}
console.log(
  `| package | mode | configure s | make s | total s (vs native-userland) | evidence | vs ${values['no-reference'] ? 'native-userland' : 'accelerated'} (compareBuildTrees) |`,
);
console.log('|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
