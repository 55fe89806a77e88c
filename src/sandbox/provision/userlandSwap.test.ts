import { describe, expect, it } from 'vitest';
import {
  EM_RISCV,
  EM_X86_64,
  NEVER_SWAP,
  neverSwapReason,
  type PackageFiles,
  planUserlandSwap,
  SWAPPED_PACKAGES,
  userlandSwapScript,
} from './userlandSwap.ts';

const pkg = (
  version: string,
  machine: number,
  paths: string[],
  perlScripts: string[] = [],
): PackageFiles => ({
  version,
  executables: new Map(paths.map((p) => [p, machine])),
  perlScripts,
});

const PERL = ['/usr/bin/perl'];
function trees(
  overrides: { rootfs?: Record<string, PackageFiles>; tools?: Record<string, PackageFiles> } = {},
) {
  // the same packages in both trees, built for each tree's machine
  const common = (machine: number) => ({
    coreutils: pkg('9.7-3', machine, ['/usr/bin/ls', '/usr/bin/uname', '/usr/bin/arch', '/usr/bin/stdbuf']),
    sed: pkg('4.9-2', machine, ['/usr/bin/sed']),
    'perl-base': pkg('5.40.1-6', machine, PERL),
    perl: pkg('5.40.1-6', machine, []),
  });
  const rootfs = new Map<string, PackageFiles>(
    Object.entries({
      ...common(EM_RISCV),
      autoconf: pkg('2.72-3.1', EM_RISCV, [], ['/usr/bin/autoconf', '/usr/bin/autoreconf']),
      ...overrides.rootfs,
    }),
  );
  const tools = new Map<string, PackageFiles>(Object.entries({ ...common(EM_X86_64), ...overrides.tools }));
  return { rootfs, tools };
}

describe('planUserlandSwap', () => {
  it('swaps the programs of packages with the same version, never uname, arch or stdbuf', () => {
    const { rootfs, tools } = trees();
    const plan = planUserlandSwap(rootfs, tools, ['coreutils', 'sed']);
    expect(plan.swaps).toEqual(['/usr/bin/ls', '/usr/bin/sed']);
    expect(plan.kept.join('\n')).toMatch(/\/usr\/bin\/uname: reports the machine/);
    expect(plan.kept.join('\n')).toMatch(/\/usr\/bin\/arch: reports the machine/);
    expect(plan.kept.join('\n')).toMatch(/\/usr\/bin\/stdbuf/);
    expect(plan.perlScripts).toEqual(['/usr/bin/autoconf', '/usr/bin/autoreconf']);
  });

  it('refuses a whole package whose versions differ between the trees', () => {
    const { rootfs, tools } = trees({ tools: { sed: pkg('4.9-2+b1', EM_X86_64, ['/usr/bin/sed']) } });
    const plan = planUserlandSwap(rootfs, tools, ['coreutils', 'sed']);
    expect(plan.swaps).toEqual(['/usr/bin/ls']);
    expect(plan.kept).toContain('sed: rootfs 4.9-2 but tools tree 4.9-2+b1; versions must be equal');
  });

  it('needs an x86_64 twin at the same path', () => {
    const { rootfs, tools } = trees({ tools: { sed: pkg('4.9-2', EM_RISCV, ['/usr/bin/sed']) } });
    expect(planUserlandSwap(rootfs, tools, ['sed']).swaps).toEqual([]);
  });

  it('keeps the autotools scripts on the riscv64 perl unless perl matches in both trees', () => {
    const { rootfs, tools } = trees({ tools: { perl: pkg('5.40.1-7', EM_X86_64, []) } });
    const plan = planUserlandSwap(rootfs, tools, []);
    expect(plan.perlScripts).toEqual([]);
    expect(plan.kept.join('\n')).toMatch(
      /autoconf: needs the same perl in both trees \(perl rootfs 5\.40\.1-6/,
    );
  });

  it('never swaps python3, cmake, meson or perl, even when a listed package ships them', () => {
    const never = [
      '/usr/bin/python3',
      '/usr/bin/python3.13',
      '/usr/bin/cmake',
      '/usr/bin/meson',
      '/usr/bin/perl',
    ];
    const { rootfs, tools } = trees({
      rootfs: { evil: pkg('1', EM_RISCV, never) },
      tools: { evil: pkg('1', EM_X86_64, never) },
    });
    const plan = planUserlandSwap(rootfs, tools, ['evil']);
    expect(plan.swaps).toEqual([]);
    expect(plan.kept).toHaveLength(never.length);
  });
});

describe('the swap rules', () => {
  it('name the programs that must stay riscv64', () => {
    for (const name of ['uname', 'arch', 'python3', 'python3.13', 'cmake', 'meson', 'perl', 'gcc', 'cc']) {
      expect(neverSwapReason(`/usr/bin/${name}`), name).toBeDefined();
    }
    for (const name of ['sed', 'make', 'dash', 'expr', 'ls', 'unamex']) {
      expect(neverSwapReason(`/usr/bin/${name}`), name).toBeUndefined();
    }
    expect(NEVER_SWAP.length).toBeGreaterThan(0);
  });

  it('cover the userland the issue names and not the interpreters that read the machine', () => {
    expect(SWAPPED_PACKAGES).toEqual(
      expect.arrayContaining(['dash', 'bash', 'make', 'sed', 'grep', 'mawk', 'm4', 'coreutils', 'findutils']),
    );
    for (const name of ['python3', 'cmake', 'meson', 'perl', 'perl-base'])
      expect(SWAPPED_PACKAGES).not.toContain(name);
  });
});

describe('userlandSwapScript', () => {
  it('diverts each program and links it to its twin, rewriting only the perl scripts’ first line', () => {
    const script = userlandSwapScript({
      swaps: ['/usr/bin/[', '/usr/bin/sed'],
      perlScripts: ['/usr/bin/autoconf'],
    });
    expect(script).toContain(`for f in '/usr/bin/[' '/usr/bin/sed'; do`);
    expect(script).toContain('dpkg-divert --local --rename --divert "$f.riscv64" --add "$f"');
    expect(script).toContain('/native/usr/bin/ln -s "/native$f" "$f"');
    expect(script).toContain(`1s|^#! */usr/bin/perl|#! /native/usr/bin/perl|`);
  });

  it('refuses paths that could break out of the quoting', () => {
    expect(() => userlandSwapScript({ swaps: ["/usr/bin/a'b"], perlScripts: [] })).toThrow(
      /unexpected characters/,
    );
  });
});
