// Debian's Rust crates and Go packages with dependencies, ported offline (no LLM) in emulated and
// accelerated mode. For a Cargo build the accelerated port uses the Rust layer (x86_64 cargo and
// rustc, riscv64 target); its target artifacts are compared with the emulated port's, file by
// file (the proof that the x86_64 build scripts and proc-macros changed nothing), and, in the kept
// accelerated instance, the same crate is built once more for x86_64 with the same cargo and rustc
// (the "native x86_64 cargo" figure: inside the sandbox, never on the host). Rows are appended to
// OUT/results.jsonl as each package finishes; --record writes the Rust proofs
// (src/port/run/rustProofs.json). Usage:
//   nice -n 5 npx tsx bench/rust-go-debian.ts [--record] [--out DIR] [--no-native] [--modes emulated,accelerated] [NAME…]
//   npx tsx bench/rust-go-debian.ts --table OUT/results.jsonl
// Needs root and `rvport sandbox setup --mode accelerated --rust`.
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { rvportHome } from '../src/config/rvportHome.ts';
import { loadRustProofs, saveRustProofs } from '../src/port/run/chooseRustLayer.ts';
import { compareRustTargets } from '../src/port/run/compareRustTargets.ts';
import { runPort } from '../src/port/run/runPort.ts';
import { listInstances } from '../src/sandbox/chroot/instanceStore.ts';
import { openSandbox } from '../src/sandbox/createSandbox.ts';
import { imageKeys } from '../src/sandbox/findImages.ts';
import { DEFAULT_SUITE } from '../src/sandbox/imageRecipes.ts';
import { RUST_HOST_LD_DIR, RUST_HOST_LINKER, RUST_TARGET } from '../src/sandbox/provision/rustLayerScript.ts';
import type { SandboxMode } from '../src/sandbox/Sandbox.ts';
import { sandboxPaths } from '../src/sandbox/sandboxPaths.ts';

/** Chosen for a spread of Build-Depends on other crates / Go libraries (counts in BENCHMARKS.md). */
export const RUST_PACKAGES = [
  'debian:rust-alloc-stdlib',
  'debian:rust-better-panic',
  'debian:rust-aead',
  'debian:rust-aes',
  'debian:rust-anstream',
  'debian:rust-auto-impl',
  'debian:rust-async-task',
  'debian:rust-bigdecimal',
];
export const GO_PACKAGES = [
  'debian:golang-fsnotify',
  'debian:golang-github-armon-go-socks5',
  'debian:golang-blackfriday-v2',
  'debian:golang-github-appc-cni',
  'debian:golang-github-aquasecurity-table',
  'debian:golang-code.rocketnine-tslocum-cview',
  'debian:golang-github-alecthomas-chroma',
  'debian:golang-ariga-atlas',
];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    record: { type: 'boolean', default: false },
    out: { type: 'string' },
    table: { type: 'boolean', default: false },
    'no-native': { type: 'boolean', default: false },
    // the modes to port in: a Go package's emulated port runs the go tool under qemu and proves
    // nothing the accelerated one does not (Go cross-compiles in both), so Go may skip it
    modes: { type: 'string', default: 'emulated,accelerated' },
  },
});

interface Run {
  mode: SandboxMode;
  result: string;
  buildSystem: string;
  rust?: string;
  buildSeconds: number;
  /** The build commands alone (cargo build, go build): the build node less its package installs. */
  compileSeconds?: number;
  totalSeconds: number;
  tests: string;
  /** The tests ran past their time limit: their artifacts are missing from this run's target. */
  testsTimedOut?: boolean;
  llmCalls: number;
  instance?: string;
  dir?: string;
}

interface Row {
  source: string;
  name: string;
  runs: Run[];
  proof?: {
    identical: boolean;
    files: number;
    differences: string[];
    metadataDiffering: number;
    /** Test artifacts only the accelerated run has, because the emulated tests ran out of time. */
    notCompared?: number;
  };
  nativeSeconds?: number;
  nativeNote?: string;
}

const round = (n: number) => Math.round(n * 10) / 10;

/** The build commands of the last attempt (a failed attempt's compile is not the crate's cost). */
function lastBuildMs(
  executed: ReadonlyArray<{ phase: string; attempt: number; durationMs: number }>,
): number {
  const builds = executed.filter((e) => e.phase === 'build');
  const last = Math.max(0, ...builds.map((e) => e.attempt));
  return builds.filter((e) => e.attempt === last).reduce((sum, e) => sum + e.durationMs, 0);
}

async function port(source: string, mode: SandboxMode, out: string, home: string): Promise<Run> {
  const paths = sandboxPaths(home);
  const before = new Set((await listInstances(paths)).map((i) => i.id));
  const result = await runPort(
    {
      source,
      maxAttempts: 5,
      force: true,
      optimize: false,
      package: false,
      restart: true,
      mode,
      out: join(out, mode),
      offline: true,
      costCapUsd: 0,
      keepSandbox: true,
      // the emulated run is the proof's reference; its replay (cargo under qemu-user) stood 90
      // minutes at a fork for rust-bigdecimal, and the accelerated run's replay checks the recipe
      replay: mode === 'emulated' ? false : undefined,
      env: { ...process.env, RVPORT_HOME: home },
    },
    { signal: new AbortController().signal, progress: () => {} },
  );
  const state = result.state;
  const kept = (await listInstances(paths)).find(
    (i) => !before.has(i.id) && i.ownerPid === process.pid && i.mode === mode,
  );
  const tests = state?.tests;
  return {
    mode,
    result: result.kind,
    buildSystem: state?.plan?.buildSystem ?? '-',
    ...(state?.options.modeReason?.includes('Rust: ')
      ? { rust: state.options.modeReason.split('Rust: ')[1] }
      : {}),
    buildSeconds: round((state?.timings.build ?? 0) / 1000),
    compileSeconds: round(lastBuildMs(state?.executed ?? []) / 1000),
    totalSeconds: round((state?.timings.total ?? 0) / 1000),
    tests: !tests ? 'not run' : tests.ran ? `${tests.passed} passed, ${tests.failed} failed` : tests.summary,
    testsTimedOut: /ran past the time limit/.test(tests?.summary ?? ''),
    llmCalls: state?.llm.calls ?? -1,
    ...(kept ? { instance: kept.id } : {}),
    ...(state?.plan ? { dir: state.plan.dir } : {}),
  };
}

/** The same crate for x86_64 with the same x86_64 cargo and rustc, in the kept accelerated instance. */
async function nativeCargo(run: Run): Promise<{ seconds?: number; note: string }> {
  if (!run.instance) return { note: 'no kept instance' };
  const box = await openSandbox(run.instance);
  const dir = `/build/src/${run.dir && run.dir !== '.' ? run.dir : ''}`;
  const result = await box.run(
    [
      '/bin/sh',
      '-c',
      'start=$(date +%s%N); cargo build --release --offline --target x86_64-unknown-linux-gnu >/tmp/native.log 2>&1; rc=$?; end=$(date +%s%N); echo "$rc $(( (end - start) / 1000000 ))"; tail -3 /tmp/native.log',
    ],
    {
      cwd: dir,
      env: {
        CARGO_TARGET_DIR: '/tmp/native-target',
        CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER: RUST_HOST_LINKER,
        RUSTFLAGS: `-C link-arg=-B${RUST_HOST_LD_DIR}/`,
      },
      timeoutMs: 60 * 60_000,
    },
  );
  const [rc, ms] = result.stdout.trim().split('\n')[0]?.split(' ') ?? [];
  if (rc !== '0')
    return { note: `x86_64 build failed: ${result.stdout.trim().split('\n').slice(1).join(' ')}` };
  return { seconds: round(Number(ms) / 1000), note: 'x86_64 cargo and rustc in the accelerated instance' };
}

function row(r: Row): string {
  const of = (mode: SandboxMode) => r.runs.find((x) => x.mode === mode);
  const cell = (mode: SandboxMode) => {
    const x = of(mode);
    if (!x) return '-';
    const compile = x.compileSeconds !== undefined ? ` (compile ${x.compileSeconds} s)` : '';
    return `${x.result}, ${x.buildSeconds} s${compile}, tests ${x.tests}, ${x.llmCalls} LLM calls`;
  };
  const proof = !r.proof
    ? '-'
    : r.proof.identical
      ? `identical (${r.proof.files} files; crate metadata differs in ${r.proof.metadataDiffering}${r.proof.notCompared ? `; ${r.proof.notCompared} test files only the accelerated run finished, not compared` : ''})`
      : `differs (${r.proof.files} files): ${(r.proof.differences[0] ?? '').replace(/\|/g, '\\|')}`;
  const native = r.nativeSeconds !== undefined ? `${r.nativeSeconds} s` : (r.nativeNote ?? '-');
  const compiled = of('accelerated')?.compileSeconds;
  const ratio =
    r.nativeSeconds !== undefined && r.nativeSeconds > 0 && compiled !== undefined
      ? `${(compiled / r.nativeSeconds).toFixed(2)}×`
      : '-';
  return `| ${r.name} | ${of('accelerated')?.buildSystem ?? of('emulated')?.buildSystem ?? '-'} | ${cell('emulated')} | ${cell('accelerated')} | ${native} | ${ratio} | ${proof} |`;
}

function table(rows: readonly Row[]): string {
  return [
    '| package | build | emulated | accelerated | native x86_64 cargo | accelerated compile / native | accelerated vs emulated artifacts |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(row),
  ].join('\n');
}

if (values.table) {
  const rows = positionals.flatMap((f) =>
    readFileSync(f, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Row),
  );
  console.log(table(rows));
} else {
  const home = rvportHome();
  const out = values.out ?? mkdtempSync(join(tmpdir(), 'rvport-rust-go-'));
  mkdirSync(out, { recursive: true });
  const results = join(out, 'results.jsonl');
  const done = new Set(
    existsSync(results)
      ? readFileSync(results, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => (JSON.parse(l) as Row).source)
      : [],
  );
  const modes = values.modes.split(',');
  const unknown = modes.filter((m) => m !== 'emulated' && m !== 'accelerated');
  if (unknown.length) throw new Error(`--modes: unknown mode ${unknown.join(', ')}`);
  const paths = sandboxPaths(home);
  const rustLayer = imageKeys(DEFAULT_SUITE).rust;
  const sources = positionals.length > 0 ? positionals : [...RUST_PACKAGES, ...GO_PACKAGES];
  for (const source of sources) {
    if (done.has(source)) continue;
    const runs: Run[] = [];
    for (const mode of ['emulated', 'accelerated'] as const) {
      if (!modes.includes(mode)) continue;
      const run = await port(source, mode, out, home);
      runs.push(run);
      console.error(`${source} ${mode}: ${run.result}, build ${run.buildSeconds} s, tests ${run.tests}`);
    }
    const r: Row = { source, name: source.replace(/^debian:/, ''), runs };
    const emulated = runs.find((x) => x.mode === 'emulated');
    const accelerated = runs.find((x) => x.mode === 'accelerated');
    if (accelerated?.buildSystem === 'cargo' && emulated?.instance && accelerated.instance) {
      const at = (id: string) =>
        join(paths.instance(id), 'build', 'src', accelerated.dir ?? '.', 'target', RUST_TARGET);
      if (existsSync(at(emulated.instance)) && existsSync(at(accelerated.instance))) {
        const compared = compareRustTargets(at(emulated.instance), at(accelerated.instance));
        // the emulated tests ran out of time: what only the accelerated run has is theirs (the
        // test programs and dev-dependencies), not the build's, and is left out of the proof
        const unfinished = emulated.testsTimedOut === true;
        const missing = unfinished
          ? compared.differences.filter((d) => d.endsWith(': only in the accelerated build'))
          : [];
        const differences = compared.differences.filter((d) => !missing.includes(d));
        const c = { ...compared, identical: differences.length === 0, differences };
        r.proof = {
          identical: c.identical,
          files: c.files,
          differences: c.differences.slice(0, 20),
          metadataDiffering: c.metadataDiffering.length,
          ...(missing.length ? { notCompared: missing.length } : {}),
        };
        if (values.record && accelerated.rust?.startsWith('x86_64')) {
          const table = loadRustProofs();
          table.command = 'bench/rust-go-debian.ts --record';
          table.proofs[r.name] = {
            identical: c.identical,
            layer: rustLayer,
            files: c.files,
            differences: r.proof.differences,
            checkedAt: new Date().toISOString(),
          };
          await saveRustProofs(table);
        }
      }
      if (!values['no-native'] && accelerated.rust?.startsWith('x86_64')) {
        const native = await nativeCargo(accelerated);
        if (native.seconds !== undefined) r.nativeSeconds = native.seconds;
        r.nativeNote = native.note;
      }
    }
    for (const run of runs) if (run.instance) await (await openSandbox(run.instance)).destroy();
    appendFileSync(results, `${JSON.stringify(r)}\n`);
    console.log(row(r));
  }
  console.log(
    `\n${table(
      readFileSync(results, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Row),
    )}`,
  );
  console.error(`results: ${results}`);
}
