// The fresh-machine check: what a new user gets on a new Debian 12 machine. It builds a minimal
// Debian 12 root (mmdebstrap --variant=minbase, nothing else), puts this machine's Node.js and npm
// into it (Debian 12 has no Node 20), copies in a clean export of the checkout (HEAD, no
// node_modules, no dist), and there, as root with no package of this machine's, runs the README's
// commands exactly as written: `npm ci`, `./bin/rvport.js port debian:cjson` (which provisions
// the sandbox from nothing), `npm link` and a workflow file in a folder of its own. `rvport doctor`
// runs before (it must fail, naming the fix) and after (it must pass). Prints the steps with their
// times as a Markdown table; exit 0 only when every step did what a new user expects.
//
//   npx tsx scripts/fresh-machine.ts [--keep] [--mirror URL]
//
// Needs root (mmdebstrap, mounts), mmdebstrap and util-linux on this machine. The root lives in a
// temporary folder and is removed at the end (--keep leaves it). The root gets this machine's CA
// bundle, since npm's registry is reached through it here, and its resolv.conf; nothing else.
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { debianMirror } from '../src/debian/debianMirror.ts';
import { runProcess } from '../src/process/runProcess.ts';

const { values } = parseArgs({
  options: { keep: { type: 'boolean', default: false }, mirror: { type: 'string' } },
});
const repo = resolve(import.meta.dirname, '..');
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
const STEPS = 9;
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

/**
 * Runs a shell script inside the root as its own machine: a new mount and PID namespace whose root
 * is the new root (pivot_root, not chroot: the kernel refuses user namespaces inside a chroot),
 * with /proc, /sys, /dev and binfmt_misc as a machine has them. The environment is a login's.
 */
async function inRoot(script: string, timeoutMs: number) {
  const enter = [
    'set -e',
    'mount --make-rprivate /',
    `mount --bind "${root}" "${root}"`,
    `cd "${root}"`,
    'mount -t proc proc proc',
    'mount --rbind /sys sys',
    'mount --rbind /dev dev',
    'mount -t tmpfs tmpfs tmp',
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

async function prepareRoot(): Promise<boolean> {
  if (
    !(await hostStep('a minimal Debian 12 root (mmdebstrap --variant=minbase)', [
      'mmdebstrap',
      '--variant=minbase',
      '--mode=root',
      '--architectures=amd64',
      'bookworm',
      root,
      `deb ${mirror} bookworm main`,
    ]))
  )
    return false;
  const started = Date.now();
  // this machine's Node.js 20 and npm: the binary and npm's own folder, as the nodejs package lays them out
  const node = realpathSync(process.execPath);
  const npmDir = join(dirname(dirname(node)), 'lib', 'node_modules', 'npm');
  cpSync(node, join(root, 'usr/bin/node'), { preserveTimestamps: true });
  cpSync(npmDir, join(root, 'usr/lib/node_modules/npm'), { recursive: true, verbatimSymlinks: true });
  await runProcess({
    command: ['ln', '-sf', '../lib/node_modules/npm/bin/npm-cli.js', join(root, 'usr/bin/npm')],
  });
  await runProcess({
    command: ['ln', '-sf', '../lib/node_modules/npm/bin/npx-cli.js', join(root, 'usr/bin/npx')],
  });
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
    "this machine's Node.js and npm, its CA bundle and a clean export of HEAD copied in",
    started,
    exported.exitCode === 0,
    exported.exitCode === 0 ? `node ${process.version}` : lastLine(exported.stderr),
  );
  return exported.exitCode === 0;
}

async function main(): Promise<void> {
  console.error(`fresh-machine: root in ${root}`);
  if (!(await prepareRoot())) return;
  await rootStep('no git, no node_modules: node and npm run', 'node --version && npm --version', (r) =>
    r.exitCode === 0 && r.stdout.startsWith('v20.') ? null : `node/npm do not run: ${lastLine(r.stderr)}`,
  );
  // the README's two commands, exactly as written
  if (
    !(await rootStep('npm ci', 'cd rvport && npm ci', (r) =>
      r.exitCode === 0 ? null : `npm ci failed: ${lastLine(r.stderr)}`,
    ))
  )
    return;
  // rvport doctor before the first port: the host packages are missing; it fails and names the fix
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
  await rootStep('the port wrote its outputs', 'cat rvport/rvport-out/cjson/report.md', (r) =>
    r.exitCode === 0 && /riscv64/i.test(r.stdout)
      ? null
      : 'no report.md naming riscv64 in ./rvport-out/cjson',
  );
  await rootStep(
    'npm link, then a workflow file in a folder of its own',
    'cd rvport && npm link --silent && mkdir -p /tmp/somewhere && cp examples/hello.workflow.ts /tmp/somewhere/ && cd /tmp/somewhere && rvport workflow run hello.workflow.ts',
    (r) =>
      r.exitCode === 0 && /workflow 'hello' completed/.test(r.stdout + r.stderr)
        ? null
        : `exit ${r.exitCode}: ${lastLine(r.stderr || r.stdout)}`,
  );
  await rootStep('rvport doctor passes after the first port', 'rvport doctor', (r) =>
    r.exitCode === 0
      ? null
      : `exit ${r.exitCode}: ${(r.stdout + r.stderr)
          .split('\n')
          .filter((l) => l.startsWith('FAIL'))
          .join('; ')}`,
  );
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
  if (values.keep) console.error(`fresh-machine: kept ${base}`);
  else rmSync(base, { recursive: true, force: true });
}
// every step ran (an early stop leaves some out) and none failed
process.exit(failed || steps.length < STEPS ? 1 : 0);
