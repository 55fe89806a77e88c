import type { SourceTree } from '../SourceTree.ts';

export const BUILD_SYSTEM_TYPES = [
  'autotools',
  'configure',
  'cmake',
  'meson',
  'make',
  'go',
  'cargo',
  'scons',
  'waf',
  'python',
  'perl',
  'php',
  'r',
  'imake',
  'qmake',
  'unknown',
] as const;
export type BuildSystemType = (typeof BUILD_SYSTEM_TYPES)[number];

export interface BuildSystemCandidate {
  type: BuildSystemType;
  /** 0..1: how sure the evidence makes us, after the penalty for living in a subfolder. */
  confidence: number;
  /** The folder the build lives in, relative to the source root ('.' for the root). */
  dir: string;
  /** The files that gave it away. */
  evidence: string[];
  /** Facts the default plan needs (e.g. whether `configure` is shipped). */
  details: Record<string, string | boolean | null>;
}

/** A phase of a build system's default plan (the port's BuildPlan turns it into a PlanPhase). */
export interface DefaultPhase {
  name: 'bootstrap' | 'configure' | 'build' | 'test' | 'install';
  /** Shell commands run in the build folder inside the riscv64 sandbox. */
  commands: string[];
}

export interface Detection {
  confidence: number;
  evidence: string[];
  details?: Record<string, string | boolean | null>;
}

/** One build system: how to recognise it in a folder, and its standard recipe. */
export interface BuildSystemDetector {
  type: Exclude<BuildSystemType, 'unknown'>;
  /** Looks only at `dir` ('' is the root); null when the system is not there. */
  detect(tree: SourceTree, dir: string): Detection | null;
  defaultPlan(candidate: BuildSystemCandidate): DefaultPhase[];
}

/** `make -j` with the sandbox's core count; the sandbox shell expands it. */
export const PARALLEL = '-j"$(nproc)"';
