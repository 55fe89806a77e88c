// Sandbox benchmark: instance start-up, and the same builds accelerated vs emulated vs natively on
// x86_64 with the host's gcc, measured in one run. Needs root and a provisioned sandbox
// (`rvport sandbox setup`) and the sources fetched with the corpus script:
//   ../shared/corpus/fetch-debian-source /tmp/bench-src libzstd lzo2 golang-toml
//   npx tsx bench/sandbox.ts --src /tmp/bench-src [--no-emulated-go] [--only NAME] [--modes a,b]
// (libsodium: `rvport`'s corpus cache holds it; --src ~/.cache/rvport/corpus works for all four.)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runProcess } from '../src/process/runProcess.ts';
import { imageTree } from '../src/sandbox/imageStore.ts';
import { createSandbox, findImages, type SandboxMode, sandboxPaths } from '../src/sandbox/index.ts';

const { values } = parseArgs({
  options: {
    src: { type: 'string', default: '/tmp/bench-src' },
    'no-emulated-go': { type: 'boolean', default: false },
    only: { type: 'string' },
    modes: { type: 'string', default: 'native-userland,accelerated,emulated' },
  },
});
const src = values.src as string;
const modes = (values.modes as string).split(',') as SandboxMode[];

interface Build {
  name: string;
  kind: string;
  /** Shell command run in the source tree (inside the sandbox at /build, on the host in a copy). */
  script: string;
  /**
   * Run once, untimed, in a native-userland instance before the timed builds, which all start from
   * its result (the host has no autotools to run `autoreconf` itself).
   */
  prepare?: string;
}

const BUILDS: Build[] = [
  { name: 'libzstd', kind: 'compile-heavy C (lib/libzstd.a, -O3)', script: 'make -C lib -j2 libzstd.a' },
  {
    name: 'lzo2',
    kind: 'configure-heavy C (./configure && make)',
    script: './configure --quiet && make -j2 --quiet',
  },
  {
    name: 'libsodium',
    kind: 'configure-heavy C, autoreconf done before (./configure && make)',
    script: './configure --quiet && make -j2 --quiet',
    prepare: 'autoreconf -fi',
  },
  {
    name: 'libsodium',
    kind: 'autoreconf -fi && ./configure && make (sandbox only)',
    script: 'autoreconf -fi && ./configure --quiet && make -j2 --quiet',
  },
];
const GO_BUILD = 'go build ./... && go test -count=1 ./...';

const results: Array<{ what: string; mode: string; seconds: number; ok: boolean }> = [];
const log = (line: string) => process.stderr.write(`${line}\n`);

/** Where each build's sources are: the corpus tree, or its prepared copy. */
const sourceOf = new Map<string, string>();

async function prepared(build: Build): Promise<string> {
  const dir = join(src, build.name);
  if (!build.prepare) return dir;
  const box = await createSandbox({ mode: 'native-userland' });
  await runProcess({ command: ['cp', '-a', `${dir}/.`, box.workspace] });
  const result = await box.run(['sh', '-c', build.prepare], { timeoutMs: 30 * 60_000 });
  if (result.exitCode !== 0) throw new Error(`${build.prepare} failed:\n${result.stderr.slice(-2000)}`);
  const copy = await mkdtemp(join(tmpdir(), `rvport-bench-prepared-${build.name}-`));
  await runProcess({ command: ['cp', '-a', `${box.workspace}/.`, copy] });
  await box.destroy();
  return copy;
}

async function timeInSandbox(mode: SandboxMode, name: string, script: string, extra?: string[]) {
  const box = await createSandbox({ mode });
  try {
    await runProcess({ command: ['cp', '-a', `${sourceOf.get(name) ?? join(src, name)}/.`, box.workspace] });
    if (extra) {
      const install = await box.installPackages(extra, { timeoutMs: 30 * 60_000 });
      log(`  ${mode}: apt-get install ${extra.join(' ')}: ${(install.durationMs / 1000).toFixed(1)} s`);
      results.push({
        what: `apt-get install ${extra.join(' ')}`,
        mode,
        seconds: install.durationMs / 1000,
        ok: install.exitCode === 0,
      });
    }
    const result = await box.run(['sh', '-c', script], { timeoutMs: 60 * 60_000 });
    if (result.exitCode !== 0) log(result.stderr.slice(-2000));
    return { seconds: result.durationMs / 1000, ok: result.exitCode === 0 };
  } finally {
    await box.destroy();
  }
}

async function timeOnHost(name: string, script: string, command?: (dir: string) => string[]) {
  const dir = await mkdtemp(join(tmpdir(), `rvport-bench-${name}-`));
  try {
    await runProcess({ command: ['cp', '-a', `${sourceOf.get(name) ?? join(src, name)}/.`, dir] });
    const result = await runProcess({
      command: command ? command(dir) : ['sh', '-c', script],
      cwd: dir,
      timeoutMs: 60 * 60_000,
    });
    if (result.exitCode !== 0) log(result.stderr.slice(-2000));
    // a command may time its own build part, leaving out an untimed warm-up
    const own = Number(/BUILD_NS=(\d+)/.exec(result.stdout)?.[1]) / 1e9;
    return {
      seconds: Number.isFinite(own) && own > 0 ? own : result.durationMs / 1000,
      ok: result.exitCode === 0,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function record(what: string, mode: string, r: { seconds: number; ok: boolean }) {
  results.push({ what, mode, ...r });
  log(`  ${what} ${mode}: ${r.seconds.toFixed(1)} s${r.ok ? '' : ' (FAILED)'}`);
}

// Start-up: a new instance on the cached image, up to the first command's exit.
const startups: number[] = [];
for (let i = 0; i < 5; i++) {
  const started = performance.now();
  const box = await createSandbox({ mode: 'accelerated' });
  await box.run(['true']);
  startups.push((performance.now() - started) / 1000);
  await box.destroy();
}
startups.sort((a, b) => a - b);
record('instance start-up (create + `true`), median of 5', 'accelerated', {
  seconds: startups[2] ?? 0,
  ok: true,
});

for (const build of BUILDS) {
  if (values.only && values.only !== build.name) continue;
  log(`${build.name}: ${build.script}`);
  sourceOf.set(build.name, await prepared(build));
  const what = `${build.name}: ${build.script}`;
  if (build.prepare || !build.script.includes('autoreconf')) {
    record(what, 'native x86_64 (host gcc)', await timeOnHost(build.name, build.script));
  }
  for (const mode of modes) record(what, mode, await timeInSandbox(mode, build.name, build.script));
  sourceOf.delete(build.name);
}

if (!values.only || values.only === 'golang-toml') {
  log(`golang-toml: ${GO_BUILD}`);
  // Native: the same Go toolchain (the tools tree's) building for amd64, run in that tree.
  const { tools } = await findImages();
  const toolsTree = imageTree(sandboxPaths(), tools?.key ?? '');
  record(
    'golang-toml',
    'native x86_64 (same go, GOARCH=amd64, no cgo, std prebuilt)',
    await timeOnHost('golang-toml', GO_BUILD, (dir) => [
      'unshare',
      '--mount',
      '--',
      'sh',
      '-c',
      `mount -t proc proc ${toolsTree}/proc && mount --bind ${dir} ${toolsTree}/mnt && chroot ${toolsTree} env -i PATH=/usr/bin:/bin HOME=/mnt/.home GOCACHE=/mnt/.gocache GOARCH=amd64 CGO_ENABLED=0 GOFLAGS=-buildvcs=false sh -c 'cd /mnt && go build std && s=$(date +%s%N) && ${GO_BUILD} && echo BUILD_NS=$(($(date +%s%N) - s))'`,
    ]),
  );
  record(
    'golang-toml',
    'accelerated',
    await timeInSandbox('accelerated', 'golang-toml', `GOFLAGS=-buildvcs=false ${GO_BUILD}`),
  );
  if (!values['no-emulated-go']) {
    record(
      'golang-toml',
      'emulated',
      await timeInSandbox('emulated', 'golang-toml', `GOFLAGS=-buildvcs=false ${GO_BUILD}`, ['golang-go']),
    );
  }
}

console.log('| build | mode | wall time (s) |');
console.log('|---|---|---|');
for (const r of results)
  console.log(
    `| ${r.what} | ${r.mode} | ${r.seconds.toFixed(r.seconds < 10 ? 2 : 1)}${r.ok ? '' : ' FAILED'} |`,
  );
console.log(`\n${JSON.stringify(results)}`);
