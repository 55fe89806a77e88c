import { autotools } from './autotools.ts';
import type { BuildSystemDetector } from './BuildSystemDetector.ts';
import { cargo } from './cargo.ts';
import { cmake } from './cmake.ts';
import { configure } from './configure.ts';
import { go } from './go.ts';
import { imake } from './imake.ts';
import { make } from './make.ts';
import { meson } from './meson.ts';
import { perl } from './perl.ts';
import { phpExtension } from './phpExtension.ts';
import { python } from './python.ts';
import { qmake } from './qmake.ts';
import { rPackage } from './rPackage.ts';
import { scons } from './scons.ts';
import { waf } from './waf.ts';

/**
 * Every build system rvport knows, in order of preference when the evidence is equally strong
 * (an autotools tree usually also ships a Makefile, a CMake tree sometimes one too).
 */
export const buildSystemDetectors: readonly BuildSystemDetector[] = [
  autotools,
  configure,
  cmake,
  meson,
  cargo,
  go,
  waf,
  scons,
  python,
  perl,
  phpExtension,
  rPackage,
  imake,
  qmake,
  make,
];

export * from './BuildSystemDetector.ts';
