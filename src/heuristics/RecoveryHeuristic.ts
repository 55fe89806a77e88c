import type { Analysis } from '../analysis/index.ts';
import type { BuildPlan, SourcePatch } from '../plan/index.ts';
import type { Sandbox } from '../sandbox/index.ts';

/**
 * The phase of a FailedStep that is no command: the build succeeded, but verification proved no
 * riscv64 output of it (the output is the verification's reason, the command empty). Only a
 * heuristic that builds another way matches it.
 */
export const NOTHING_PROVEN_PHASE = 'verify';

/** Phases whose failure another build system of the tree, or Debian's own build, may not share. */
export const BUILD_PHASES: ReadonlySet<string> = new Set(['bootstrap', 'configure', 'build']);

/** The build system of the plan that runs Debian's own debian/rules (debianRulesBuild.ts). */
export const DEBIAN_BUILD_SYSTEM = 'debian-rules';

/** A failed command of the build, as the heuristics see it. */
export interface FailedStep {
  phase: string;
  command: string;
  /** stdout and stderr of the command (their tails). */
  output: string;
  exitCode: number;
  timedOut: boolean;
}

/** What a missing thing is, for the Contents index. */
export type PackageKind = 'header' | 'pkgconfig' | 'library' | 'command' | 'cmake-package';

/** What a heuristic may look at and use. */
export interface HeuristicContext {
  failure: FailedStep;
  plan: BuildPlan;
  /** The SOURCE as asked (`debian:NAME=VERSION`, a URL, a folder). */
  source: { readonly spec: string };
  /** The port's source patches so far, in order (a new one is numbered after them). */
  patches: readonly SourcePatch[];
  /** Where Debian's packaging of a `debian:` source was kept, when it was. */
  debianPackaging?: string;
  /** The scripted analysis of the tree (its build systems and dependencies), when init made one. */
  analysis: Pick<Analysis, 'buildSystems' | 'dependencies'> | null;
  sandbox: Sandbox;
  /** The source root inside the sandbox. */
  srcDir: string;
  /**
   * The Debian package that provides a header, pkg-config module, library, command or CMake
   * package (its config file); null if none.
   */
  findPackage(kind: PackageKind, name: string): Promise<string | null>;
  /** The names of the packages the sandbox's lists offer; null (or absent) when that cannot be said. */
  installable?(): Promise<ReadonlySet<string> | null>;
  signal?: AbortSignal;
  log(line: string): void;
}

export interface HeuristicMatch {
  /** What this firing is about (a package, a file, a flag): each key fires once per port. */
  key: string;
  /** Why it matched, for the report. */
  reason: string;
}

export interface HeuristicOutcome {
  /** True when the heuristic did what it meant to (the failed phase is then run again). */
  applied: boolean;
  /** What it did, for the report and the recipe. */
  description: string;
  /** Commands it ran in the sandbox (they become part of the recipe when the build then succeeds). */
  commands: string[];
  /** A changed plan (other commands, another folder, extra flags); absent when the plan stays. */
  plan?: BuildPlan;
  /** Source patches to add after the port's own (they go on every fresh copy of the source). */
  patches?: SourcePatch[];
}

/**
 * One deterministic repair: a trigger on the failure (error text or state) and an action. The
 * runner calls `match` on every failure and `apply` once per key, before the fixer sees it.
 */
export interface RecoveryHeuristic {
  readonly name: string;
  readonly description: string;
  match(ctx: HeuristicContext): HeuristicMatch | null | Promise<HeuristicMatch | null>;
  apply(ctx: HeuristicContext, match: HeuristicMatch): Promise<HeuristicOutcome>;
}
