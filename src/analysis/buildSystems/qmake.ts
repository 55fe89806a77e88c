import { posix } from 'node:path';
import type { SourceTree } from '../SourceTree.ts';
import { joinPath } from '../SourceTree.ts';
import { type BuildSystemDetector, PARALLEL } from './BuildSystemDetector.ts';

/** The variables a qmake project sets (`TEMPLATE = app`, `SOURCES += main.cpp`, `QT += widgets`). */
const PROJECT_VARIABLE =
  /^\s*(?:[\w!:|-]+:\s*)?(TEMPLATE|SUBDIRS|SOURCES|HEADERS|FORMS|RESOURCES|QT|CONFIG|TARGET|INCLUDEPATH|LIBS|DEFINES)\s*[+*~-]?=/m;
/** What a full project declares, beyond settings an included fragment could carry. */
const PROJECT_BODY = /^\s*(?:[\w!:|-]+:\s*)?(TEMPLATE|SUBDIRS|SOURCES)\s*[+*~-]?=/m;

/**
 * A project that needs Qt 6: it refuses Qt 5 (`lessThan(QT_MAJOR_VERSION, 6): error(…)`,
 * `!versionAtLeast(QT_VERSION, 6…)`) or uses a module only Qt 6 has (Qt5Compat, Qt Quick 3D's
 * successors, the state machine split out of core).
 */
/** Debian's Qt 5 qmake (qt5-qmake-bin); /usr/bin/qmake is qtchooser's wrapper. */
const QT5_QMAKE = '/usr/lib/qt5/bin/qmake';

const NEEDS_QT6 =
  /lessThan\s*\(\s*QT_MAJOR_VERSION\s*,\s*6\s*\)\s*:\s*error|!\s*versionAtLeast\s*\(\s*QT_VERSION\s*,\s*6[.\d]*\s*\)\s*:\s*error|^\s*QT\s*\+?=.*\b(core5compat|statemachine|shadertools|httpserver|spatialaudio|quick3dphysics)\b/im;

/** The .pro file qmake reads in a folder: the only one, else the one named after the folder. */
function projectFileIn(tree: SourceTree, dir: string): string | null {
  const projects = tree
    .filesIn(dir)
    .filter((f) => f.endsWith('.pro'))
    .filter((f) => PROJECT_VARIABLE.test(tree.read(joinPath(dir, f)) ?? ''));
  if (projects.length <= 1) return projects[0] ?? null;
  const named = dir === '' ? undefined : projects.find((f) => f === `${posix.basename(dir)}.pro`);
  if (named) return named;
  // a SUBDIRS project is the one that builds the rest
  return (
    projects.find((f) => /^\s*TEMPLATE\s*=\s*subdirs\b/im.test(tree.read(joinPath(dir, f)) ?? '')) ??
    [...projects].sort()[0] ??
    null
  );
}

/**
 * qmake, Qt's build (a `*.pro` project): qmake writes the Makefiles, make builds, and
 * `make install` stages into INSTALL_ROOT (qmake's DESTDIR is the build's output folder, not
 * the staging root). `PREFIX=/usr` is set as Debian's dh_auto_configure sets it: projects read
 * it for their install paths (`isEmpty(PREFIX): PREFIX = /usr/local`). Debian's Qt 5 qmake is
 * `/usr/lib/qt5/bin/qmake` (qt5-qmake-bin; `qmake` itself is qtchooser's, which needs a
 * default), Qt 6's is `qmake6`: a project that needs Qt 6 gets qmake6, any other Qt 5's qmake
 * where it is installed, else qmake6 (the Build-Depends brought only Qt 6).
 */
export const qmake: BuildSystemDetector = {
  type: 'qmake',
  detect(tree, dir) {
    const file = projectFileIn(tree, dir);
    if (!file) return null;
    const path = joinPath(dir, file);
    const text = tree.read(path) ?? '';
    const qt6 = NEEDS_QT6.test(text);
    return {
      // a CMake project beside it (0.8) is usually the newer build; a generated Makefile is not one
      confidence: PROJECT_BODY.test(text) ? 0.75 : 0.55,
      evidence: [path],
      details: { project: file, qt: qt6 ? '6' : null },
    };
  },
  defaultPlan(candidate) {
    const project = typeof candidate.details.project === 'string' ? ` ${candidate.details.project}` : '';
    return [
      {
        name: 'configure',
        commands: [qmakeCommand(candidate.details.qt === '6', `PREFIX=/usr${project}`)],
      },
      { name: 'build', commands: [`make ${PARALLEL}`] },
      // qmake writes a `check` target into every Makefile (the testcase projects' tests, else nothing)
      { name: 'test', commands: [`make ${PARALLEL} check`] },
      { name: 'install', commands: ['make INSTALL_ROOT="$RVPORT_DESTDIR" install'] },
    ];
  },
};

/**
 * The qmake command: `qmake6` for a project that needs Qt 6; otherwise Qt 5's qmake where it is
 * installed, else Qt 6's (the Build-Depends brought only Qt 6). The command is named, never
 * taken from an expansion, so the scout's command guard reads the same plan.
 */
function qmakeCommand(qt6: boolean, args: string): string {
  if (qt6) return `qmake6 ${args}`;
  return `if [ -x ${QT5_QMAKE} ]; then ${QT5_QMAKE} ${args}; else qmake6 ${args}; fi`;
}
