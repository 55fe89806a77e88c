import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecipeCache } from '../../src/recipes/RecipeCache.ts';
import { recipeCacheDir } from '../../src/recipes/recipeCacheDir.ts';
import { commitAll, portWithoutProofs } from '../helpers/localProject.ts';
import { makePortHome } from '../helpers/portHome.ts';
import { provisionedImages } from '../sandbox/provisionedImages.ts';

// A plain-Make package of the test's own, nowhere in the proof table, ported with --mode auto: it
// builds in native-userland mode on its own evidence. A twin writes a header with coreutils
// printf's 30 digits of 0.1, which x86_64 (80-bit long double) and riscv64 (128-bit) print
// differently: the recorder answers that call with the riscv64 printf, and the build stands. A
// third reads bash's compiled-in host type in a call that cannot be run twice: that build is
// refused and redone in accelerated mode.
const MINUTES = 60_000;
let home: string;
let work: string;

const GEN = `#!/bin/sh
# a configure-like generator: many small calls of the text tools
set -e
echo '/* generated */' 
n=0
for w in $(seq 1 30); do
  name=$(echo "word$w" | tr a-z A-Z | sed 's/WORD/W_/')
  case $(expr $w % 3) in 0) kind=three ;; *) kind=$(printf '%s' "k$w" | cut -c1-2) ;; esac
  echo "$name $kind"
  n=$(expr $n + 1)
done | sort -k2,2 -k1,1 | awk '{ printf "#define %s \\"%s\\"\\n", $1, $2 }'
printf '#define COUNT %s\\n' "$(grep -c . words.txt)"
printf '#define LONGEST "%s"\\n' "$(sort words.txt | head -n 1)"
`;

function makeProject(name: string, extra = ''): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'words.txt'), 'riscv\nsandbox\nport\nuserland\n');
  writeFileSync(join(dir, 'gen.sh'), GEN + extra);
  chmodSync(join(dir, 'gen.sh'), 0o755);
  writeFileSync(
    join(dir, 'main.c'),
    '#include <stdio.h>\n#include "gen.h"\nint main(void) { printf("%s %d\\n", W_1, COUNT); return 0; }\n',
  );
  writeFileSync(
    join(dir, 'Makefile'),
    [
      'PREFIX ?= /usr/local',
      `all: ${name}`,
      'gen.h: gen.sh words.txt',
      '\t./gen.sh > gen.h',
      `${name}: main.c gen.h`,
      '\t$(CC) $(CFLAGS) -o $@ main.c',
      'install: all',
      `\tmkdir -p $(DESTDIR)$(PREFIX)/bin && cp ${name} $(DESTDIR)$(PREFIX)/bin/`,
      'clean:',
      `\trm -f ${name} gen.h`,
      '',
    ].join('\n'),
  );
  return commitAll(dir);
}

// no proof for anything: the build must stand on its own evidence
const port = (source: string, out: string) =>
  portWithoutProofs(source, { out: join(work, out), home, maxAttempts: 2 });

beforeAll(async () => {
  await provisionedImages();
  home = makePortHome('rvport-evidence-home-');
  work = mkdtempSync(join(tmpdir(), 'rvport-evidence-work-'));
}, 30 * MINUTES);

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe.sequential('native-userland mode on per-build evidence', () => {
  it(
    'builds a plain-Make package without a proof in the fast userland, and says on what evidence',
    async () => {
      const result = await port(makeProject('evclean'), 'clean');
      expect(result.kind, result.message).toBe('verified');
      const state = result.state;
      expect(state?.options).toMatchObject({ mode: 'native-userland', modeEvidence: 'per-build' });
      const evidence = state?.userlandEvidence;
      expect(evidence?.accepted, evidence?.reason).toBe(true);
      // seq and sort -k…,…  are not machine-dependent but seq is: it went through both programs
      expect(evidence?.machineChecked).toBeGreaterThanOrEqual(1);
      expect(evidence?.invocations).toBeGreaterThan(100);
      expect(evidence?.differences).toEqual([]);
      const report = readFileSync(join(result.outDir, 'report.md'), 'utf8');
      expect(report).toMatch(/mode evidence \| accepted, the build's own/);
      const saved = JSON.parse(readFileSync(join(result.outDir, 'state.json'), 'utf8'));
      expect(saved.userlandEvidence.accepted).toBe(true);
      const { entries } = await new RecipeCache(recipeCacheDir({ RVPORT_HOME: home })).list();
      expect(entries.find((e) => e.package === 'evclean')?.modeEvidence).toMatchObject({
        mode: 'native-userland',
        kind: 'per-build',
      });
    },
    30 * MINUTES,
  );

  it(
    'answers a machine-dependent call with the riscv64 program, so the fast build stands',
    async () => {
      const dir = makeProject('evfloat', '/usr/bin/printf \'#define TENTH "%.30g"\\n\' 0.1\n');
      const result = await port(dir, 'float');
      expect(result.kind, result.message).toBe('verified');
      const state = result.state;
      expect(state?.options).toMatchObject({ mode: 'native-userland', modeEvidence: 'per-build' });
      expect(state?.userlandEvidence?.accepted, state?.userlandEvidence?.reason).toBe(true);
      expect(state?.userlandEvidence?.differences).toEqual([]);
      expect(state?.userlandEvidence?.answeredByRiscv64?.[0]).toMatch(
        /^printf .*%\.30g.* 0\.1: differ:stdout$/,
      );
      const report = readFileSync(join(result.outDir, 'report.md'), 'utf8');
      expect(report).toMatch(/mode evidence \| accepted, .*answered by riscv64 where x86_64 differs: printf/);
    },
    30 * MINUTES,
  );

  it(
    'catches a build that reads the host type where no second run can check it, and redoes it in accelerated mode',
    async () => {
      const dir = makeProject('evhost', `bash -c 'printf "#define HOST \\"%s\\"\\n" "$HOSTTYPE"'\n`);
      const result = await port(dir, 'host');
      expect(result.kind, result.message).toBe('verified');
      const state = result.state;
      expect(state?.options.mode).toBe('accelerated');
      expect(state?.options.modeReason).toMatch(
        /evidence was refused \(bash -c .*HOSTTYPE.* may depend on the machine and cannot be run twice\); redone in accelerated mode/,
      );
      expect(state?.userlandEvidence?.accepted).toBe(false);
      expect(state?.userlandEvidence?.unreplayable[0]).toMatch(/^bash -c .*HOSTTYPE/);
      const report = readFileSync(join(result.outDir, 'report.md'), 'utf8');
      expect(report).toMatch(
        /sandbox mode \| accelerated: native-userland mode on the build's own evidence was refused/,
      );
      expect(report).toMatch(/mode evidence \| refused/);
      // only the accelerated build is remembered
      const { entries } = await new RecipeCache(recipeCacheDir({ RVPORT_HOME: home })).list();
      expect(entries.filter((e) => e.package === 'evhost').map((e) => e.modeEvidence?.mode)).toEqual([
        'accelerated',
      ]);
    },
    40 * MINUTES,
  );

  it(
    'does not build again in accelerated mode a failure the compiler made, after a build on accepted evidence',
    async () => {
      const dir = makeProject('evbroken');
      writeFileSync(
        join(dir, 'main.c'),
        '#include "gen.h"\nint main(void) { return COUNT + undeclared_thing; }\n',
      );
      execFileSync(
        'git',
        ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-qam', 'break'],
        {
          cwd: dir,
        },
      );
      const result = await port(dir, 'broken');
      expect(result.kind, result.message).toBe('escalated');
      const state = result.state;
      // the port stayed in the mode it built in: no second build in accelerated mode
      expect(state?.options).toMatchObject({ mode: 'native-userland', modeEvidence: 'per-build' });
      expect(state?.userlandEvidence?.accepted, state?.userlandEvidence?.reason).toBe(true);
      expect(state?.errors.at(-1)?.errorLine).toMatch(/^main\.c:2:\d+: error: .undeclared_thing. undeclared/);
    },
    30 * MINUTES,
  );
});
