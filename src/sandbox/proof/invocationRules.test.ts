import { describe, expect, it } from 'vitest';
import {
  classifyInvocation,
  isSampled,
  PROGRAM_RULES,
  renderRules,
  samplingHash,
} from './invocationRules.ts';

describe('classifyInvocation', () => {
  it.each([
    ['printf', ['%.30g\\n', '0.1'], true],
    ['printf', ['%5.2f', '1'], true],
    ['printf', ['%Le', '1'], true],
    ['printf', ['%s %d\\n', 'a', '1'], false],
    ['printf', ['100%%'], false],
    ['seq', ['3'], true],
    ['numfmt', ['--to=iec', '1024'], true],
    ['sort', ['-g'], true],
    ['sort', ['-k2,2g'], true],
    ['sort', ['-t:', '-k', '3g'], true],
    ['sort', ['--general-numeric-sort'], true],
    ['sort', ['-n', '-u'], false],
    ['od', ['-t', 'f8'], true],
    ['od', ['-An', '-tx1'], false],
    ['awk', ['{ print exp($1) }'], true],
    ['awk', ['BEGIN { srand(1); print rand() }'], true],
    ['awk', ['{ print $1 }'], false],
    ['awk', ['{ print sqrt ($1) }'], true],
    ['awk', ['{x=log($1)}'], true],
    ['mawk', ['function copy_in_global_log() { return 0 } { print operand, catalog }'], false],
    ['make', ['--version'], true],
    ['make', ['-p', '-f', '/dev/null'], true],
    ['make', ['-j2', 'all'], false],
    ['bash', ['-c', 'echo $HOSTTYPE'], true],
    ['bash', ['--version'], true],
    ['bash', ['./configure'], false],
    // a script's own --version (automake's missing wrapper) is not bash's
    ['bash', ['/build/src/build-aux/missing', 'makeinfo', '--version'], false],
    ['bash', ['-x', './configure', '--version'], false],
    ['bash', ['--norc', '--version'], true],
    ['tr', ['\xe9', 'e'], true],
    ['grep', ['-c', 'x'], false],
    ['dash', ['-c', 'printf %.30g 0.1'], false],
  ] as const)('%s %j machine-dependent: %s', (name, args, machine) => {
    expect(classifyInvocation(name, args).machine).toBe(machine);
  });

  it.each([
    ['sed', ['s/a/b/'], true],
    ['sed', ['-n', '1p', 'file'], true],
    ['sed', ['-i', 's/a/b/', 'file'], false],
    ['sed', ['--in-place=.bak', 's/a/b/'], false],
    ['sed', ['-f', 'script.sed'], false],
    ['sed', ['s/a/b/w out'], false],
    ['sed', ['1e date'], false],
    ['sort', ['-o', 'out', 'in'], false],
    ['sort', ['-R'], false],
    ['sort', ['-u', 'in'], true],
    ['awk', ['{ print $1 > "out" }'], false],
    ['awk', ['BEGIN { system("rm x") }'], false],
    ['awk', ['{ print | "sort" }'], false],
    ['awk', ['$1 > 3 { print }'], true],
    ['make', ['--version'], true],
    ['make', [], false],
    ['make', ['-p'], false],
    ['bash', ['--version'], true],
    ['bash', ['-c', 'echo $HOSTTYPE'], false],
    ['tail', ['-f', 'log'], false],
    ['tail', ['-n', '2'], true],
    ['rm', ['-f', 'x'], false],
    ['mkdir', ['-p', 'd'], false],
    ['cp', ['a', 'b'], false],
    ['find', ['.', '-delete'], false],
    ['xargs', ['rm'], false],
    ['grep', ['-q', 'x', 'f'], true],
  ] as const)('%s %j replayable: %s', (name, args, replayable) => {
    expect(classifyInvocation(name, args).replayable).toBe(replayable);
  });

  it('checks a filter given bytes where char signedness could show, not a program with effects', () => {
    expect(classifyInvocation('sort', ['-t\xff'])).toEqual({ machine: true, replayable: true });
    expect(classifyInvocation('cp', ['\xe9', 'b'])).toEqual({ machine: false, replayable: false });
  });
});

describe('sampling', () => {
  it('is a deterministic function of seed, program, cwd and arguments', () => {
    const a = samplingHash(7, 100, 'sed', '/build', ['s/a/b/']);
    expect(samplingHash(7, 100, 'sed', '/build', ['s/a/b/'])).toBe(a);
    expect(samplingHash(8, 100, 'sed', '/build', ['s/a/b/'])).not.toBe(a);
    expect(samplingHash(7, 100, 'sed', '/build/src', ['s/a/b/'])).not.toBe(a);
    // the same call in another process is another draw
    expect(samplingHash(7, 101, 'sed', '/build', ['s/a/b/'])).not.toBe(a);
    // arguments are NUL-separated: `ab` is not `a b`
    expect(samplingHash(7, 1, 'echo', '/', ['ab'])).not.toBe(samplingHash(7, 1, 'echo', '/', ['a', 'b']));
  });

  it('picks about the asked share of invocations, even of one call repeated, none at 0 and all at 1000', () => {
    // configure's way: one call repeated, each in a process of its own
    const share = (perMille: number) =>
      Array.from({ length: 20_000 }, (_, pid) =>
        isSampled(42, perMille, 1000 + pid, 'cat', '/build', ['conftest.c']),
      ).filter(Boolean).length / 20_000;
    expect(share(0)).toBe(0);
    expect(share(1000)).toBe(1);
    expect(share(20)).toBeGreaterThan(0.015);
    expect(share(20)).toBeLessThan(0.025);
    expect(share(100)).toBeGreaterThan(0.09);
    expect(share(100)).toBeLessThan(0.11);
  });
});

describe('renderRules', () => {
  it('writes one line per program with its class and patterns, and the sampling settings', () => {
    const text = renderRules({ samplePerMille: 25, seed: 9 });
    expect(text).toContain('sample\t25\n');
    expect(text).toContain('seed\t9\n');
    expect(text).toMatch(/^prog\tseq\tfilter\t\*\t-\t-\tno-stdin$/m);
    expect(text).toMatch(/^prog\tcat\tfilter\t-\t-\t-\tstdin$/m);
    expect(text).toMatch(
      /^prog\tbash\tfilter\tHOSTTYPE\|MACHTYPE\|BASH_VERSINFO\t!\^--version\$\t\^--version\$\tstdin$/m,
    );
    expect(text).toMatch(/^prog\tsed\tfilter\t-\t\^-/m);
    expect(text.split('\n').filter((l) => l.startsWith('prog\t'))).toHaveLength(
      Object.keys(PROGRAM_RULES).length,
    );
  });
});
