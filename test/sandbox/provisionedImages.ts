import { setupSandbox } from '../../src/sandbox/index.ts';

/** Provisioning from scratch takes ~5 minutes; with the image cached, setup is a quick check. */
export const PROVISION_TIMEOUT_MS = 30 * 60_000;

let ready: Promise<unknown> | undefined;

/**
 * The integration suites need the real images in RVPORT_HOME. If they are missing they are
 * provisioned here (never skipped); a host that cannot do it fails the suite with the reason.
 */
export function provisionedImages(): Promise<unknown> {
  ready ??= setupSandbox({
    // every image: native-userland mode and the accelerated mode it falls back to
    mode: 'native-userland',
    onProgress: (line) => process.stderr.write(`[sandbox setup] ${line}\n`),
  });
  return ready;
}

/** Host processes whose command line contains `marker` (emulated processes show their argv too). */
export async function hostProcessesWith(marker: string): Promise<number[]> {
  const { readdir, readFile } = await import('node:fs/promises');
  const found: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    const cmdline = await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.split('\0').includes(marker)) found.push(Number(name));
  }
  return found;
}

export async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}
