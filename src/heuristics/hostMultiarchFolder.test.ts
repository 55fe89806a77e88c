import { execFileSync } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hostMultiarchFolder } from './hostMultiarchFolder.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { autotoolsPlan, fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

// Image::Scale's Makefile.PL (Debian trixie's libimage-scale-perl), where it finds jconfig.h
const IMAGE_SCALE_MAKEFILE_PL = `            if ( $JPEG_VERSION eq 'unknown' ) {
                if ( -d catdir($incdir, 'x86_64-linux-gnu') ) { # jconfig.h header is sometimes installed in a subdir
                    $JPEG_VERSION = _re_find( catfile($incdir, 'x86_64-linux-gnu', 'jconfig.h'), qr/JPEG_LIB_VERSION\\s+(\\d+)/ ) || 'unknown';
                }
            }
`;

const perlPlan = {
  ...autotoolsPlan,
  buildSystem: 'perl' as const,
  phases: [
    { name: 'configure' as const, commands: ['perl Makefile.PL INSTALLDIRS=vendor'] },
    { name: 'build' as const, commands: ['make'] },
  ],
};
const perlFailure = { phase: 'configure', command: 'perl Makefile.PL INSTALLDIRS=vendor', exitCode: 2 };

/** Runs the prepare commands in the build's folder of the test's tree, as the sandbox would. */
const runPrepare = (workspace: string, commands: readonly string[]) =>
  execFileSync('sh', ['-c', commands.join('\n')], { cwd: join(workspace, 'src') });

describe('host-multiarch-folder', () => {
  it('rewrites the folder in the Makefile.PL that hard-codes it, and only there', async () => {
    const t = heuristicContext(fixture('multiarch-folder-x86_64'), { plan: perlPlan, failure: perlFailure });
    t.src('Makefile.PL', IMAGE_SCALE_MAKEFILE_PL);
    // a source file and a longer triplet are not the build's folder
    t.src('src/probe.c', '/* built on x86_64-linux-gnu */\n');
    t.src('tools/Makefile', 'LIBDIR = /usr/lib/x86_64-linux-gnux32\n');
    const match = await hostMultiarchFolder.match(t.ctx);
    expect(match?.reason).toContain('/usr/include/x86_64-linux-gnu/jconfig.h');
    expect(match?.reason).toContain('Makefile.PL names');
    const outcome = await hostMultiarchFolder.apply(t.ctx, match as HeuristicMatch);
    const prepare = outcome.plan?.phases[0];
    expect(prepare?.name).toBe('prepare');
    expect(prepare?.commands).toEqual(outcome.commands);
    runPrepare(t.workspace, outcome.commands);
    runPrepare(t.workspace, outcome.commands);
    const edited = readFileSync(join(t.workspace, 'src', 'Makefile.PL'), 'utf8');
    expect(edited).toBe(IMAGE_SCALE_MAKEFILE_PL.replaceAll('x86_64-linux-gnu', 'riscv64-linux-gnu'));
    expect(readFileSync(join(t.workspace, 'src', 'src/probe.c'), 'utf8')).toContain('x86_64-linux-gnu');
    expect(readFileSync(join(t.workspace, 'src', 'tools/Makefile'), 'utf8')).toContain('x86_64-linux-gnux32');
  });

  it('takes the build file the error names, and autotools inputs only where the plan regenerates', async () => {
    const output = 'Makefile:3: /usr/lib/x86_64-linux-gnu/pkg/rules.mk: No such file or directory\n';
    const plan = {
      ...autotoolsPlan,
      phases: [{ name: 'bootstrap' as const, commands: ['autoreconf -fi'] }, ...autotoolsPlan.phases],
    };
    const t = heuristicContext(output, { plan, failure: { phase: 'build', command: 'make' } });
    t.src('Makefile', 'all:\n\ttrue\ninclude /usr/lib/x86_64-linux-gnu/pkg/rules.mk\n');
    t.src('CMakeLists.txt', 'set(X /usr/lib/x86_64-linux-gnu)\n');
    const named = await hostMultiarchFolder.apply(t.ctx, { key: '', reason: '' });
    expect(named.description).toBe('x86_64-linux-gnu becomes riscv64-linux-gnu in Makefile');

    const u = heuristicContext('/usr/lib/x86_64-linux-gnu/libfoo.so: No such file or directory\n', {
      plan,
      failure: { phase: 'build', command: 'make' },
    });
    u.src('configure', 'LIBS=-L/usr/lib/x86_64-linux-gnu\n');
    u.src('configure.ac', 'LIBS=-L/usr/lib/x86_64-linux-gnu\n');
    const all = await hostMultiarchFolder.apply(u.ctx, { key: '', reason: '' });
    expect(all.description).toBe('x86_64-linux-gnu becomes riscv64-linux-gnu in configure.ac, configure');
    runPrepare(u.workspace, all.commands);
    expect(readFileSync(join(u.workspace, 'src', 'configure'), 'utf8')).toBe(
      'LIBS=-L/usr/lib/riscv64-linux-gnu\n',
    );

    const v = heuristicContext('/usr/lib/x86_64-linux-gnu/libfoo.so: No such file or directory\n', {
      failure: { phase: 'build', command: 'make' },
    });
    v.src('configure.ac', 'LIBS=-L/usr/lib/x86_64-linux-gnu\n');
    expect(await hostMultiarchFolder.match(v.ctx)).toBeNull();
  });

  it('needs both the path in the failure and a build file that names it, none linked in', async () => {
    const t = heuristicContext(
      'checking build system type... x86_64-pc-linux-gnu\nconfigure: error: no foo\n',
    );
    t.src('configure', 'x=/usr/lib/x86_64-linux-gnu\n');
    expect(await hostMultiarchFolder.match(t.ctx)).toBeNull();

    const u = heuristicContext(fixture('multiarch-folder-x86_64'), { plan: perlPlan, failure: perlFailure });
    u.src('Makefile.PL', 'use ExtUtils::MakeMaker;\n');
    const outside = join(u.workspace, 'host-Makefile.PL');
    writeFileSync(outside, IMAGE_SCALE_MAKEFILE_PL);
    symlinkSync(outside, join(u.workspace, 'src', 'CMakeLists.txt'));
    expect(await hostMultiarchFolder.match(u.ctx)).toBeNull();
  });
});
