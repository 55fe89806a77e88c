import { readFile } from 'node:fs/promises';
import { waitForLockFile } from '../engine/index.ts';
import { runProcess } from '../process/runProcess.ts';
import { RISCV64_BINFMT } from './binfmtStatus.ts';
import { evaluateHost, fixCommands, type HostCheck, type HostFacts, probeHost } from './checkHost.ts';
import { SandboxError } from './errors.ts';
import { NAMESPACE_ID_COUNT } from './userns/subordinateIds.ts';

export interface PrepareHostOptions {
  /** Progress lines for a person watching. */
  onProgress?: (message: string) => void;
  signal?: AbortSignal;
  /** Replaced in tests. */
  probe?: () => Promise<HostFacts>;
  run?: (command: readonly string[]) => Promise<{ exitCode: number; output: string }>;
  /**
   * The machine-wide lock file the changes are made under (two ports provisioning at once, a
   * batch's workers on a new machine, must not run apt-get or usermod side by side).
   */
  lockFile?: string;
}

/** Machine-wide: host packages, subordinate ids and binfmt_misc belong to the machine, not a home. */
export const PREPARE_HOST_LOCK = '/run/lock/rvport-prepare-host.lock';

const APT_TIMEOUT_MS = 15 * 60_000;
const APT_LOCK_WAIT_S = 300;
/** apt-get that waits for a dpkg lock another program (unattended-upgrades, a person) holds. */
const APT_GET = ['apt-get', '-o', `DPkg::Lock::Timeout=${APT_LOCK_WAIT_S}`];

/**
 * Makes the host ready for the chroot backend: as root on Debian it installs the missing packages
 * and registers binfmt_misc for riscv64; otherwise it fails with exactly what to run.
 */
export async function prepareHost(options: PrepareHostOptions = {}): Promise<HostCheck[]> {
  const probe = options.probe ?? (() => probeHost());
  const run = options.run ?? ((command) => runLogged(command, options.signal));
  const progress = options.onProgress ?? (() => {});
  const facts = await probe();
  const first = evaluateHost(facts);
  if (first.every((c) => c.ok)) return first;
  // without root or apt nothing is changed, so no lock is taken (a user cannot write /run/lock)
  if (!facts.isRoot || !facts.hasApt) throw notReady(first);
  const lock = await waitForLockFile(options.lockFile ?? PREPARE_HOST_LOCK, {
    timeoutMs: APT_TIMEOUT_MS,
    signal: options.signal,
  });
  if (!lock.acquired) {
    throw new SandboxError(
      'host-not-ready',
      lock.reason === 'aborted'
        ? 'interrupted while waiting for another rvport to prepare the host'
        : `another rvport (process ${lock.holder}) kept preparing the host for ${APT_TIMEOUT_MS / 60_000} minutes`,
      { fix: fixCommands(first).join('\n') },
    );
  }
  try {
    // what the holder before us did is seen again: only what is still missing is changed
    return await prepareUnderLock(await probe(), probe, run, progress);
  } finally {
    lock.release();
  }
}

async function prepareUnderLock(
  facts: HostFacts,
  probe: () => Promise<HostFacts>,
  run: (command: readonly string[]) => Promise<{ exitCode: number; output: string }>,
  progress: (message: string) => void,
): Promise<HostCheck[]> {
  let checks = evaluateHost(facts);
  if (checks.every((c) => c.ok)) return checks;

  const packages = [...new Set(checks.flatMap((c) => (!c.ok && c.aptPackage ? [c.aptPackage] : [])))];
  if (packages.length > 0) {
    progress(`installing host packages: ${packages.join(' ')}`);
    const install = [...APT_GET, 'install', '-y', '-q', '--no-install-recommends', ...packages];
    let result = await run(install);
    if (result.exitCode !== 0) {
      progress('apt-get install failed; updating the package lists and retrying');
      await run([...APT_GET, 'update', '-q']);
      result = await run(install);
    }
    if (result.exitCode !== 0) {
      throw new SandboxError(
        'host-not-ready',
        `apt-get install ${packages.join(' ')} failed:\n${result.output.slice(-2000)}`,
        { fix: fixCommands(checks).join('\n') },
      );
    }
  }
  const idsCheck = checks.find((c) => c.id === 'subordinate-ids');
  if (idsCheck && !idsCheck.ok) {
    const start = await freeSubordinateStart();
    progress(
      `giving ${facts.user} the subordinate ids ${start}-${start + NAMESPACE_ID_COUNT - 1} (sandbox processes run as them)`,
    );
    const range = `${start}-${start + NAMESPACE_ID_COUNT - 1}`;
    await run(['usermod', '--add-subuids', range, '--add-subgids', range, facts.user]);
  }
  const mountCheck = checks.find((c) => c.id === 'binfmt-mounted');
  if (mountCheck && !mountCheck.ok) {
    progress('mounting binfmt_misc');
    await run(['mount', '-t', 'binfmt_misc', 'binfmt_misc', '/proc/sys/fs/binfmt_misc']);
  }
  checks = evaluateHost(await probe());
  if (!checks.find((c) => c.id === 'binfmt-riscv64')?.ok) {
    progress(`registering ${RISCV64_BINFMT} with binfmt_misc`);
    await run(['update-binfmts', '--enable', RISCV64_BINFMT]);
    checks = evaluateHost(await probe());
  }
  if (!checks.every((c) => c.ok)) throw notReady(checks);
  return checks;
}

/** The first id after every range already given out (at least 100000, as Debian's adduser does). */
async function freeSubordinateStart(): Promise<number> {
  let start = 100000;
  for (const file of ['/etc/subuid', '/etc/subgid']) {
    const text = await readFile(file, 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
      const [, first, count] = line.split(':');
      const end = Number(first) + Number(count);
      if (Number.isSafeInteger(end) && end > start) start = end;
    }
  }
  return start;
}

function notReady(checks: readonly HostCheck[]): SandboxError {
  const failed = checks.filter((c) => !c.ok);
  return new SandboxError(
    'host-not-ready',
    `the host is not ready for the riscv64 sandbox:\n${failed.map((c) => `  - ${c.detail}`).join('\n')}`,
    { fix: fixCommands(checks).join('\n') },
  );
}

async function runLogged(command: readonly string[], signal?: AbortSignal) {
  const result = await runProcess({
    command,
    env: { DEBIAN_FRONTEND: 'noninteractive' },
    timeoutMs: APT_TIMEOUT_MS,
    signal,
    captureBytes: 64 * 1024,
  }).catch((error: Error) => ({ exitCode: 127, stdout: '', stderr: error.message }));
  return { exitCode: result.exitCode, output: `${result.stdout}${result.stderr}` };
}
