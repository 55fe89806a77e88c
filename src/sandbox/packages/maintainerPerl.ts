import { lstat, mkdir, open, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { imageTree } from '../imageStore.ts';
import {
  PERL_PACKAGES,
  PERL_SHEBANG,
  perlTwinProblems,
  readPackageFiles,
} from '../provision/userlandSwap.ts';
import type { SandboxPaths } from '../sandboxPaths.ts';
import { DPKG_BACKEND_DIR, placeDpkgPath } from './dpkgBackend.ts';

/**
 * Perl programs that maintainer scripts start, which under emulation cost 0.5–1.5 s per call in
 * perl's start-up and module loading (an x86_64 perl: 0.02–0.12 s): init-system-helpers' three,
 * which every package with a service or an init script calls several times (console-setup-linux's
 * postinst, six calls: 6.6 s), and debconf's frontend, which every package that asks a question
 * starts from its config script and its postinst. None of them reads the machine; they write
 * state under /etc and /var (unit links, debconf's database), never a build's inputs.
 * The first three are found through the PATH, which for maintainer scripts is dpkg's (DPkg::Path):
 * the layer puts a two-line script of the same name first in it. debconf's confmodule starts its
 * frontend by its absolute path, so the layer holds a copy of the frontend whose first line names
 * the x86_64 perl.
 */
export const PERL_HELPER_PACKAGES = ['init-system-helpers'] as const;
/**
 * Perl programs of packages that Build-Depends install later, which their own and other packages'
 * maintainer scripts call by name: xml-core's catalog tool (docbook-xml's postinst calls it 77
 * times: 31 s under emulation) and sgml-base's two. They are not in the rootfs when the layer is
 * made, so their stand-in looks at the program when it is called and takes the x86_64 perl only
 * for a perl script (laterPerlHelperScript).
 */
export const LATER_PERL_PROGRAMS = [
  '/usr/sbin/update-xmlcatalog',
  '/usr/sbin/update-catalog',
  '/usr/sbin/install-sgmlcatalog',
] as const;
export const DEBCONF_FRONTEND = '/usr/share/debconf/frontend';
const NATIVE_PERL = '/native/usr/bin/perl';

/** The helpers an apt layer runs under the x86_64 perl, or why it runs none. */
export type MaintainerPerl = { helpers: string[] } | { refused: string };

/** The script placed in the PATH folder for the perl program at `path` (a rootfs path). */
export function perlHelperScript(path: string): string {
  if (!/^\/[\w./+-]+$/.test(path)) throw new Error(`unexpected characters in a helper's path: ${path}`);
  return `#!/bin/sh\nexec ${NATIVE_PERL} ${path} "$@"\n`;
}

/**
 * The stand-in for a perl program that may not be installed yet: at each call it reads the
 * program's first line, runs a perl script under the x86_64 perl and anything else as it is.
 */
export function laterPerlHelperScript(path: string): string {
  if (!/^\/[\w./+-]+$/.test(path)) throw new Error(`unexpected characters in a helper's path: ${path}`);
  return [
    '#!/bin/sh',
    `IFS= read -r first < ${path} 2>/dev/null || first=`,
    'case "$first" in',
    `'#!/usr/bin/perl'*|'#! /usr/bin/perl'*) exec ${NATIVE_PERL} ${path} "$@" ;;`,
    'esac',
    `exec ${path} "$@"`,
    '',
  ].join('\n');
}

/**
 * Puts the helpers into an apt layer's `tree` (made on the host, from the rootfs image, which no
 * build has touched): only where the tools tree's perl can run the rootfs's perl scripts
 * (perlTwinProblems: an x86_64 perl of the same version, as for autoconf's scripts in
 * native-userland mode), and only for the helpers the rootfs has as perl scripts.
 */
export async function placeMaintainerPerl(
  paths: SandboxPaths,
  rootfsKey: string,
  toolsKey: string,
  tree: string,
): Promise<MaintainerPerl> {
  const rootfsTree = imageTree(paths, rootfsKey);
  const rootfs = await readPackageFiles(rootfsTree, [...PERL_PACKAGES, ...PERL_HELPER_PACKAGES]);
  const tools = await readPackageFiles(imageTree(paths, toolsKey), PERL_PACKAGES);
  const problems = perlTwinProblems(rootfs, tools);
  if (problems.length > 0) return { refused: `needs the same perl in both trees (${problems.join('; ')})` };
  const helpers: string[] = [];
  const scripts = PERL_HELPER_PACKAGES.flatMap((name) => rootfs.get(name)?.perlScripts ?? []);
  await placeDpkgPath(tree);
  const standIns = [
    ...scripts.map((path) => [path, perlHelperScript(path)] as const),
    ...LATER_PERL_PROGRAMS.map((path) => [path, laterPerlHelperScript(path)] as const),
  ];
  for (const [path, script] of standIns) {
    await writeFile(join(tree, DPKG_BACKEND_DIR, posix.basename(path)), script, { mode: 0o755 });
    helpers.push(path);
  }
  const frontend = await perlScriptText(join(rootfsTree, DEBCONF_FRONTEND));
  if (frontend) {
    const target = join(tree, DEBCONF_FRONTEND);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, frontend.replace(PERL_SHEBANG, `#! ${NATIVE_PERL}`), { mode: 0o755 });
    helpers.push(DEBCONF_FRONTEND);
  }
  return { helpers };
}

/** A regular file's text when its first line runs /usr/bin/perl (no link followed), else undefined. */
async function perlScriptText(path: string): Promise<string | undefined> {
  const info = await lstat(path).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  const handle = await open(path, 'r');
  try {
    const text = await readFile(handle, 'utf8');
    return PERL_SHEBANG.test(text) ? text : undefined;
  } finally {
    await handle.close();
  }
}
