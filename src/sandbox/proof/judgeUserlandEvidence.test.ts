import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { censusBuildText } from './censusBuildText.ts';
import { judgeUserlandEvidence } from './judgeUserlandEvidence.ts';
import { readInvocationLog } from './readInvocationLog.ts';

const LAYER = { key: 'evidence-0123', samplePerMille: 20 };
const NO_CENSUS = { files: 3, hits: [], count: 0 };
const line = (...fields: string[]) => `${fields.join('\t')}\n`;

describe('readInvocationLog', () => {
  it('reads the fields back, undoing the escapes', () => {
    const log = readInvocationLog(
      line('V2', 'machine', 'differ:stdout', '0', '42', 'printf', '/build', '%.30g\\\\n', '0.1') +
        line('V2', 'plain', 'exec', '-1', '42', 'sed', '/build/a\\x09b', '-e', 's/\\x0a//'),
    );
    expect(log.malformed).toBe(0);
    expect(log.invocations).toEqual([
      {
        class: 'machine',
        outcome: 'differ:stdout',
        pid: 42,
        program: 'printf',
        cwd: '/build',
        args: ['%.30g\\n', '0.1'],
      },
      {
        class: 'plain',
        outcome: 'exec',
        pid: 42,
        program: 'sed',
        cwd: '/build/a\tb',
        args: ['-e', 's/\n//'],
      },
    ]);
  });

  it('counts lines that are not the recorder’s', () => {
    const log = readInvocationLog(
      `${line('V2', 'plain', 'exec', '-1', '42', 'sed', '/')}same\nV2\tplain\tok\t0\t42\tsed\t/\nV1\tplain\texec\t0\tsed\t/\n`,
    );
    expect(log.invocations).toHaveLength(1);
    expect(log.malformed).toBe(3);
  });
});

describe('judgeUserlandEvidence', () => {
  const calls = (...lines: string[]) => readInvocationLog(`V2\tstart\n${lines.join('')}`);

  it('accepts a build whose checked invocations all agreed', () => {
    const evidence = judgeUserlandEvidence(
      LAYER,
      calls(
        line('V2', 'machine', 'same', '0', '42', 'seq', '/build', '3'),
        line('V2', 'sample', 'same', '0', '42', 'sed', '/build', 's/a/b/'),
        line('V2', 'sample', 'skip:stdin-open', '-1', '42', 'grep', '/build', 'x'),
        line('V2', 'plain', 'exec', '-1', '42', 'cp', '/build', 'a', 'b'),
      ),
      NO_CENSUS,
    );
    expect(evidence).toMatchObject({
      accepted: true,
      invocations: 4,
      machine: 1,
      machineChecked: 1,
      sampled: 1,
      skipped: 1,
      differences: [],
    });
    expect(evidence.reason).toMatch(
      /1 machine-dependent invocations of 4 were answered by the riscv64 programs, all 1 sampled ones agreed/,
    );
  });

  it('refuses on a sampled difference, naming the invocation', () => {
    const evidence = judgeUserlandEvidence(
      LAYER,
      calls(
        line('V2', 'machine', 'same', '0', '42', 'seq', '/build', '3'),
        line('V2', 'sample', 'differ:stdout', '0', '42', 'sed', '/build', 's/a/b/'),
      ),
      NO_CENSUS,
    );
    expect(evidence.accepted).toBe(false);
    expect(evidence.reason).toBe('sed s/a/b/ gave another result under the riscv64 program (stdout)');
    expect(evidence.differences).toEqual(['sed s/a/b/: differ:stdout']);
  });

  it('accepts a machine-dependent difference: the build got the riscv64 answer', () => {
    const evidence = judgeUserlandEvidence(
      LAYER,
      calls(
        line('V2', 'sample', 'same', '0', '42', 'sed', '/build', 's/a/b/'),
        line('V2', 'machine', 'differ:stdout', '0', '42', 'make', '/build', '--version'),
      ),
      NO_CENSUS,
    );
    expect(evidence.accepted, evidence.reason).toBe(true);
    expect(evidence.differences).toEqual([]);
    expect(evidence.answeredByRiscv64).toEqual(['make --version: differ:stdout']);
    expect(evidence.reason).toMatch(/\(1 of them differ on x86_64\)/);
  });

  it.each([
    [
      calls(line('V2', 'machine', 'unreplayable', '-1', '42', 'make', '/build', '-p')),
      NO_CENSUS,
      /make -p may depend on the machine and cannot be run twice/,
    ],
    [
      calls(line('V2', 'machine', 'skip:tty', '-1', '42', 'seq', '/build', '3')),
      NO_CENSUS,
      /seq 3 .* was not checked \(tty\)/,
    ],
    [
      calls(line('V2', 'plain', 'exec', '-1', '42', 'sed', '/')),
      { files: 1, hits: ['build.sh:3: reads bash’s compiled-in host type'], count: 1 },
      /build.sh:3 reads bash/,
    ],
    [calls(), NO_CENSUS, /left no record/],
    [
      readInvocationLog(line('V2', 'plain', 'exec', '-1', '42', 'sed', '/')),
      NO_CENSUS,
      /log was removed or replaced/,
    ],
    [undefined, NO_CENSUS, /left no record/],
    [
      calls(line('V2', 'plain', 'exec', '-1', '42', 'sed', '/'), 'forged line\n'),
      NO_CENSUS,
      /1 lines of the invocation log/,
    ],
  ] as const)('refuses what it could not check (%#)', (log, census, reason) => {
    const evidence = judgeUserlandEvidence(LAYER, log, { ...census, hits: [...census.hits] });
    expect(evidence.accepted).toBe(false);
    expect(evidence.reason).toMatch(reason);
  });
});

describe('censusBuildText', () => {
  it('looks for bash’s host type in shell and make text, not in C, lex or yacc sources', async () => {
    const root = await mkdtemp(join(tmpdir(), 'rvport-census-'));
    await writeFile(join(root, 'myname.lex'), '%HOSTTYPE { printf("%s",getenv("HOSTTYPE"));}\n');
    await writeFile(join(root, 'conf.h'), '#define HOST MACHTYPE\n');
    // the text that would hand the value to a program is searched, and make's host type is
    // looked for everywhere
    await writeFile(join(root, 'Makefile'), 'CFLAGS += -DMACHTYPE="$$MACHTYPE"\n');
    await writeFile(join(root, 'gen.sh'), '#!/bin/bash\nexport HOSTTYPE; ./prog\n');
    await writeFile(join(root, 'host.c'), 'puts(MAKE_HOST);\n');
    const census = await censusBuildText(root);
    expect(census.hits.sort()).toEqual([
      'Makefile:1: reads bash’s compiled-in host type',
      'gen.sh:2: reads bash’s compiled-in host type',
      'host.c:1: reads make’s compiled-in host type',
    ]);
  });

  it('finds the compiled-in host type and bash float printf, and lets automake’s MAKE_HOST test pass', async () => {
    const root = await mkdtemp(join(tmpdir(), 'rvport-census-'));
    await mkdir(join(root, 'sub'));
    await writeFile(
      join(root, 'Makefile'),
      "am__is_gnu_make = { \\\n  elif test -n '$(MAKE_HOST)'; then \\\n",
    );
    await writeFile(
      join(root, 'sub/gen.sh'),
      '#!/bin/bash\necho "built on $MACHTYPE"\nprintf "%.20g\\n" 0.1\n',
    );
    await writeFile(join(root, 'sub/plain.sh'), '#!/bin/sh\nprintf "%.20g\\n" 0.1\n');
    await writeFile(join(root, 'host.mk'), 'HOST := $(MAKE_HOST)\n');
    await writeFile(
      join(root, 'blob.o'),
      Buffer.from([0x7f, 0x45, 0, 0x4d, 0x41, 0x43, 0x48, 0x54, 0x59, 0x50, 0x45]),
    );
    const census = await censusBuildText(root);
    expect(census.files).toBe(4);
    expect(census.hits.sort()).toEqual([
      'host.mk:1: reads make’s compiled-in host type',
      'sub/gen.sh:2: reads bash’s compiled-in host type',
      'sub/gen.sh:3: formats a float with bash’s builtin printf (long double)',
    ]);
  });
});
