import { lstat, open, readFile } from 'node:fs/promises';
import { posix } from 'node:path';
import { type InstalledPackage, readInstalledPackages } from '../dpkgStatus.ts';

/**
 * The riscv64 packages whose programs native-userland mode serves from their x86_64 twins: what
 * configure, libtool and make start for every file. None of them asks the kernel which machine it
 * runs on except coreutils' `uname` and `arch`, which stay riscv64 (NEVER_SWAP). bash and make
 * carry a compiled-in host type (bash's `$HOSTTYPE`/`$MACHTYPE`, make's `$(MAKE_HOST)` and
 * `--version`), which therefore say x86_64. Evidence that this is acceptable, per package: no
 * public corpus package reads HOSTTYPE or MACHTYPE, and MAKE_HOST only appears in automake's
 * `am__is_gnu_make`, which tests that it is non-empty; the per-package proof (the build trees of
 * both modes compared) catches any package where it leaks, and a build without a proof stands on
 * its own evidence (proof/evidenceLayer.ts: the riscv64 originals this swap diverts to
 * `<path>.riscv64` are what the recorder checks the x86_64 programs against, and the census of
 * the build's text looks for these host types). Pinning the riscv64 values through the
 * environment was tried and rejected: the environment itself leaks (meson's test log records it).
 */
export const SWAPPED_PACKAGES: readonly string[] = [
  'bash',
  'coreutils',
  'dash',
  'diffutils',
  'findutils',
  'grep',
  'm4',
  'make',
  'mawk',
  'sed',
];

/**
 * Perl scripts that run under the x86_64 perl (their first line is pointed at /native/usr/bin/perl;
 * /usr/bin/perl itself stays riscv64, see NEVER_SWAP). The autotools neither ask the kernel for the
 * machine nor read perl's compiled-in configuration, and libtool 2.4 runs `autoconf --version` and
 * `automake --version` at every start (its help text is built eagerly), so under emulation each
 * libtool call costs two perl start-ups.
 */
export const NATIVE_PERL_SCRIPT_PACKAGES: readonly string[] = ['autoconf', 'automake'];

/**
 * The interpreter's packages, which must have the same version in both trees for the scripts
 * above; the first ships /usr/bin/perl.
 */
export const PERL_PACKAGES: readonly string[] = ['perl-base', 'perl'];

/**
 * Programs never swapped whatever package ships them, with the reason. A swapped program runs on
 * the host kernel, so the uname system call says x86_64 there; anything that asks it, or that
 * decides the host processor from its own compiled-in configuration, must stay riscv64.
 */
export const NEVER_SWAP: ReadonlyArray<{ pattern: RegExp; reason: string }> = [
  { pattern: /^(uname|arch)$/, reason: 'reports the machine (uname system call): must say riscv64' },
  {
    pattern: /^stdbuf$/,
    reason: 'preloads a library of its own machine into the program it starts',
  },
  {
    pattern: /^python3(\.\d+)?(-config)?$/,
    reason: 'reads the machine from the kernel (platform, sysconfig) to decide the host processor',
  },
  {
    pattern: /^(cmake|ctest|cpack|meson)$/,
    reason: 'reads the machine from the kernel to decide the host processor',
  },
  {
    pattern: /^perl(5[.\d]*)?$/,
    reason: 'POSIX::uname and a compiled-in archname reach scripts (OpenSSL Configure, autoconf helpers)',
  },
  { pattern: /^(gcc|cc|c\+\+|g\+\+|cpp|ld|as)(-\d+)?$/, reason: 'the toolchain is the accelerated layer’s' },
];

/** Why `path` must stay riscv64, or undefined when it may be swapped. */
export function neverSwapReason(path: string): string | undefined {
  const name = posix.basename(path);
  return NEVER_SWAP.find((rule) => rule.pattern.test(name))?.reason;
}

/** The first line of a script that /usr/bin/perl runs (its switches, if any, follow). */
export const PERL_SHEBANG = /^#! ?\/usr\/bin\/perl(?=\s|$)/;

/** ELF e_machine values. */
export const EM_X86_64 = 62;
export const EM_RISCV = 243;

/** One package as seen in a tree: its version and the executables it ships with their machine. */
export interface PackageFiles {
  version: string;
  /** Paths as dpkg lists them, with the ELF machine of regular executable files (symlinks and scripts absent). */
  executables: ReadonlyMap<string, number>;
  /** Regular files in the bin folders whose first line runs /usr/bin/perl. */
  perlScripts?: readonly string[];
}

export interface SwapPlan {
  /** Paths (as dpkg knows them) to divert and link to `/native<path>`. */
  swaps: string[];
  /** Perl scripts (as dpkg knows them) to divert and rewrite to run /native/usr/bin/perl. */
  perlScripts: string[];
  /** `package: reason` or `path: reason` for what stays riscv64. */
  kept: string[];
}

/**
 * Which riscv64 executables get their x86_64 twin. A package joins only when the same version is
 * installed in both trees; a program only when its twin is an x86_64 executable at the same path
 * in the same package and no NEVER_SWAP rule names it.
 */
export function planUserlandSwap(
  rootfs: ReadonlyMap<string, PackageFiles>,
  tools: ReadonlyMap<string, PackageFiles>,
  packages: readonly string[] = SWAPPED_PACKAGES,
  scriptPackages: readonly string[] = NATIVE_PERL_SCRIPT_PACKAGES,
): SwapPlan {
  const swaps: string[] = [];
  const perlScripts: string[] = [];
  const kept: string[] = [];
  for (const name of packages) {
    const riscv = rootfs.get(name);
    const native = tools.get(name);
    if (!riscv) {
      kept.push(`${name}: not installed in the rootfs`);
      continue;
    }
    if (!native) {
      kept.push(`${name}: not installed in the tools tree`);
      continue;
    }
    if (riscv.version !== native.version) {
      kept.push(`${name}: rootfs ${riscv.version} but tools tree ${native.version}; versions must be equal`);
      continue;
    }
    for (const [path, machine] of [...riscv.executables].sort(([a], [b]) => a.localeCompare(b))) {
      if (machine !== EM_RISCV) continue;
      const reason = neverSwapReason(path);
      if (reason) {
        kept.push(`${path}: ${reason}`);
        continue;
      }
      if (native.executables.get(path) !== EM_X86_64) {
        kept.push(`${path}: no x86_64 twin in ${name} ${native.version}`);
        continue;
      }
      swaps.push(path);
    }
  }
  const perlProblems = perlTwinProblems(rootfs, tools);
  for (const name of scriptPackages) {
    const scripts = rootfs.get(name)?.perlScripts ?? [];
    if (perlProblems.length > 0) {
      if (scripts.length > 0)
        kept.push(`${name}: needs the same perl in both trees (${perlProblems.join('; ')})`);
      continue;
    }
    for (const path of scripts) {
      const reason = neverSwapReason(path);
      if (reason) kept.push(`${path}: ${reason}`);
      else perlScripts.push(path);
    }
  }
  return { swaps, perlScripts: perlScripts.sort(), kept };
}

/**
 * Why the tools tree's perl cannot run the rootfs's perl scripts (empty when it can): it must be
 * an x86_64 /usr/bin/perl of the same PERL_PACKAGES versions, since the scripts then load the
 * rootfs's pure-perl modules of that version.
 */
export function perlTwinProblems(
  rootfs: ReadonlyMap<string, PackageFiles>,
  tools: ReadonlyMap<string, PackageFiles>,
): string[] {
  const problems = PERL_PACKAGES.flatMap((name) => {
    const [riscv, native] = [rootfs.get(name), tools.get(name)];
    return riscv && native && riscv.version === native.version
      ? []
      : [`${name} rootfs ${riscv?.version ?? 'none'}, tools tree ${native?.version ?? 'none'}`];
  });
  if (tools.get(PERL_PACKAGES[0] as string)?.executables.get('/usr/bin/perl') !== EM_X86_64) {
    problems.push('no x86_64 /usr/bin/perl in the tools tree');
  }
  return problems;
}

/**
 * The script, run inside the emulated rootfs after the accelerated one (so the x86_64 loader and
 * libraries are already reachable): divert each path with dpkg and link it to its twin. The links
 * are made by the tools tree's `ln`, since the rootfs's own may be one of the programs moved away.
 */
export function userlandSwapScript(plan: Pick<SwapPlan, 'swaps' | 'perlScripts'>): string {
  const all = [...plan.swaps, ...plan.perlScripts];
  const unsafe = all.filter((p) => !/^\/[\w./+[-]+$/.test(p));
  if (unsafe.length > 0) throw new Error(`unexpected characters in paths to swap: ${unsafe.join(', ')}`);
  const quoted = (paths: readonly string[]) => paths.map((p) => `'${p}'`).join(' ');
  return `set -eu
for f in ${quoted(plan.swaps)}; do
  dpkg-divert --local --rename --divert "$f.riscv64" --add "$f" >/dev/null
  /native/usr/bin/ln -s "/native$f" "$f"
done
for f in ${quoted(plan.perlScripts)}; do
  dpkg-divert --local --rename --divert "$f.riscv64" --add "$f" >/dev/null
  /native/usr/bin/sed '1s|^#! */usr/bin/perl|#! /native/usr/bin/perl|' "$f.riscv64" > "$f"
  /native/usr/bin/chmod 755 "$f"
  /native/usr/bin/head -n 1 "$f" | /native/usr/bin/grep -q '^#! /native/usr/bin/perl'
done
echo swapped: ${all.length}
`;
}

/** Reads, on the host, the versions and executables of `packages` in a Debian tree. */
export async function readPackageFiles(
  tree: string,
  packages: readonly string[],
): Promise<Map<string, PackageFiles>> {
  const installed: InstalledPackage[] = await readInstalledPackages(tree);
  const result = new Map<string, PackageFiles>();
  for (const name of packages) {
    const entry = installed.find((p) => p.name === name);
    if (!entry) continue;
    const list = await readFile(`${tree}/var/lib/dpkg/info/${name}.list`, 'utf8').catch(() =>
      readFile(`${tree}/var/lib/dpkg/info/${name}:${entry.architecture}.list`, 'utf8'),
    );
    const executables = new Map<string, number>();
    const perlScripts: string[] = [];
    for (const path of list.split('\n')) {
      if (!/^\/(usr\/)?s?bin\/[^/]+$/.test(path)) continue;
      const head = await fileHead(`${tree}${path}`);
      if (!head) continue;
      if (head.readUInt32BE(0) === 0x7f454c46 && head.length >= 20)
        executables.set(path, head.readUInt16LE(18));
      else if (PERL_SHEBANG.test(head.toString('latin1'))) perlScripts.push(path);
    }
    result.set(name, { version: entry.version, executables, perlScripts });
  }
  return result;
}

/** The first bytes of a regular file (symlinks are not followed), or undefined. */
async function fileHead(file: string): Promise<Buffer | undefined> {
  const info = await lstat(file).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  const handle = await open(file, 'r');
  try {
    const header = Buffer.alloc(32);
    const { bytesRead } = await handle.read(header, 0, 32, 0);
    return bytesRead >= 4 ? header.subarray(0, bytesRead) : undefined;
  } finally {
    await handle.close();
  }
}
