import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEBIAN_KEYRING } from '../debian/debianMirror.ts';
import { waitForLockFile } from '../engine/index.ts';
import { runProcess } from '../process/runProcess.ts';
import { SourceError } from './SourceError.ts';
import type { StepOptions } from './StepOptions.ts';

export const APT_TIMEOUT_MS = 20 * 60 * 1000;
/** Private package lists older than this are refreshed before a download. */
export const APT_LISTS_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * A private apt configuration under `dir`: the machine's own apt setup is never read for
 * packages nor modified, as in ../shared/corpus/fetch-debian-source. Source lists (deb-src) by
 * default; binary lists of one architecture for `apt-get download`, which checks what it fetches
 * against the signed index as an install would.
 */
export class PrivateApt {
  constructor(
    readonly dir: string,
    readonly sourcesLine: string,
    /** Set for binary lists: the one architecture they are for. */
    readonly architecture: string | null = null,
  ) {}

  static async create(dir: string, suite: string, mirror: string): Promise<PrivateApt> {
    return PrivateApt.prepare(
      new PrivateApt(dir, `deb-src [signed-by=${DEBIAN_KEYRING}] ${mirror} ${suite} main`),
    );
  }

  /** The binary packages of `architecture` (riscv64: what the sandbox installs). */
  static async forBinaries(
    dir: string,
    suite: string,
    mirror: string,
    architecture: string,
  ): Promise<PrivateApt> {
    return PrivateApt.prepare(
      new PrivateApt(
        dir,
        `deb [arch=${architecture} signed-by=${DEBIAN_KEYRING}] ${mirror} ${suite} main`,
        architecture,
      ),
    );
  }

  private static async prepare(apt: PrivateApt): Promise<PrivateApt> {
    const dir = apt.dir;
    for (const sub of [
      'etc/sources.list.d',
      'etc/preferences.d',
      'state/lists/partial',
      'cache/archives/partial',
    ]) {
      await mkdir(join(dir, sub), { recursive: true });
    }
    // apt downloads as the unprivileged _apt user; let it reach its partial folders
    for (const sub of ['', 'etc', 'state', 'cache', 'state/lists', 'cache/archives'])
      await chmod(join(dir, sub), 0o755);
    for (const sub of ['state/lists/partial', 'cache/archives/partial']) await chmod(join(dir, sub), 0o777);
    // under the lists' lock: a second process starting on the same fresh folder must not reset
    // the lists while the first reads or updates them
    const release = await waitForLock(join(dir, 'update.lock'));
    try {
      const sourcesList = join(dir, 'etc', 'sources.list');
      const current = existsSync(sourcesList) ? await readFile(sourcesList, 'utf8') : '';
      if (current.trim() !== apt.sourcesLine) {
        await rm(join(dir, 'updated-at'), { force: true });
        await writeFile(sourcesList, `${apt.sourcesLine}\n`);
        await rm(join(dir, 'state', 'lists'), { recursive: true, force: true });
        await mkdir(join(dir, 'state', 'lists', 'partial'), { recursive: true, mode: 0o777 });
        await chmod(join(dir, 'state', 'lists', 'partial'), 0o777);
      }
    } finally {
      release();
    }
    return apt;
  }

  args(): string[] {
    const d = this.dir;
    return [
      '-q',
      '-o',
      `Dir::Etc::sourcelist=${join(d, 'etc', 'sources.list')}`,
      '-o',
      `Dir::Etc::sourceparts=${join(d, 'etc', 'sources.list.d')}`,
      '-o',
      `Dir::Etc::preferencesparts=${join(d, 'etc', 'preferences.d')}`,
      '-o',
      `Dir::State::Lists=${join(d, 'state', 'lists')}`,
      '-o',
      `Dir::Cache=${join(d, 'cache')}`,
      '-o',
      'APT::Get::List-Cleanup=0',
      ...(this.architecture
        ? [
            '-o',
            `APT::Architecture=${this.architecture}`,
            '-o',
            `APT::Architectures=${this.architecture}`,
            '-o',
            'Acquire::Languages=none',
          ]
        : []),
    ];
  }

  async run(
    args: readonly string[],
    options: StepOptions & { cwd?: string },
    program: 'apt-get' | 'apt-cache' = 'apt-get',
  ) {
    return runProcess({
      command: [program, ...this.args(), ...args],
      cwd: options.cwd,
      env: { DEBIAN_FRONTEND: 'noninteractive', LC_ALL: 'C' },
      timeoutMs: APT_TIMEOUT_MS,
      signal: options.signal,
    });
  }

  /** Whether the lists are there and younger than a day. */
  private async listsFresh(): Promise<boolean> {
    const lists = join(this.dir, 'state', 'lists');
    const files = existsSync(lists) ? await readdir(lists) : [];
    const stamp = join(this.dir, 'updated-at');
    return (
      files.some((f) => f.includes(this.indexName())) &&
      existsSync(stamp) &&
      Date.now() - Number(await readFile(stamp, 'utf8')) < APT_LISTS_MAX_AGE_MS
    );
  }

  private indexName(): string {
    return this.architecture ? `_binary-${this.architecture}_Packages` : '_source_Sources';
  }

  /**
   * Runs `apt-get update` when the lists are missing or older than a day. Ports at once (a batch's
   * workers) share the folder: one updates, under a lock file, and the others wait for it and
   * then find the lists fresh (apt itself would refuse the second update: "Could not get lock").
   */
  async ensureLists(options: StepOptions): Promise<void> {
    if (await this.listsFresh()) return;
    const release = await waitForLock(join(this.dir, 'update.lock'), options.signal);
    try {
      if (await this.listsFresh()) return;
      options.log?.(
        `updating the private Debian ${this.architecture ? `${this.architecture} package` : 'source'} lists`,
      );
      const result = await this.run(['update'], options);
      const after = await readdir(join(this.dir, 'state', 'lists'));
      if (result.exitCode !== 0 || !after.some((f) => f.includes(this.indexName()))) {
        throw new SourceError(
          'acquire',
          `apt-get update failed: ${lastLines(result.stderr || result.stdout)}`,
        );
      }
      await writeFile(join(this.dir, 'updated-at'), String(Date.now()));
    } finally {
      release();
    }
  }
}

/** Takes `file` as a lock, waiting while a live process holds it (up to apt's own time limit). */
async function waitForLock(file: string, signal?: AbortSignal): Promise<() => void> {
  const lock = await waitForLockFile(file, { timeoutMs: APT_TIMEOUT_MS, signal });
  if (lock.acquired) return lock.release;
  if (lock.reason === 'aborted')
    throw new SourceError('acquire', 'interrupted while waiting for the Debian lists');
  throw new SourceError(
    'acquire',
    `the private Debian lists stayed locked by process ${lock.holder} for ${APT_TIMEOUT_MS / 60_000} minutes`,
  );
}

/** The last lines of apt's output, on one line, for a message. */
export function lastLines(text: string): string {
  return text.trim().split('\n').slice(-3).join(' / ');
}

/**
 * A folder of `scratch` that apt downloads into: apt fetches as its unprivileged _apt user, which
 * must reach it through `scratch`.
 */
export async function aptDownloadFolder(scratch: string, name: string): Promise<string> {
  const download = join(scratch, name);
  await mkdir(download, { recursive: true });
  await chmod(scratch, 0o755);
  await chmod(download, 0o777);
  return download;
}
