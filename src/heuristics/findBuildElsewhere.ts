import { posix } from 'node:path';
import { existsConfined, walkConfined } from '../fs/index.ts';
import type { BuildPlan } from '../plan/index.ts';
import { buildTreeRoot } from './buildTreeRoot.ts';
import { mapCommands } from './planEdits.ts';
import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';

const NO_MAKEFILE = /No targets specified and no makefile found|No rule to make target '(all|install)'/;
const MAKEFILES = ['GNUmakefile', 'makefile', 'Makefile'];

function cmakePlan(plan: BuildPlan): BuildPlan {
  return {
    ...plan,
    buildSystem: 'cmake',
    phases: [
      ...plan.phases.filter((p) => p.name === 'prepare'),
      {
        name: 'configure',
        commands: ['cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr'],
      },
      { name: 'build', commands: ['cmake --build build -j"$(nproc)"'] },
      { name: 'test', commands: ['ctest --test-dir build --output-on-failure'], optional: true },
      { name: 'install', commands: ['DESTDIR="$RVPORT_DESTDIR" cmake --install build'] },
    ],
  };
}

/**
 * make finds no makefile: when the folder has a CMakeLists.txt, configure with CMake first;
 * otherwise move into the nearest subfolder that has a makefile (the real build of a project
 * whose top level is for another platform).
 */
export const findBuildElsewhere: RecoveryHeuristic = {
  name: 'find-the-build',
  description: 'configure CMake before make, or move into the folder that holds the build',
  match(ctx) {
    if (!NO_MAKEFILE.test(ctx.failure.output)) return null;
    const src = buildTreeRoot(ctx);
    if (existsConfined(src, posix.join(ctx.plan.dir, 'CMakeLists.txt')))
      return { key: `cmake:${ctx.plan.dir}`, reason: 'no makefile, but a CMakeLists.txt' };
    const sub = nearestMakefileDir(src, ctx.plan.dir);
    if (sub) return { key: `dir:${sub}`, reason: `no makefile here, but one in ${sub}/` };
    // configure in a subfolder that writes the makefile above it (arj: gnu/ makes ../GNUmakefile)
    for (let d = ctx.plan.dir; d !== '.' && d !== ''; d = posix.dirname(d)) {
      const parent = posix.dirname(d);
      if (hasMakefile(src, parent)) {
        return {
          key: `up:${parent}`,
          reason: `no makefile here; configure wrote one in ${parent === '.' ? 'the source root' : `${parent}/`}`,
        };
      }
    }
    return null;
  },
  async apply(ctx, match) {
    if (match.key.startsWith('cmake:')) {
      return {
        applied: true,
        description: 'configure with CMake before building',
        commands: [],
        plan: cmakePlan(ctx.plan),
      };
    }
    if (match.key.startsWith('up:')) {
      const target = match.key.slice('up:'.length);
      const where = target === '.' ? '"$RVPORT_SRC"' : `"$RVPORT_SRC/${target}"`;
      const plan = mapCommands(ctx.plan, (c, phase) =>
        ['build', 'test', 'install'].includes(phase) && /^make\b/.test(c)
          ? c.replace(/^make\b/, `make -C ${where}`)
          : c,
      );
      return {
        applied: true,
        description: `run make in ${target === '.' ? 'the source root' : `${target}/`}, where configure wrote the makefile`,
        commands: [],
        plan,
      };
    }
    const sub = match.key.slice('dir:'.length);
    const dir = posix.join(ctx.plan.dir, sub);
    return { applied: true, description: `build in ${dir}/`, commands: [], plan: { ...ctx.plan, dir } };
  },
};

function hasMakefile(root: string, dir: string): boolean {
  return MAKEFILES.some((m) => existsConfined(root, posix.join(dir, m)));
}

/** The nearest subfolder of `dir` (two levels at most, breadth first) with a makefile, relative to `dir`. */
function nearestMakefileDir(root: string, dir: string): string | null {
  let level = [''];
  for (let depth = 0; depth < 2; depth++) {
    const next: string[] = [];
    for (const rel of level) {
      let entries: ReturnType<typeof walkConfined>['entries'];
      try {
        entries = walkConfined(root, { from: posix.join(dir, rel || '.'), maxDepth: 0 }).entries;
      } catch {
        continue;
      }
      for (const e of entries
        .filter((x) => x.type === 'directory' && !x.name.startsWith('.'))
        .sort((a, b) => a.name.localeCompare(b.name))) {
        const path = rel ? `${rel}/${e.name}` : e.name;
        if (hasMakefile(root, posix.join(dir, path))) return path;
        next.push(path);
      }
    }
    level = next;
  }
  return null;
}
