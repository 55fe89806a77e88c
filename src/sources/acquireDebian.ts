import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_DEBIAN_SUITE, debianMirror } from '../debian/debianMirror.ts';
import type { Acquired } from './AcquiredSource.ts';
import { acquireDebianCrate } from './acquireDebianCrate.ts';
import { gitEntryWarnings, sha256File } from './acquireTarball.ts';
import { commitTree } from './commitTree.ts';
import { keepDebianPackaging } from './keepDebianPackaging.ts';
import { aptDownloadFolder, lastLines, PrivateApt } from './PrivateApt.ts';
import type { SourceSpec } from './parseSource.ts';
import { SourceError } from './SourceError.ts';
import { type ExtractOptions, extractTarball } from './tar/extractTarball.ts';

const TARBALL = /\.tar\.(gz|xz|bz2|lzma|lz|zst)$/;

export interface DebianOptions extends ExtractOptions {
  aptDir: string;
  /** Where Debian's packaging (the debian.tar) is unpacked: rvport's metadata folder, not the tree. */
  packagingDir: string;
  suite?: string;
  mirror?: string;
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
      'acquire',
      "no Debian mirror in this machine's apt sources; set RVPORT_DEBIAN_MIRROR",
    );
  }
  const apt = await PrivateApt.create(options.aptDir, suite, mirror);
  await apt.ensureLists(options);

  const download = await aptDownloadFolder(scratch, 'debian-download');
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
    const why = `cannot get the Debian source package ${request} (${suite}): ${errors || lastLines(result.stderr)}`;
    // Rust crates: Debian's librust-*-dev package carries the whole crate
    const crate = spec.package.startsWith('rust-')
      ? await acquireDebianCrate(spec, tree, gitDir, scratch, options, { suite, mirror, why })
      : null;
    if (crate) return crate;
    throw new SourceError('acquire', why);
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
