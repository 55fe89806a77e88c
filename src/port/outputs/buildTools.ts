import { ROOTFS_PACKAGES } from '../../sandbox/index.ts';

/** What every build in the sandbox had: the compilers, make, dpkg-dev (the buildd variant). */
const ALWAYS = ['build-essential'];

/** The image's tools a build system's standard plan relies on. */
const BY_BUILD_SYSTEM: Record<string, readonly string[]> = {
  autotools: ['autoconf', 'automake', 'autopoint', 'autotools-dev', 'file', 'libtool', 'pkg-config'],
  cmake: ['cmake', 'pkg-config'],
  meson: ['meson', 'ninja-build', 'pkg-config'],
  scons: ['scons', 'python3'],
  python: ['python3'],
};

/** Tools a command names (an LLM or a repair may call them in any plan). */
const BY_COMMAND: ReadonlyArray<[RegExp, readonly string[]]> = [
  [/\bcmake\b/, ['cmake']],
  [/\bmeson\b/, ['meson', 'ninja-build']],
  [/\bninja\b/, ['ninja-build']],
  [
    /\b(autoreconf|autoconf|automake|aclocal|autoheader|libtoolize)\b|autogen\.sh|\.\/bootstrap\b/,
    ['autoconf', 'automake', 'autopoint', 'libtool'],
  ],
  [/\/usr\/share\/misc\/config\.(guess|sub)/, ['autotools-dev']],
  [/\bpkg-config\b/, ['pkg-config']],
  [/\bpython3?\b/, ['python3']],
  [/\bscons\b/, ['scons']],
  [/(^|[;&|(]\s*)git\s/, ['git']],
];

/**
 * The sandbox image's build tools a plan uses. The image holds them, so the port never
 * installed them; a recipe run anywhere else must, or it names only what the port added.
 * Only tools the image really holds are named.
 */
export function buildToolsOf(
  buildSystem: string,
  commands: readonly string[],
  hasPatches: boolean,
): string[] {
  const tools = new Set<string>(ALWAYS);
  for (const t of BY_BUILD_SYSTEM[buildSystem] ?? []) tools.add(t);
  for (const command of commands)
    for (const [re, names] of BY_COMMAND) if (re.test(command)) for (const t of names) tools.add(t);
  const inImage = new Set([...ROOTFS_PACKAGES, ...ALWAYS]);
  const found = [...tools].filter((t) => inImage.has(t));
  // patch(1) applies the port's patches (build-essential brings it too, through dpkg-dev)
  if (hasPatches) found.push('patch');
  return found;
}
