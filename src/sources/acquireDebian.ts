import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEBIAN_KEYRING, DEFAULT_DEBIAN_SUITE, debianMirror } from '../debian/debianMirror.ts';
import { runProcess } from '../process/runProcess.ts';
import type { StepOptions } from './acquireGit.ts';
import type { Acquired } from './acquireSource.ts';
import { gitEntryWarnings, sha256File } from './acquireTarball.ts';
import { commitTree } from './commitTree.ts';
import { keepDebianPackaging } from './keepDebianPackaging.ts';
import type { SourceSpec } from './parseSource.ts';
import { SourceError } from './SourceError.ts';
import { type ExtractOptions, extractTarball } from './tar/extractTarball.ts';

export const APT_TIMEOUT_MS = 20 * 60 * 1000;
/** Private package lists older than this are refreshed before a download. */
export const APT_LISTS_MAX_AGE_MS = 24 * 60 * 60 * 1000;
const TARBALL = /\.tar\.(gz|xz|bz2|lzma|lz|zst)$/;

export interface DebianOptions extends ExtractOptions {
  aptDir: string;
  /** Where Debian's packaging (the debian.tar) is unpacked: rvport's metadata folder, not the tree. */
  packagingDir: string;
  suite?: string;
  mirror?: string;
}

/**
 * A private apt configuration (deb-src only) under `aptDir`: the machine's own apt setup is
 * never read for packages nor modified, as in ../shared/corpus/fetch-debian-source.
 */
export class PrivateApt {
  constructor(
    readonly dir: string,
    readonly sourcesLine: string,
  ) {}

  static async create(dir: string, suite: string, mirror: string): Promise<PrivateApt> {
    const apt = new PrivateApt(dir, `deb-src [signed-by=${DEBIAN_KEYRING}] ${mirror} ${suite} main`);
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
    const sourcesList = join(dir, 'etc', 'sources.list');
    const current = existsSync(sourcesList) ? await readFile(sourcesList, 'utf8') : '';
    if (current.trim() !== apt.sourcesLine) {
      await writeFile(sourcesList, `${apt.sourcesLine}\n`);
      await rm(join(dir, 'state', 'lists'), { recursive: true, force: true });
      await mkdir(join(dir, 'state', 'lists', 'partial'), { recursive: true, mode: 0o777 });
      await chmod(join(dir, 'state', 'lists', 'partial'), 0o777);
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
    ];
  }

  async run(args: readonly string[], options: StepOptions & { cwd?: string }) {
    return runProcess({
      command: ['apt-get', ...this.args(), ...args],
      cwd: options.cwd,
      env: { DEBIAN_FRONTEND: 'noninteractive', LC_ALL: 'C' },
      timeoutMs: APT_TIMEOUT_MS,
      signal: options.signal,
    });
  }

  /** Runs `apt-get update` when the lists are missing or older than a day. */
  async ensureLists(options: StepOptions): Promise<void> {
    const lists = join(this.dir, 'state', 'lists');
    const files = existsSync(lists) ? await readdir(lists) : [];
    const stamp = join(this.dir, 'updated-at');
    const fresh =
      files.some((f) => f.includes('_source_Sources')) &&
      existsSync(stamp) &&
      Date.now() - Number(await readFile(stamp, 'utf8')) < APT_LISTS_MAX_AGE_MS;
    if (fresh) return;
    options.log?.('updating the private Debian source lists');
    const result = await this.run(['update'], options);
    const after = await readdir(lists);
    if (result.exitCode !== 0 || !after.some((f) => f.includes('_source_Sources'))) {
      throw new SourceError(`apt-get update failed: ${lastLines(result.stderr || result.stdout)}`, 'acquire');
    }
    await writeFile(stamp, String(Date.now()));
  }
}

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-3).join(' / ');
}

/**
 * Debian's packaging downloaded beside the upstream tarball, kept in rvport's folder; a partial
 * mirror may lack it (said in a warning), a native package has none apart from its tree.
 */
async function keepPackaging(
  files: readonly string[],
  download: string,
  orig: string,
  scratch: string,
  options: DebianOptions,
): Promise<Awaited<ReturnType<typeof keepDebianPackaging>>> {
  const debianTar = files.find((f) => /\.debian\.tar\.[a-z0-9]+$/.test(f));
  if (debianTar)
    return keepDebianPackaging(join(download, debianTar), options.packagingDir, scratch, options);
  const warnings = orig.includes('.orig.tar.')
    ? [
        "Debian's packaging (the debian.tar) could not be downloaded; the upstream source is ported without it",
      ]
    : [];
  return { packaging: null, warnings };
}

/** The upstream tarball of a Debian source package (plus its `orig-COMPONENT` tarballs). */
export async function acquireDebian(
  spec: Extract<SourceSpec, { kind: 'debian' }>,
  tree: string,
  gitDir: string,
  scratch: string,
  options: DebianOptions,
): Promise<Acquired> {
  const suite = options.suite ?? process.env.RVPORT_DEBIAN_SUITE ?? DEFAULT_DEBIAN_SUITE;
  const mirror = options.mirror ?? debianMirror();
  if (!mirror) {
    throw new SourceError(
      "no Debian mirror in this machine's apt sources; set RVPORT_DEBIAN_MIRROR",
      'acquire',
    );
  }
  const apt = await PrivateApt.create(options.aptDir, suite, mirror);
  await apt.ensureLists(options);

  const download = join(scratch, 'debian-download');
  await mkdir(download, { recursive: true });
  await chmod(scratch, 0o755);
  await chmod(download, 0o777);
  const request = spec.version ? `${spec.package}=${spec.version}` : spec.package;
  options.log?.(`downloading the Debian source package ${request}`);
  const result = await apt.run(['source', '--download-only', request], { ...options, cwd: download });
  const files = await readdir(download);
  // partial mirrors may lack the .dsc or debian.tar; only the upstream tarball matters
  const orig =
    files.find((f) => /\.orig\.tar\.[a-z0-9]+$/.test(f)) ??
    files.find((f) => TARBALL.test(f) && !f.includes('.debian.tar.'));
  if (!orig) {
    const errors = (result.stderr || result.stdout)
      .split('\n')
      .filter((l) => /^(E|W):/.test(l))
      .slice(0, 3)
      .join(' ');
    throw new SourceError(
      `cannot get the Debian source package ${request} (${suite}): ${errors || lastLines(result.stderr)}`,
      'acquire',
    );
  }
  const warnings: string[] = [];
  if (!orig.includes('.orig.tar.')) warnings.push(`${orig} is a native Debian package (it contains debian/)`);
  await extractTarball(join(download, orig), tree, scratch, options);
  for (const component of files.filter((f) => /\.orig-[A-Za-z0-9][A-Za-z0-9-]*\.tar\.[a-z0-9]+$/.test(f))) {
    const name = /\.orig-([A-Za-z0-9-]+)\.tar\./.exec(component)?.[1] ?? component;
    await extractTarball(join(download, component), join(tree, name), scratch, options);
  }
  const kept = await keepPackaging(files, download, orig, scratch, options);
  warnings.push(...kept.warnings);
  const version = orig.replace(/^[^_]+_/, '').replace(/(\.orig)?\.tar\.[a-z0-9]+$/, '');
  const sha256 = await sha256File(join(download, orig));
  const { commit, listing } = await commitTree(
    tree,
    gitDir,
    `Import ${spec.package} ${version} upstream source\n\nDebian source package: ${spec.package} (requested: ${request})\nSuite: ${suite}\nTarball: ${orig}\nSHA256: ${sha256}`,
    options,
  );
  warnings.push(...gitEntryWarnings(listing.gitEntries));
  return {
    commit,
    gitDir,
    submodules: 'none',
    tarballSha256: sha256,
    debian: { package: spec.package, version, suite, tarball: orig, packaging: kept.packaging },
    warnings,
  };
}
