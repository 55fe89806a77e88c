// Builds the Debian package of rvport, rvport_VERSION_all.deb, from the npm tarball:
//
//   npm run build:deb [-- --out DIR] [-- --tarball rvport-VERSION.tgz]
//
// Without --tarball it runs `npm pack` in the checkout first (which builds dist/). The package's
// files go to /usr/lib/rvport (the tarball's bin/, dist/, package.json, README.md, LICENSE, and
// the production node_modules that `npm ci --omit=dev --omit=optional` installs in a clean
// staging copy), /usr/bin/rvport is a symbolic link to /usr/lib/rvport/bin/rvport.js, and
// /usr/share/doc/rvport has the copyright file and changelog.gz (made from CHANGELOG.md).
// Architecture: all, so nothing built for one processor goes in: msgpackr's optional native
// addon (msgpackr-extract; msgpackr works without it) is left out with the optional packages,
// and esbuild's x86_64 executable, which tsx needs for users' TypeScript workflow files, is
// replaced by esbuild-wasm of the same version (the same API, run by Node.js). The build stops if
// an ELF file or a `.node` addon is left. Depends: the Node.js of package.json's engines and the
// host packages of src/sandbox/checkHost.ts's tables. Needs npm, tar, gzip and dpkg-deb.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { hostPackages } from '../src/sandbox/index.ts';

/**
 * Debian's Essential packages among rvport's host packages: every Debian system has them, and
 * policy (3.5) says a package must not depend on one without a version.
 */
export const DEBIAN_ESSENTIAL = new Set([
  'tar',
  'util-linux',
  'gzip',
  'coreutils',
  'findutils',
  'grep',
  'sed',
  'dpkg',
]);

/** Optional on the host: an ssh target (`rvport target add`), a Redis queue (`rvport batch --queue`). */
const SUGGESTS = ['openssh-client', 'redis-server'];

export interface PackageJson {
  name: string;
  version: string;
  description: string;
  author?: string;
  homepage?: string;
  license?: string;
  engines?: { node?: string };
}

/** `>=20.19.0` (package.json's engines) as a Debian dependency on nodejs. */
export function nodejsDependency(engine: string | undefined): string {
  const min = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(engine?.trim() ?? '')?.[1];
  if (!min) throw new Error(`package.json engines.node must be ">=VERSION", not ${JSON.stringify(engine)}`);
  return `nodejs (>= ${min})`;
}

/** The Depends field: Node.js, then the host packages that are not Essential. */
export function dependsField(pkg: PackageJson, host: readonly string[]): string {
  return [nodejsDependency(pkg.engines?.node), ...host.filter((p) => !DEBIAN_ESSENTIAL.has(p))].join(', ');
}

/** Text wrapped at width, each line indented by indent. */
function wrap(text: string, width: number, indent: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines;
}

/** The DEBIAN/control file. */
export function controlFile(pkg: PackageJson, fields: { depends: string; installedSizeKiB: number }): string {
  if (!pkg.author || !/<[^>]+@[^>]+>/.test(pkg.author))
    throw new Error('package.json needs an author "Name <email>" (the Maintainer field)');
  // the synopsis is the description's first clause; the rest, wrapped, is the extended description
  const [synopsis = '', ...rest] = pkg.description.split(': ');
  const extended = [
    ...wrap(
      rest.length > 0 ? `rvport ports a source repository to RISC-V: ${rest.join(': ')}` : pkg.description,
      79,
      ' ',
    ),
    ' .',
    ...wrap(
      'It builds in a riscv64 Debian userland under qemu-user, checks every output by reading its ELF header, runs the package tests under emulation, and writes a recipe, build.sh and Dockerfile. It also runs workflows of your own on its checkpointed graph engine (rvport workflow).',
      79,
      ' ',
    ),
  ];
  const lines = [
    `Package: ${pkg.name}`,
    `Version: ${pkg.version}`,
    'Architecture: all',
    `Maintainer: ${pkg.author}`,
    `Installed-Size: ${fields.installedSizeKiB}`,
    `Depends: ${fields.depends}`,
    `Suggests: ${SUGGESTS.join(', ')}`,
    'Section: devel',
    'Priority: optional',
    ...(pkg.homepage ? [`Homepage: ${pkg.homepage}`] : []),
    `Description: ${synopsis.replace(/\.$/, '')}`,
    ...extended,
  ];
  return `${lines.join('\n')}\n`;
}

export interface ChangelogEntry {
  version: string;
  date: string;
  items: string[];
}

/** The sections `## VERSION (YYYY-MM-DD)` of CHANGELOG.md with their `- ` items, newest first. */
export function parseChangelog(markdown: string): ChangelogEntry[] {
  const entries: ChangelogEntry[] = [];
  let item: string[] | undefined;
  for (const line of markdown.split('\n')) {
    const heading = /^## (\S+) \((\d{4}-\d{2}-\d{2})\)\s*$/.exec(line);
    if (heading) {
      entries.push({ version: heading[1] ?? '', date: heading[2] ?? '', items: [] });
      item = undefined;
      continue;
    }
    const entry = entries.at(-1);
    if (!entry) continue;
    if (line.startsWith('- ')) {
      item = [line.slice(2).trim()];
      entry.items.push('');
    } else if (item && /^\s+\S/.test(line)) item.push(line.trim());
    else item = undefined;
    if (item) entry.items[entry.items.length - 1] = item.join(' ');
  }
  return entries;
}

/** CHANGELOG.md as a Debian changelog (a native package's /usr/share/doc/PKG/changelog). */
export function debianChangelog(pkg: PackageJson, markdown: string): string {
  const entries = parseChangelog(markdown);
  const newest = entries[0];
  if (!newest) throw new Error('CHANGELOG.md has no "## VERSION (YYYY-MM-DD)" section');
  if (newest.version !== pkg.version)
    throw new Error(
      `CHANGELOG.md's newest section is ${newest.version}, package.json's version ${pkg.version}: add its entry`,
    );
  return entries
    .map((e) => {
      if (e.items.length === 0) throw new Error(`CHANGELOG.md's section ${e.version} has no "- " items`);
      const date = new Date(`${e.date}T00:00:00Z`).toUTCString().replace('GMT', '+0000');
      const items = e.items.flatMap((text) => {
        const [first = '', ...more] = wrap(text, 78, '    ');
        return [`  * ${first.trimStart()}`, ...more];
      });
      return `${pkg.name} (${e.version}) unstable; urgency=medium\n\n${items.join('\n')}\n\n -- ${pkg.author}  ${date}\n`;
    })
    .join('\n');
}

/** The copyright file: rvport's license, then each bundled npm package with its license. */
export function copyrightFile(pkg: PackageJson, license: string, bundled: readonly BundledPackage[]): string {
  const list = bundled.map((b) => `  ${b.name} ${b.version}: ${b.license}`);
  return [
    `${pkg.name} ${pkg.version}`,
    '',
    `Copyright: ${license.match(/^Copyright .*$/m)?.[0].replace(/^Copyright (\(c\) )?/, '') ?? 'the rvport maintainers'}`,
    `License: ${pkg.license ?? 'see below'}`,
    '',
    ...license.trimEnd().split('\n'),
    '',
    'Bundled Node.js packages, in /usr/lib/rvport/node_modules, each with its own license file in',
    'its folder:',
    '',
    ...list,
    ...commonLicenses(bundled),
    '',
  ].join('\n');
}

/** Where Debian keeps the full text of licenses it has (base-files), for those that are bundled. */
function commonLicenses(bundled: readonly BundledPackage[]): string[] {
  const names = [...new Set(bundled.flatMap((b) => b.license.split(/\s+(?:OR|AND)\s+|[()]/)))].filter(
    (name) => ['Apache-2.0', 'GPL-2', 'GPL-3', 'LGPL-2.1', 'LGPL-3', 'MPL-2.0', 'Artistic'].includes(name),
  );
  if (names.length === 0) return [];
  return [
    '',
    ...names.map(
      (name) =>
        `On Debian systems, the full text of the ${name} license is in /usr/share/common-licenses/${name}.`,
    ),
  ];
}

/** Text for roff: backslashes and hyphens escaped, a leading dot or quote made harmless. */
function roff(text: string): string {
  return text.replace(/\\/g, '\\e').replace(/-/g, '\\-').replace(/^[.']/, '\\&$&');
}

/** The entries of one section of commander's help ("Options:", "Commands:"): term and text. */
function helpEntries(help: string, section: string): { term: string; text: string }[] {
  const body = help.split(`\n${section}:\n`)[1]?.split(/\n\n|\n\S/)[0] ?? '';
  const entries: { term: string; text: string }[] = [];
  for (const line of body.split('\n')) {
    const entry = /^ {2}(\S.*?)(?: {2,}(\S.*))?$/.exec(line);
    const last = entries.at(-1);
    if (entry) entries.push({ term: entry[1] ?? '', text: entry[2] ?? '' });
    else if (last && line.trim()) last.text = `${last.text} ${line.trim()}`.trim();
  }
  return entries;
}

/** The manual page rvport(1), made from `rvport --help` and the package's description. */
export function manPage(pkg: PackageJson, help: string, date: string): string {
  const synopsis = pkg.description.split(': ')[0]?.replace(/\.$/, '') ?? pkg.name;
  const item = (e: { term: string; text: string }) => ['.TP', `.B ${roff(e.term)}`, roff(e.text)];
  return [
    `.TH ${pkg.name.toUpperCase()} 1 "${date}" "${pkg.name} ${pkg.version}" "User Commands"`,
    '.SH NAME',
    `${pkg.name} \\- ${roff(synopsis.charAt(0).toLowerCase() + synopsis.slice(1))}`,
    '.SH SYNOPSIS',
    `.B ${pkg.name}`,
    '[\\fIoptions\\fR] \\fIcommand\\fR [\\fIargs\\fR]',
    '.SH DESCRIPTION',
    roff(`${pkg.description} Without a command, rvport prints its help; every command has its own --help.`),
    '.SH COMMANDS',
    ...helpEntries(help, 'Commands').flatMap(item),
    '.SH OPTIONS',
    ...helpEntries(help, 'Options').flatMap(item),
    '.SH FILES',
    '.TP',
    '.I ~/.local/share/rvport',
    roff('RVPORT_HOME: sandbox images, recipe cache, sources and run checkpoints.'),
    '.SH SEE ALSO',
    roff(`${pkg.name} command --help, /usr/lib/${pkg.name}/README.md`),
    '',
  ].join('\n');
}

export interface BundledPackage {
  name: string;
  version: string;
  license: string;
}

/** The packages under node_modules (scoped ones too, nested ones too), sorted by name. */
export function bundledPackages(nodeModules: string): BundledPackage[] {
  const found: BundledPackage[] = [];
  const visit = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.name.startsWith('@')) {
        visit(path);
        continue;
      }
      const manifest = join(path, 'package.json');
      if (existsSync(manifest)) {
        const m = JSON.parse(readFileSync(manifest, 'utf8')) as {
          name?: string;
          version?: string;
          license?: string | { type?: string };
        };
        const license = typeof m.license === 'string' ? m.license : (m.license?.type ?? 'see its folder');
        found.push({ name: m.name ?? entry.name, version: m.version ?? '?', license });
      }
      visit(join(path, 'node_modules'));
    }
  };
  visit(nodeModules);
  return found.sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
}

function sh(command: string, args: string[], cwd: string): string {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0)
    throw new Error(
      `${command} ${args.join(' ')} failed (exit ${r.status}):\n${r.stderr || r.stdout}${r.error ?? ''}`,
    );
  return r.stdout;
}

/** Every path under dir (directories first, then their contents), relative to it. */
function walk(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const path = prefix ? `${prefix}/${entry.name}` : entry.name;
      return entry.isDirectory() ? [path, ...walk(dir, path)] : [path];
    });
}

function startsWith(file: string, bytes: number[]): boolean {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes.length);
    const n = readSync(fd, buffer, 0, bytes.length, 0);
    return n === bytes.length && bytes.every((b, i) => buffer[i] === b);
  } finally {
    closeSync(fd);
  }
}

/** Files built for one processor: ELF files and Node.js addons. */
export function architectureSpecificFiles(dir: string): string[] {
  return walk(dir).filter((path) => {
    const full = join(dir, path);
    const st = lstatSync(full);
    return st.isFile() && (path.endsWith('.node') || startsWith(full, [0x7f, 0x45, 0x4c, 0x46]));
  });
}

/** Directories 0755; a file 0755 when it is a script (`#!`), else 0644. */
function normalizeModes(dir: string): void {
  for (const path of walk(dir)) {
    const full = join(dir, path);
    const st = lstatSync(full);
    if (st.isSymbolicLink()) continue;
    if (st.isDirectory()) chmodSync(full, 0o755);
    else chmodSync(full, startsWith(full, [0x23, 0x21]) ? 0o755 : 0o644);
  }
}

/** A bundled package's tests: `__tests__/` folders and `*.test.js`/`*.spec.ts`-style files. */
export const UPSTREAM_TEST = /(^|\/)__tests__(\/|$)|\.(test|spec)\.(d\.)?[cm]?[jt]s(\.map)?$/;

/**
 * What the bundled packages ship for their own development: dot files (.eslintrc, .npmignore,
 * .github/, npm's .bin/ and .package-lock.json) and their tests.
 */
function removeDevelopmentFiles(nodeModules: string): void {
  for (const path of walk(nodeModules).reverse()) {
    const name = path.split('/').at(-1) ?? '';
    if (name.startsWith('.') || UPSTREAM_TEST.test(path))
      rmSync(join(nodeModules, path), { recursive: true, force: true });
  }
}

/** Installs the production dependencies into lib, with esbuild as esbuild-wasm of its version. */
function installDependencies(lib: string, lock: string, work: string): void {
  writeFileSync(join(lib, 'package-lock.json'), readFileSync(lock));
  const quiet = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
  sh('npm', ['ci', '--omit=dev', '--omit=optional', '--ignore-scripts', ...quiet], lib);
  const esbuild = join(lib, 'node_modules', 'esbuild');
  if (existsSync(esbuild)) {
    const { version } = JSON.parse(readFileSync(join(esbuild, 'package.json'), 'utf8')) as {
      version: string;
    };
    const packed = JSON.parse(
      sh('npm', ['pack', `esbuild-wasm@${version}`, '--json', '--pack-destination', work, ...quiet], work),
    ) as { filename: string }[];
    rmSync(esbuild, { recursive: true, force: true });
    mkdirSync(esbuild);
    sh(
      'tar',
      [
        '-xzf',
        join(work, packed[0]?.filename ?? ''),
        '-C',
        esbuild,
        '--strip-components=1',
        '--no-same-owner',
      ],
      work,
    );
  }
  // npm's lock (node_modules/.package-lock.json and .bin/ go with the development files below)
  rmSync(join(lib, 'package-lock.json'), { force: true });
  removeDevelopmentFiles(join(lib, 'node_modules'));
}

/** Installed-Size in KiB: each file rounded up to 1 KiB, plus 1 for each directory and link. */
function installedSizeKiB(dir: string): number {
  let kib = 0;
  for (const path of walk(dir)) {
    const st = lstatSync(join(dir, path));
    kib += st.isFile() ? Math.ceil(st.size / 1024) : 1;
  }
  return kib;
}

function md5sums(root: string): string {
  return walk(root)
    .filter((path) => !path.startsWith('DEBIAN') && lstatSync(join(root, path)).isFile())
    .map(
      (path) =>
        `${createHash('md5')
          .update(readFileSync(join(root, path)))
          .digest('hex')}  ${path}\n`,
    )
    .join('');
}

export interface BuildDebOptions {
  repo: string;
  out: string;
  /** An npm tarball of the checkout; `npm pack` makes one when it is not given. */
  tarball?: string;
}

/** Builds the .deb; returns its path. */
export function buildDeb(options: BuildDebOptions): string {
  const pkg = JSON.parse(readFileSync(join(options.repo, 'package.json'), 'utf8')) as PackageJson;
  const work = mkdtempSync(join(tmpdir(), 'rvport-deb-'));
  try {
    let tarball = options.tarball ? resolve(options.tarball) : undefined;
    if (!tarball) {
      const packed = JSON.parse(
        sh('npm', ['pack', '--json', '--pack-destination', work, '--loglevel=error'], options.repo).replace(
          /^[^[]*/,
          '',
        ),
      ) as { filename: string }[];
      tarball = join(work, packed[0]?.filename ?? '');
    }
    const root = join(work, 'root');
    const lib = join(root, 'usr/lib', pkg.name);
    mkdirSync(lib, { recursive: true });
    sh('tar', ['-xzf', tarball, '-C', lib, '--strip-components=1', '--no-same-owner'], work);
    const shipped = JSON.parse(readFileSync(join(lib, 'package.json'), 'utf8')) as PackageJson;
    if (shipped.version !== pkg.version)
      throw new Error(`the tarball is version ${shipped.version}, the checkout ${pkg.version}`);
    installDependencies(lib, join(options.repo, 'package-lock.json'), work);
    const native = architectureSpecificFiles(lib);
    if (native.length > 0)
      throw new Error(
        `Architecture: all, but these files are built for one processor:\n${native.join('\n')}`,
      );

    mkdirSync(join(root, 'usr/bin'), { recursive: true });
    symlinkSync(`../lib/${pkg.name}/bin/rvport.js`, join(root, 'usr/bin/rvport'));
    const doc = join(root, 'usr/share/doc', pkg.name);
    mkdirSync(doc, { recursive: true });
    const license = readFileSync(join(options.repo, 'LICENSE'), 'utf8');
    writeFileSync(
      join(doc, 'copyright'),
      copyrightFile(pkg, license, bundledPackages(join(lib, 'node_modules'))),
    );
    writeFileSync(
      join(doc, 'changelog'),
      debianChangelog(pkg, readFileSync(join(options.repo, 'CHANGELOG.md'), 'utf8')),
    );
    sh('gzip', ['-9n', join(doc, 'changelog')], work);
    const man = join(root, 'usr/share/man/man1');
    mkdirSync(man, { recursive: true });
    const help = sh(process.execPath, [join(lib, 'bin/rvport.js'), '--help'], work);
    const released = parseChangelog(readFileSync(join(options.repo, 'CHANGELOG.md'), 'utf8'))[0]?.date ?? '';
    writeFileSync(join(man, `${pkg.name}.1`), manPage(pkg, help, released));
    sh('gzip', ['-9n', join(man, `${pkg.name}.1`)], work);
    normalizeModes(root);
    chmodSync(join(lib, 'bin/rvport.js'), 0o755);

    const size = installedSizeKiB(root);
    mkdirSync(join(root, 'DEBIAN'));
    writeFileSync(join(root, 'DEBIAN/md5sums'), md5sums(root));
    writeFileSync(
      join(root, 'DEBIAN/control'),
      controlFile(pkg, { depends: dependsField(pkg, hostPackages()), installedSizeKiB: size }),
    );
    chmodSync(join(root, 'DEBIAN'), 0o755);
    chmodSync(join(root, 'DEBIAN/md5sums'), 0o644);
    chmodSync(join(root, 'DEBIAN/control'), 0o644);

    mkdirSync(options.out, { recursive: true });
    const deb = join(resolve(options.out), `${pkg.name}_${pkg.version}_all.deb`);
    sh('dpkg-deb', ['--root-owner-group', '-Zxz', '--build', root, deb], work);
    return deb;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { values } = parseArgs({ options: { out: { type: 'string' }, tarball: { type: 'string' } } });
  const repo = resolve(import.meta.dirname, '..');
  try {
    const deb = buildDeb({
      repo,
      out: resolve(values.out ?? join(repo, 'dist-deb')),
      ...(values.tarball ? { tarball: values.tarball } : {}),
    });
    console.log(deb);
  } catch (error) {
    console.error(`build-deb: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
