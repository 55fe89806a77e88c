// The fresh-machine check: what a new user gets on a new Debian 12 machine. It builds a minimal
// Debian 12 root (mmdebstrap --variant=minbase, nothing else), installs this machine's nodejs
// package into it (Debian 12 has no Node 20; the package is rebuilt from this machine with
// dpkg-repack, its dependencies come from the root's apt sources), copies in a clean export of the
// checkout (HEAD, no node_modules, no dist) and rvport_VERSION_all.deb built from the same HEAD,
// and there, as root with no package of this machine's but nodejs, runs the README's commands
// exactly as written: `npm ci`, `./bin/rvport.js port debian:cjson` (which provisions the sandbox
// from nothing), `npm link` and a workflow file in a folder of its own. `rvport doctor` runs
// before (it must fail, naming the fix) and after (it must pass). Then the README's Install
// section: `apt-get install ./rvport_VERSION_all.deb` (its Depends are first checked to resolve on
// the bare machine), and the installed rvport ports debian:cjson from /tmp/somewhere and passes
// doctor. Last the dashboard: the installed `rvport serve --out /tmp/somewhere/rvport-out --port N`
// runs in the root (which shares this machine's network) until it answers, and this machine's
// Chromium, the user's browser, checks it with playwright-core (scripts/dashboard-check.ts): the
// table of ports lists cjson verified, the search narrows it, cjson's page shows its report and a
// riscv64 artifact downloads with the sha256 it lists. Then the server's process group is killed,
// and nothing of it may be left. Prints the steps with their times as a Markdown table; exit 0
// only when every step did what a new user expects.
//
//   npx tsx scripts/fresh-machine.ts [--keep] [--mirror URL]
//
// Needs root (mmdebstrap, mounts), mmdebstrap, util-linux, dpkg-repack, dpkg-deb and chromium
// (or RVPORT_CHROMIUM) on this machine, and the checkout's node_modules (`npm ci`: the .deb is
// built with them, playwright-core drives the browser). The root lives in a temporary folder and
// is removed at the end (--keep leaves it). The root gets this machine's CA bundle, since npm's
// registry is reached through it here, and its resolv.conf; nothing else.
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { debianMirror } from '../src/debian/debianMirror.ts';
import { type ProcessResult, type RunProcessOptions, runProcess } from '../src/process/runProcess.ts';
import { checkDashboard } from './dashboard-check.ts';

const { values } = parseArgs({
  options: { keep: { type: 'boolean', default: false }, mirror: { type: 'string' } },
});
const repo = resolve(import.meta.dirname, '..');
const { version } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string };
const rvportDeb = `rvport_${version}_all.deb`;
const FRESH_PARENT = '/var/tmp';
const FRESH_PREFIX = 'rvport-fresh-';
const STALE_MS = 3 * 60 * 60 * 1000;
const mirror = values.mirror ?? debianMirror();
if (!mirror) fail("no Debian mirror in this machine's apt sources; pass --mirror URL");
if (process.getuid?.() !== 0) fail('the fresh-machine check runs as root (mmdebstrap, mounts)');

interface Step {
  name: string;
  seconds: number;
  ok: boolean;
  detail: string;
}
const steps: Step[] = [];
removeStaleRoots();
const base = mkdtempSync(join(FRESH_PARENT, FRESH_PREFIX));
const root = join(base, 'root');
let failed = false;

/** Roots of runs that were killed (CI's time limit) are removed by the next run after a while. */
function removeStaleRoots(): void {
  for (const name of readdirSync(FRESH_PARENT)) {
    const path = join(FRESH_PARENT, name);
    if (name.startsWith(FRESH_PREFIX) && Date.now() - statSync(path).mtimeMs > STALE_MS)
      rmSync(path, { recursive: true, force: true });
  }
}

function fail(message: string): never {
  console.error(`fresh-machine: ${message}`);
  process.exit(2);
}

function record(name: string, started: number, ok: boolean, detail: string): void {
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  steps.push({ name, seconds, ok, detail });
  if (!ok) failed = true;
  console.error(
    `fresh-machine: ${ok ? 'ok  ' : 'FAIL'} ${name} (${seconds} s)${detail ? `: ${detail}` : ''}`,
  );
}

/** Runs a host command as one step; the output goes to the step log. */
async function hostStep(name: string, command: string[]): Promise<boolean> {
  const started = Date.now();
  const r = await runProcess({ command, timeoutMs: 30 * 60_000, captureBytes: 1 << 20 });
  writeFileSync(join(base, `${steps.length + 1}-host.log`), `${r.stdout}\n${r.stderr}`);
  const ok = r.exitCode === 0;
  record(name, started, ok, ok ? '' : lastLine(r.stderr || r.stdout));
  return ok;
}

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1)?.slice(0, 200) ?? '';
}

type RootControl = Pick<RunProcessOptions, 'signal' | 'onSpawn'>;

/**
 * Runs a shell script inside the root as its own machine: a new mount and PID namespace whose root
 * is the new root (pivot_root, not chroot: the kernel refuses user namespaces inside a chroot),
 * with /proc, /sys, /dev and binfmt_misc as a machine has them. /tmp is the root's own folder, as
 * on a Debian 12 machine (no tmpfs there): what one step leaves in it the next one finds. The
 * network is this machine's. The environment is a login's. `control.signal` (or the time-out) kills
 * the process group (`control.onSpawn` gets its id); with its first process the namespace and its
 * mounts go.
 */
async function inRoot(script: string, timeoutMs: number, control: RootControl = {}) {
  const enter = [
    'set -e',
    'mount --make-rprivate /',
    `mount --bind "${root}" "${root}"`,
    `cd "${root}"`,
    'mount -t proc proc proc',
    'mount --rbind /sys sys',
    'mount --rbind /dev dev',
    'mkdir -p .old-root',
    'pivot_root . .old-root',
    'umount -l /.old-root',
    'rmdir /.old-root',
    'mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null || true',
    'cd /root',
    'exec /bin/bash -c "$1"',
  ].join('\n');
  return runProcess({
    command: [
      'unshare',
      '--mount',
      '--pid',
      '--fork',
      '--',
      '/usr/bin/env',
      '-i',
      'HOME=/root',
      'USER=root',
      'LOGNAME=root',
      'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      'LANG=C.UTF-8',
      'TERM=dumb',
      'NODE_EXTRA_CA_CERTS=/etc/ssl/certs/machine-ca-bundle.crt',
      'npm_config_cafile=/etc/ssl/certs/machine-ca-bundle.crt',
      '/bin/sh',
      '-c',
      enter,
      'fresh-machine',
      script,
    ],
    timeoutMs,
    captureBytes: 4 << 20,
    ...control,
  });
}

/** One of the README's commands, in the root; `expect` says what a new user must see. */
async function rootStep(
  name: string,
  script: string,
  expect: (r: { exitCode: number; stdout: string; stderr: string }) => string | null,
  timeoutMs = 20 * 60_000,
): Promise<boolean> {
  const started = Date.now();
  const r = await inRoot(script, timeoutMs);
  writeFileSync(join(base, `${steps.length + 1}-root.log`), `$ ${script}\n${r.stdout}\n${r.stderr}`);
  const problem = r.timedOut ? `timed out after ${timeoutMs / 1000} s` : expect(r);
  record(name, started, problem === null, problem ?? '');
  return problem === null;
}

function machineCaBundle(): string | undefined {
  for (const candidate of [process.env.NODE_EXTRA_CA_CERTS, '/etc/ssl/certs/ca-certificates.crt']) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** The node and npm this machine runs: where the nodejs package puts them. */
const NODE_PACKAGE_NPM = '/usr/lib/node_modules/npm';

/**
 * Host: the two packages the root gets. rvport_VERSION_all.deb, built by `npm run build:deb`'s
 * script from a clean export of HEAD (with this checkout's node_modules for the build tools), and
 * this machine's nodejs package (Debian 12's own nodejs is 18): dpkg-repack's tree of it, with npm
 * as this machine has it now (an `npm install -g npm` replaced the package's own files, so its file
 * list names files that are gone), rebuilt with dpkg-deb.
 */
async function buildPackages(): Promise<boolean> {
  const script = [
    'set -e',
    'repo="$1"; base="$2"; npm_dir="$3"',
    'command -v dpkg-repack >/dev/null || { echo "dpkg-repack is missing: apt-get install dpkg-repack" >&2; exit 1; }',
    'mkdir -p "$base/export" "$base/debs" "$base/repack"',
    'git -C "$repo" archive --format=tar HEAD | tar -x -C "$base/export"',
    'ln -s "$repo/node_modules" "$base/export/node_modules"',
    'cd "$base/export" && node_modules/.bin/tsx scripts/build-deb.ts --out "$base/debs"',
    'cd "$base/repack" && dpkg-repack --generate nodejs 2>&1 | grep -v "cannot find file" || true',
    'tree="$(ls -d "$base"/repack/dpkg-repack.nodejs.*)"',
    'rm -rf "$tree$npm_dir" && cp -a "$npm_dir" "$tree$npm_dir"',
    'cd "$tree" && find . -path ./DEBIAN -prune -o -type f -printf "%P\\0" | sort -z | xargs -0 md5sum > DEBIAN/md5sums',
    'dpkg-deb --root-owner-group --build "$tree" "$base/debs"',
    'ls "$base/debs"',
  ].join('\n');
  const started = Date.now();
  const r = await runProcess({
    command: ['sh', '-c', script, 'fresh-machine', repo, base, NODE_PACKAGE_NPM],
    timeoutMs: 30 * 60_000,
    captureBytes: 1 << 20,
  });
  writeFileSync(join(base, `${steps.length + 1}-host.log`), `${r.stdout}\n${r.stderr}`);
  const debs = existsSync(join(base, 'debs'))
    ? readdirSync(join(base, 'debs')).filter((f) => f.endsWith('.deb'))
    : [];
  const ok = r.exitCode === 0 && debs.includes(rvportDeb) && debs.some((f) => f.startsWith('nodejs_'));
  record(
    "the packages: npm run build:deb's script on a clean export of HEAD, and this machine's nodejs (dpkg-repack)",
    started,
    ok,
    ok ? debs.join(', ') : lastLine(r.stderr || r.stdout),
  );
  return ok;
}

function minimalRoot(): Promise<boolean> {
  return hostStep('a minimal Debian 12 root (mmdebstrap --variant=minbase)', [
    'mmdebstrap',
    '--variant=minbase',
    '--mode=root',
    '--architectures=amd64',
    'bookworm',
    root,
    `deb ${mirror} bookworm main`,
  ]);
}

async function copyIn(): Promise<boolean> {
  const started = Date.now();
  // the two packages, where the root's apt-get installs them from
  mkdirSync(join(root, 'root/debs'), { recursive: true });
  for (const deb of readdirSync(join(base, 'debs')))
    cpSync(join(base, 'debs', deb), join(root, 'root/debs', deb));
  const ca = machineCaBundle();
  mkdirSync(join(root, 'etc/ssl/certs'), { recursive: true });
  if (ca) cpSync(ca, join(root, 'etc/ssl/certs/machine-ca-bundle.crt'));
  writeFileSync(join(root, 'etc/resolv.conf'), readFileSync('/etc/resolv.conf'));
  // a clean export of the checkout: what `git clone` gives a new user, nothing built or installed
  const checkout = join(root, 'root/rvport');
  mkdirSync(checkout, { recursive: true });
  const exported = await runProcess({
    command: ['sh', '-c', 'git -C "$1" archive --format=tar HEAD | tar -x -C "$2"', 'export', repo, checkout],
  });
  record(
    'the two packages, the CA bundle and a clean export of HEAD copied in',
    started,
    exported.exitCode === 0,
    exported.exitCode === 0 ? '' : lastLine(exported.stderr),
  );
  return exported.exitCode === 0;
}

function installNodejs(): Promise<boolean> {
  return rootStep(
    "this machine's nodejs package installed with apt-get (its dependencies from the root's apt sources)",
    'export DEBIAN_FRONTEND=noninteractive && apt-get update -qq && apt-get install -y -qq /root/debs/nodejs_*.deb && dpkg-query -W nodejs',
    (r) =>
      r.exitCode === 0 && /^nodejs\t\S+/m.test(r.stdout)
        ? null
        : `exit ${r.exitCode}: ${lastLine(r.stderr || r.stdout)}`,
  );
}

async function nodeRuns(): Promise<boolean> {
  return rootStep('no git, no node_modules: node and npm run', 'node --version && npm --version', (r) =>
    r.exitCode === 0 && r.stdout.startsWith('v20.') ? null : `node/npm do not run: ${lastLine(r.stderr)}`,
  );
}

/** The .deb's Depends resolve on the bare machine (before any host package is there). */
async function debResolves(): Promise<boolean> {
  await rootStep(
    `apt-get install --simulate ./${rvportDeb} on the bare machine: its Depends resolve`,
    `cd /root/debs && apt-get install --simulate ./${rvportDeb}`,
    (r) => {
      if (r.exitCode !== 0) return `exit ${r.exitCode}: ${lastLine(r.stderr || r.stdout)}`;
      for (const pkg of ['qemu-user-static', 'mmdebstrap', 'git', 'musl-tools', 'rvport'])
        if (!new RegExp(`^Inst ${pkg} `, 'm').test(r.stdout)) return `apt would not install ${pkg}`;
      return null;
    },
  );
  return true;
}

// the README's two commands, exactly as written
function npmCi(): Promise<boolean> {
  return rootStep('npm ci', 'cd rvport && npm ci', (r) =>
    r.exitCode === 0 ? null : `npm ci failed: ${lastLine(r.stderr)}`,
  );
}

/** rvport doctor before the first port: the host packages are missing; it fails and names the fix. */
async function doctorOnBareMachine(): Promise<boolean> {
  await rootStep(
    'rvport doctor on the bare machine fails with the fix',
    'cd rvport && ./bin/rvport.js doctor',
    (r) => {
      if (r.exitCode === 0) return 'doctor passed on a machine without qemu';
      const text = r.stdout + r.stderr;
      for (const needed of [
        /FAIL.*qemu-riscv64-static/,
        /apt-get install -y .*qemu-user-static/,
        /FAIL.*git not found/,
      ])
        if (!needed.test(text)) return `doctor output lacks ${needed}`;
      return null;
    },
  );
  return true;
}

async function portFromCheckout(): Promise<boolean> {
  await rootStep(
    './bin/rvport.js port debian:cjson (host packages, provisioning, port)',
    'cd rvport && ./bin/rvport.js port debian:cjson',
    (r) => {
      if (r.exitCode !== 0) return `exit ${r.exitCode}: ${lastLine(r.stderr)}`;
      if (!/verified/.test(r.stderr)) return `no verified result: ${lastLine(r.stderr)}`;
      return null;
    },
    40 * 60_000,
  );
  return true;
}

async function portOutputs(): Promise<boolean> {
  await rootStep('the port wrote its outputs', 'cat rvport/rvport-out/cjson/report.md', (r) =>
    r.exitCode === 0 && /riscv64/i.test(r.stdout)
      ? null
      : 'no report.md naming riscv64 in ./rvport-out/cjson',
  );
  return true;
}

async function linkedWorkflow(): Promise<boolean> {
  await rootStep(
    'npm link, then a workflow file in a folder of its own',
    'cd rvport && npm link --silent && mkdir -p /tmp/somewhere && cp examples/hello.workflow.ts /tmp/somewhere/ && cd /tmp/somewhere && rvport workflow run hello.workflow.ts',
    (r) =>
      r.exitCode === 0 && /workflow 'hello' completed/.test(r.stdout + r.stderr)
        ? null
        : `exit ${r.exitCode}: ${lastLine(r.stderr || r.stdout)}`,
  );
  return true;
}

/** `rvport doctor` passes; `where` is the folder it runs in. */
async function doctorPasses(name: string, where: string): Promise<boolean> {
  await rootStep(name, `mkdir -p ${where} && cd ${where} && rvport doctor`, (r) =>
    r.exitCode === 0
      ? null
      : `exit ${r.exitCode}: ${(r.stdout + r.stderr)
          .split('\n')
          .filter((l) => l.startsWith('FAIL'))
          .join('; ')}`,
  );
  return true;
}

/** The .deb replaces the development link: `rvport` on the PATH is the package's. */
function installDeb(): Promise<boolean> {
  return rootStep(
    `apt-get install -y ./${rvportDeb} (npm link removed first): rvport is the package's`,
    [
      'set -e',
      'npm rm -g rvport',
      `cd /root/debs && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ./${rvportDeb}`,
      'dpkg-query -W rvport',
      'mkdir -p /tmp/somewhere && cd /tmp/somewhere',
      'readlink -f "$(command -v rvport)"',
      'rvport --version',
    ].join('\n'),
    (r) => {
      if (r.exitCode !== 0) return `exit ${r.exitCode}: ${lastLine(r.stderr || r.stdout)}`;
      const lines = r.stdout.trim().split('\n');
      if (!lines.includes(`rvport\t${version}`)) return `dpkg does not list rvport ${version}`;
      if (!lines.includes('/usr/lib/rvport/bin/rvport.js'))
        return 'rvport on the PATH is not /usr/bin/rvport of the package';
      if (lines.at(-1) !== version) return `rvport --version printed ${lines.at(-1)}`;
      return null;
    },
  );
}

/**
 * The installed rvport ports a package from a folder outside the checkout. --force: the recipe
 * cache has cjson from the checkout's port, so without it the answer would come from the cache;
 * the sandbox images that port provisioned are used again (provisioning twice would double the
 * check's time).
 */
async function portFromPackage(): Promise<boolean> {
  await rootStep(
    'the installed rvport: rvport port debian:cjson --force in /tmp/somewhere',
    'mkdir -p /tmp/somewhere && cd /tmp/somewhere && rvport port debian:cjson --force && grep -qi riscv64 rvport-out/cjson/report.md',
    (r) => {
      if (r.exitCode !== 0) return `exit ${r.exitCode}: ${lastLine(r.stderr)}`;
      if (!/verified/.test(r.stderr)) return `no verified result: ${lastLine(r.stderr)}`;
      return null;
    },
    40 * 60_000,
  );
  return true;
}

/** The installed port's output folder, which `rvport serve` shows. */
const INSTALLED_OUT = '/tmp/somewhere/rvport-out';

/** The installed rvport's dashboard, running in the root from serveStarts to serveStops. */
let served:
  | { url: string; pgid: number | undefined; stop: AbortController; exited: Promise<ProcessResult> }
  | undefined;

/** A TCP port no one listens on now (the root shares this machine's network). */
function freePort(): Promise<number> {
  return new Promise((done, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => done(port));
    });
  });
}

/** Whether `url` answers at all (any HTTP status). */
function answers(url: string): Promise<boolean> {
  return fetch(url, { signal: AbortSignal.timeout(5000) }).then(
    async (r) => {
      await r.arrayBuffer();
      return true;
    },
    () => false,
  );
}

/** Whether any process is left in the process group `pgid`. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The installed rvport serves the installed port's output folder, as its user would start it:
 * `rvport serve --out … --port …` in the root, left running; the step waits until it answers.
 */
async function serveStarts(): Promise<boolean> {
  const started = Date.now();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const stop = new AbortController();
  const script = `cd /tmp/somewhere && exec rvport serve --out ${INSTALLED_OUT} --port ${port}`;
  let pgid: number | undefined;
  // onSpawn runs before inRoot returns (the process is spawned at once)
  const exited = inRoot(script, 60 * 60_000, {
    signal: stop.signal,
    onSpawn: (pid) => {
      pgid = pid;
    },
  });
  served = { url, pgid, stop, exited };
  let early: ProcessResult | undefined;
  void exited.then((r) => {
    early = r;
  });
  let up = false;
  while (!early && !up && Date.now() - started < 60_000) {
    up = await answers(url);
    if (!up) await new Promise((wait) => setTimeout(wait, 250));
  }
  const problem = up
    ? null
    : early
      ? `rvport serve exited ${early.exitCode}: ${lastLine(early.stderr || early.stdout)}`
      : `${url} did not answer within 60 s`;
  record(
    `the installed rvport serve --out ${INSTALLED_OUT} --port ${port} in the root: ${url} answers`,
    started,
    problem === null,
    problem ?? '',
  );
  if (problem !== null) await stopServing();
  return problem === null;
}

/** This machine's Chromium, the user's browser, on the dashboard the root serves. */
async function dashboardInBrowser(): Promise<boolean> {
  const started = Date.now();
  let problem: string | null = null;
  let seen: string[] = [];
  try {
    if (!served) throw new Error('rvport serve is not running');
    seen = await checkDashboard(served.url, { name: 'cjson', verdict: 'verified' });
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
  }
  writeFileSync(join(base, `${steps.length + 1}-host.log`), `${seen.join('\n')}\n${problem ?? ''}\n`);
  record(
    "this machine's Chromium (playwright-core) on it: the ports table lists cjson verified, the search narrows it, cjson's page shows its report and a riscv64 artifact downloads",
    started,
    problem === null,
    problem ?? seen.join('; '),
  );
  return true;
}

/**
 * Stops the dashboard: its process group is killed (with the namespace's first process go the
 * namespace and its mounts). Returns what is left of it, or null when nothing is.
 */
async function stopServing(): Promise<string | null> {
  if (!served) return null;
  const { url, pgid, stop, exited } = served;
  served = undefined;
  stop.abort();
  const r = await exited;
  writeFileSync(join(base, 'serve.log'), `${r.stdout}\n${r.stderr}`);
  for (let waited = 0; pgid !== undefined && groupAlive(pgid) && waited < 10_000; waited += 100)
    await new Promise((wait) => setTimeout(wait, 100));
  if (pgid !== undefined && groupAlive(pgid)) return `process group ${pgid} still has processes`;
  if (await answers(url)) return `${url} still answers`;
  return null;
}

async function serveStops(): Promise<boolean> {
  const started = Date.now();
  const problem = await stopServing();
  record(
    'rvport serve stopped (its process group killed): no process of it left, its port closed',
    started,
    problem === null,
    problem ?? '',
  );
  return true;
}

/**
 * The steps in order, one row of the table each. A step returns false when the ones after it
 * cannot run. The next ones go at the end: one function each, recording one row.
 */
const STEP_FUNCTIONS: ReadonlyArray<() => Promise<boolean>> = [
  buildPackages,
  minimalRoot,
  copyIn,
  installNodejs,
  nodeRuns,
  debResolves,
  npmCi,
  doctorOnBareMachine,
  portFromCheckout,
  portOutputs,
  linkedWorkflow,
  () => doctorPasses('rvport doctor passes after the first port', '/root'),
  installDeb,
  portFromPackage,
  () => doctorPasses('the installed rvport doctor passes, in /tmp/somewhere', '/tmp/somewhere'),
  serveStarts,
  dashboardInBrowser,
  serveStops,
];

/** One row of the table for each step function. */
const STEPS = STEP_FUNCTIONS.length;

async function main(): Promise<void> {
  console.error(`fresh-machine: root in ${root}`);
  for (const step of STEP_FUNCTIONS) if (!(await step())) return;
}

const started = Date.now();
try {
  await main();
} finally {
  const total = Math.round((Date.now() - started) / 1000);
  console.log('| step | result | time |\n|---|---|---|');
  for (const s of steps)
    console.log(`| ${s.name} | ${s.ok ? 'ok' : `failed: ${s.detail}`} | ${s.seconds} s |`);
  console.log(`| total | ${failed ? 'FAILED' : 'ok'} | ${total} s |`);
  // a server left running by a step that threw goes before its root does
  const left = await stopServing();
  if (left) console.error(`fresh-machine: rvport serve: ${left}`);
  if (values.keep) console.error(`fresh-machine: kept ${base}`);
  else rmSync(base, { recursive: true, force: true });
}
// every step ran (an early stop leaves some out) and none failed
process.exit(failed || steps.length < STEPS ? 1 : 0);
